"""Jinja2 for the templates that need it: the PR comment, and a user's `--template`.

Templates run in Jinja2's sandbox (a user's `--template` is code we did not write); `*` and
`**` may not build values big enough to exhaust memory, and a template may include only files
of its own directory. Imported only when such a template renders (Jinja2 costs ~30 ms to
import; the prompt and markdown templates are written in Python, `render/builtin.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment

from graphiq_ci.errors import GraphiqError
from graphiq_ci.paths import one_line
from graphiq_ci.render.builtin import code_span, why
from graphiq_ci.render.safe import code_block, escape_md_inline

#: a template may not build strings or numbers beyond this (a sandbox escape by memory)
MAX_TEMPLATE_VALUE = 1_000_000


class _ConfinedLoader(jinja2.FileSystemLoader):
    """Templates from one directory only: a name or symlink that leads out of it is not found.

    `FileSystemLoader` already refuses `..` and absolute names but follows symlinks, so a
    template could `{% include %}` a link to any file on the machine.
    """

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        for base in self.searchpath:
            path = Path(base, *pieces)
            if path.exists() and not path.resolve().is_relative_to(Path(base).resolve()):
                raise jinja2.TemplateNotFound(template)
        return super().get_source(environment, template)


class _Sandbox(SandboxedEnvironment):
    """Jinja2's sandbox, and `*` / `**` may not build values big enough to exhaust memory."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any,
                   right: Any) -> Any:
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) \
                        and len(seq) * times > MAX_TEMPLATE_VALUE:
                    raise SecurityError("the template builds a value too large to render")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) \
                and abs(left) > 1 and right > 64:
            raise SecurityError("the template computes a number too large to render")
        return super().call_binop(context, operator, left, right)


def _environment(search_path: str | None = None) -> SandboxedEnvironment:
    loader: jinja2.BaseLoader
    if search_path is None:
        loader = jinja2.PackageLoader("graphiq_ci.templates", ".")
    else:
        loader = _ConfinedLoader(search_path)
    env = _Sandbox(loader=loader, autoescape=False, keep_trailing_newline=True,
                   undefined=jinja2.StrictUndefined)
    env.filters["code"] = code_span
    env.filters["inline"] = escape_md_inline
    env.filters["codeblock"] = lambda text, language="": code_block(text, language)
    env.filters["why"] = why
    env.filters["line"] = one_line
    return env


def jinja_template(fmt: str, template: Path | None) -> Callable[[dict[str, Any]], str]:
    """`template` (a path), else the built-in `<fmt>.md.j2`, compiled in the sandbox."""
    try:
        if template is not None:
            tpl = _environment(str(template.parent)).get_template(template.name)
        else:
            tpl = _environment().get_template(f"{fmt}.md.j2")
    except jinja2.TemplateError as exc:
        raise GraphiqError(f"template {template or fmt}: {exc}") from None
    return lambda view: tpl.render(**view)
