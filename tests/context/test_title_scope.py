"""A commit title's scope (`fix(sse): …`, `walker: …`) names the area it changes: paths
holding its words get the `scope` feature (context/files.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.context.terms import extract_terms


def test_the_scope_is_read_from_the_title_only() -> None:
    assert extract_terms("fix(sse): skip incompatible chars").scope == ("sse",)
    assert extract_terms("feat(render)!: drop the old path").scope == ("render",)
    assert extract_terms("axum-extra: remove a stray deprecation").scope == ("axum", "extra")
    assert extract_terms("walker: do not treat '..' as hidden").scope == ("walker",)
    # a path as the scope (Go's `net/http: …`, ripgrep's `ignore/types: …`)
    assert extract_terms("ignore/types: add Hurl").scope == ("ignore", "types")
    assert extract_terms("net/http: close idle conns").scope == ("net", "http")
    assert extract_terms("see https://example.com: a link").scope == ()
    assert extract_terms("fix: a crash on exit").scope == ()  # a change type, not an area
    assert extract_terms("Crash on exit\n\nfix(sse): later line").scope == ()


def _json(n: int) -> str:
    """The task's words, and an sse mention: a json encoder an sse stream may use."""
    return (f"def encode_{n}(value):\n    # skip chars the encoder cannot take (sse too)\n"
            "    return str(value).replace('\\n', ' ')\n")


def test_a_file_in_the_scoped_area_ranks_first(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    files = {f"response/json_{n}.py": _json(n) for n in range(4)}
    files["response/sse.py"] = ("def event(data):\n"
                                "    # skip the chars an event's data line cannot take\n"
                                "    return 'data: ' + data.replace('\\n', '')\n")
    root = make_repo(files)
    task = "fix(sse): skip chars the encoder cannot take"
    ctx = graphiq_ci.build_context(root, task, Options())
    assert ctx.files[0].path == "response/sse.py", [(f.path, f.reasons) for f in ctx.files]
    assert "in the area the title names" in ctx.files[0].why
    unscoped = graphiq_ci.build_context(root, "sse: skip chars the encoder cannot take"
                                        .replace(":", ""), Options())
    assert unscoped.files[0].path != "response/sse.py"  # the same words, no scope


def test_a_scope_held_by_many_paths_weighs_less_on_each(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`fix(localization):` in a repository with 80 localization files names a broad area:
    each of them gets 60/80 of the scope's weight (context/files.py: SCOPE_PATHS)."""
    files = {f"localization/lang_{n}.py": _json(n) for n in range(80)}
    files["response/sse.py"] = _json(99)
    root = make_repo(files)
    broad = graphiq_ci.build_context(root, "fix(localization): skip chars the encoder cannot "
                                     "take", Options())
    scoped = [r for f in broad.files for r in f.reasons if r.startswith("scope")]
    assert scoped and set(scoped) == {"scope +0.375"}, scoped
    narrow = graphiq_ci.build_context(root, "fix(sse): skip chars the encoder cannot take",
                                      Options())
    assert "scope +0.500" in next(f for f in narrow.files if f.path == "response/sse.py").reasons
