"""Uses inside a decorator count for the definition it decorates, not the enclosing scope."""

from __future__ import annotations

from lang_helpers import parse, refs

from graphiq_ci.model import EdgeKind


def test_python_decorators_are_calls_made_for_the_decorated_definition() -> None:
    source = ("import functools\n@functools.cache\ndef a(): pass\n@route(make())\ndef b(): pass\n"
              "class K:\n    @staticmethod\n    @trace\n    def m(): pass\n")
    calls = refs(parse("python", "m.py", source), EdgeKind.CALLS)
    assert calls == {("a", "cache"), ("b", "route"), ("b", "make"), ("K.m", "staticmethod"),
                     ("K.m", "trace")}


def test_typescript_decorators_count_for_their_class_or_method() -> None:
    source = "@Injectable\nclass A {\n  @Log m() {}\n  @ns.Track()\n  n() {}\n}\n"
    calls = refs(parse("typescript", "a.ts", source), EdgeKind.CALLS)
    assert calls == {("A", "Injectable"), ("A.m", "Log"), ("A.n", "Track")}
