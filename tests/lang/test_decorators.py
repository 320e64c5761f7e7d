"""Decorators are calls made for what they decorate; annotations and attributes are uses of
their type where applied. Either way the use counts for the definition below it."""

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


def test_kotlin_annotations_and_csharp_attributes_reference_their_type() -> None:
    kotlin = "@Inject class A {\n  @a.Named(\"x\") fun f() {}\n}\n"
    assert {("A", "Inject"), ("A.f", "Named")} <= refs(parse("kotlin", "A.kt", kotlin),
                                                       EdgeKind.REFERENCES)
    csharp = "[Serializable]\nclass A {\n  [N.Route(\"x\"), Obsolete] void F() {}\n}\n"
    assert {("A", "Serializable"), ("A.F", "Route"), ("A.F", "Obsolete")} <= refs(
        parse("csharp", "A.cs", csharp), EdgeKind.REFERENCES)
