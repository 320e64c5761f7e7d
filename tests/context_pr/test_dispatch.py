"""Calls that may dispatch to a changed method are named, marked as possible, never guessed
into edges: `param.render(ctx)` with two `render` methods and no type for `param`, and a call
through a typed base whose method has same-arity overloads (Java).

Real repos, real branches, the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

from .shop import feature_branch, graphiq

PYTHON = {
    "params.py": '''class Argument:
    def render_help(self, ctx):
        return "arg"


class Option:
    def render_help(self, ctx):
        return "opt"
''',
    "formatter.py": '''def format_all(params, ctx):
    return [param.render_help(ctx) for param in params]
''',
    "other.py": '''from pathlib import Path


def unrelated(p: Path):
    return p.render_help(1)
''',
}


def _change(repo: Path, qualified: str) -> dict:
    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo).stdout)
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    (change,) = [c for c in data["changes"] if by_id[c["id"]] == qualified]
    return change


def test_an_untyped_receivers_call_is_a_possible_caller(tmp_path: Path) -> None:
    repo = feature_branch(tmp_path / "repo", PYTHON, (
        "params.py", "    def render_help(self, ctx):\n        return \"opt\"\n",
        "    def render_help(self, ctx, width):\n        return \"opt\"\n"))

    change = _change(repo.path, "Option.render_help")

    # no edge: the call stays unresolved, and the count of callers says so
    assert change["callers"] == 0
    # `p: Path` is not this repository's type: its call is not a candidate
    assert [(s["caller"], s["line"], s["possible"]) for s in change["call_sites"]] == [
        ("format_all", 2, True)]
    out = graphiq("context", "--diff", cwd=repo.path).stdout
    assert ("  - `format_all` may call it (a call of its name not resolved to one definition) "
            "at `formatter.py:2`") in out


JAVA = {
    "src/shop/Evaluator.java": """package shop;
abstract class Evaluator {
  abstract boolean matches(String root, String element);
  boolean matches(String root, Integer element) { return false; }
  static class Tag extends Evaluator {
    boolean matches(String root, String element) { return true; }
  }
}
""",
    "src/shop/Element.java": """package shop;
class Element {
  boolean is(Evaluator evaluator) { return evaluator.matches("a", "b"); }
}
""",
    "src/shop/Clock.java": """package shop;
class Clock {
  boolean matches(String a, String b) { return false; }
  boolean tick(Clock c) { return c.matches("a", "b"); }
}
""",
}


def test_a_call_through_the_base_type_with_overloads_is_a_possible_caller(
        tmp_path: Path) -> None:
    """`evaluator.matches(a, b)`: two `matches` of two parameters in `Evaluator`, so the call
    resolves to neither; it dispatches to `Tag.matches`, which overrides them. `c.matches` on
    the unrelated `Clock` resolves to `Clock.matches` and is no caller of it."""
    repo = feature_branch(tmp_path / "repo", JAVA, (
        "src/shop/Evaluator.java", "{ return true; }", "{ return root.isEmpty(); }"))

    change = _change(repo.path, "Evaluator.Tag.matches")

    assert [(s["caller"], s["possible"]) for s in change["call_sites"]] == [
        ("Element.is", True)]


TYPESCRIPT = {
    "src/classic.ts": """export interface ZodType {
  optional(): ZodType;
  default(def: string): ZodType;
  default(def: () => string): ZodType;
}
""",
    "src/v3.ts": """export class ZodType {
  default(def: unknown) { return this; }
}
""",
    **{f"src/locales/{lang}.ts": "export default function () {\n  return { lang: 1 };\n}\n"
       for lang in ("ar", "de", "en", "fr", "ja")},
    "play.ts": """export const sorted = (schema: any) => schema.array().default([]);
""",
}


def test_namesakes_are_methods_counted_once(tmp_path: Path) -> None:
    """`schema.array().default([])` has no type; `default` is two methods (one of them two
    overload signatures) and five locale files' `export default function`, which no untyped
    `x.default()` reaches. Counted as eight namesakes the call was dropped; as two methods it
    is a possible caller of the changed interface method."""
    repo = feature_branch(tmp_path / "repo", TYPESCRIPT, (
        "src/classic.ts", "  default(def: string): ZodType;", "  default(def: number): ZodType;"))

    change = _change(repo.path, "ZodType.default")

    assert [(s["caller"], s["possible"]) for s in change["call_sites"]] == [("sorted", True)]
