"""`.graphiq.yml` → a frozen `Config`, with errors that name the key and the expected type.

A typo in a config file should never be silently ignored nor crash with a traceback:
unknown keys become warnings that suggest the nearest known key, and values of the
wrong type become one `GraphiqError` naming the key path ("budgets.max_nodes").
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from graphiq_ci.errors import GraphiqError

CONFIG_FILENAME = ".graphiq.yml"
MIB = 1024 * 1024


class Budgets(NamedTuple):
    """How much context one answer may hold: graph nodes, rendered tokens, walk depth."""

    max_nodes: int = 24
    max_tokens: int = 1800
    depth: int = 2
    #: room for a PR's changed lines on top of max_tokens (PR mode only): the change is what a
    #: reviewer came for, and a large one would not fit a budget sized for the context
    change_tokens: int = 8000


class Config(NamedTuple):
    """The effective configuration; every field has a default so a missing file is valid."""

    trunk: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    languages: tuple[str, ...] | None = None  # None: every language graphiq-ci knows
    max_file_size: int = MIB
    budgets: Budgets = Budgets()
    templates: Mapping[str, str] = MappingProxyType({})  # read-only: one default is shared
    weights: Mapping[str, float] = MappingProxyType({})
    cochange_commits: int = 500

    def as_dict(self) -> dict[str, Any]:
        """Plain lists and dicts, in field order, for `config --show` (YAML or JSON)."""
        return {
            "trunk": self.trunk,
            "include": list(self.include),
            "exclude": list(self.exclude),
            "languages": None if self.languages is None else list(self.languages),
            "max_file_size": self.max_file_size,
            "budgets": {
                "max_nodes": self.budgets.max_nodes,
                "max_tokens": self.budgets.max_tokens,
                "depth": self.budgets.depth,
                "change_tokens": self.budgets.change_tokens,
            },
            "templates": dict(self.templates),
            "weights": dict(self.weights),
            "cochange_commits": self.cochange_commits,
        }


_TOP_LEVEL_KEYS = tuple(Config().as_dict())
_BUDGET_KEYS = tuple(Config().as_dict()["budgets"])


def load_config(repo_root: Path) -> tuple[Config, list[str]]:
    """Read `.graphiq.yml` at `repo_root`; return the config and human-readable warnings."""
    path = repo_root / CONFIG_FILENAME
    if not path.is_file():
        return Config(), []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GraphiqError(f"{CONFIG_FILENAME}: cannot read: {exc}") from None
    return parse_config(text)


def parse_config(text: str) -> tuple[Config, list[str]]:
    """Parse the YAML text of a config file; see `load_config`."""
    import yaml  # only repositories with a .graphiq.yml pay for it

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise GraphiqError(_describe_yaml_error(exc)) from None
    if data is None:
        return Config(), []
    raw = _mapping(data, "")
    warnings = _unknown_keys(raw, _TOP_LEVEL_KEYS, "")
    defaults = Config()
    budgets_raw = _mapping(_get(raw, "budgets", {}), "budgets")
    warnings += _unknown_keys(budgets_raw, _BUDGET_KEYS, "budgets.")
    budgets = Budgets(
        max_nodes=_int(budgets_raw, "max_nodes", defaults.budgets.max_nodes, "budgets.", minimum=1),
        max_tokens=_int(
            budgets_raw, "max_tokens", defaults.budgets.max_tokens, "budgets.", minimum=1
        ),
        depth=_int(budgets_raw, "depth", defaults.budgets.depth, "budgets.", minimum=0),
        change_tokens=_int(budgets_raw, "change_tokens", defaults.budgets.change_tokens,
                           "budgets.", minimum=0),
    )
    languages = raw.get("languages")
    config = Config(
        trunk=_optional_str(raw.get("trunk"), "trunk"),
        include=_str_list(_get(raw, "include", []), "include"),
        exclude=_str_list(_get(raw, "exclude", []), "exclude"),
        languages=None
        if languages is None
        else tuple(lang.lower() for lang in _str_list(languages, "languages")),
        max_file_size=_int(raw, "max_file_size", defaults.max_file_size, "", minimum=1),
        budgets=budgets,
        templates=MappingProxyType(_str_mapping(_get(raw, "templates", {}), "templates")),
        weights=MappingProxyType(_weights(_get(raw, "weights", {}))),
        cochange_commits=_int(raw, "cochange_commits", defaults.cochange_commits, "", minimum=0),
    )
    return config, warnings


def _describe_yaml_error(exc: Exception) -> str:
    """`.graphiq.yml:4: invalid YAML: … (while parsing a flow sequence started on line 3)`."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    where = CONFIG_FILENAME if mark is None else f"{CONFIG_FILENAME}:{mark.line + 1}"
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and context_mark is not None and context_mark.line != getattr(mark, "line", None):
        problem += f" ({context} started on line {context_mark.line + 1})"
    return f"{where}: invalid YAML: {problem}"


def _unknown_keys(raw: Mapping[str, Any], known: tuple[str, ...], prefix: str) -> list[str]:
    warnings = []
    for key in raw:
        if key in known:
            continue
        import difflib  # only for a key that is not known: every command loads the config

        near = difflib.get_close_matches(str(key), known, n=1)
        hint = f" (did you mean '{prefix}{near[0]}'?)" if near else ""
        warnings.append(f"{CONFIG_FILENAME}: unknown key '{prefix}{key}' ignored{hint}")
    return warnings


def _get(raw: Mapping[str, Any], key: str, default: object) -> Any:
    """A key written with no value (`budgets:` with its children commented out) means default."""
    value = raw.get(key)
    return default if value is None else value


def _wrong_type(path: str, expected: str, value: object) -> GraphiqError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    where = path or CONFIG_FILENAME
    return GraphiqError(f"{where}: expected {expected}, got {shown}")


def _mapping(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise _wrong_type(path, "a mapping of names to values", value)
    return value


def _optional_str(value: object, path: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _wrong_type(path, "a string", value)


def _str_list(value: object, path: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _wrong_type(path, "a list of strings", value)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise _wrong_type(f"{path}[{i}]", "a string", item)
    return tuple(value)


def _int(raw: Mapping[str, Any], key: str, default: int, prefix: str, *, minimum: int) -> int:
    value = _get(raw, key, default)
    # bool is an int subclass; `max_nodes: yes` is a mistake, not 1.
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong_type(prefix + key, "an integer", value)
    if value < minimum:
        raise _wrong_type(prefix + key, f"an integer >= {minimum}", value)
    return value


def _str_mapping(value: object, path: str) -> dict[str, str]:
    mapping = _mapping(value, path)
    for key, item in mapping.items():
        if not isinstance(item, str):
            raise _wrong_type(f"{path}.{key}", "a string", item)
    return dict(mapping)


def _weights(value: object) -> dict[str, float]:
    mapping = _mapping(value, "weights")
    weights = {}
    for key, item in mapping.items():
        if not isinstance(item, (int, float)) or isinstance(item, bool):
            raise _wrong_type(f"weights.{key}", "a number", item)
        weights[key] = float(item)
    return weights
