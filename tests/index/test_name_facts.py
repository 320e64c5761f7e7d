"""Language facts that decide what a bare name can mean: a constructor is its type, a bare call
in Go or Python never reaches a method, an overloaded name is one definition only where the
language says so, and in Java a call's argument count picks among overloads.
Real git repos, the real indexer, edges read back from the index.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index

from .test_receivers import calls

JAVA = {
    "src/shop/Evaluator.java": """package shop;
abstract class Evaluator {
  Evaluator() {}
  Evaluator(int cost) {}
  abstract boolean matches(String s);
  static class Tag extends Evaluator {
    Tag(String name) {}
    Tag(int n) {}
    boolean matches(String s) { return true; }
  }
}
""",
    "src/shop/Parser.java": """package shop;
class Parser {
  Evaluator tag() { return new Evaluator.Tag("p"); }
  int size(int n) { return n; }
  int size(String s) { return 1; }
  int size(String s, int n) { return n; }
  int log(String... parts) { return parts.length; }
  int log(int level) { return level; }
  int measure() { return size(2); }
  int pair() { return size("a", 2) + log("a", "b", "c"); }
}
""",
}
GO = {
    "go.mod": "module shop\n",
    "render.go": """package shop

type Terminal struct{}

func render(s string) string { return s }

func (t *Terminal) render(s string) string { return render(s) }

func (t *Terminal) Show() string { return t.render("x") }
""",
}
PYTHON = {
    "models.py": '''from typing import overload


class Request:
    @overload
    def encode(self, data: str) -> str: ...

    @overload
    def encode(self, data: bytes) -> bytes: ...

    def encode(self, data):
        return data


class Prepared(Request):
    def prepare(self, data):
        return self.encode(data)


def helper():
    return 1


class Job:
    def helper(self):
        return helper()
''',
}


def rows(repo: Path, sql: str) -> set[tuple[object, ...]]:
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        return set(conn.execute(sql))
    finally:
        conn.close()


def call_edges(repo: Path) -> set[tuple[object, ...]]:
    """(caller, callee, the callee's file) of every call edge."""
    return rows(repo, "SELECT a.qualified, b.qualified, fb.path FROM edges e JOIN symbols a "
                "ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id JOIN files fb "
                "ON fb.id = b.file_id WHERE e.kind = 'calls'")


def test_an_instantiation_and_an_extends_name_the_type_not_a_constructor(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`new Evaluator.Tag(…)` with two `Tag` constructors still resolves (to the type, which
    stands for its constructors); `extends Evaluator` is the class, so `Tag.matches` overrides
    `Evaluator.matches`."""
    repo = make_repo(JAVA)
    run_index(repo)
    edges = calls(repo)
    assert ("Parser.tag", "Evaluator.Tag") in edges
    extends = rows(repo, "SELECT a.qualified, b.qualified, b.kind FROM edges e JOIN symbols a "
                   "ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id WHERE e.kind = 'extends'")
    assert extends == {("Evaluator.Tag", "Evaluator", "class")}
    # Java overloads are different methods: one argument fits two `size`s, so neither is
    # guessed; two arguments fit only `size(String, int)`, three only the varargs `log`
    assert not {dst for src, dst in edges if src == "Parser.measure"}
    picked = rows(repo, "SELECT b.name, b.line FROM edges e JOIN symbols a ON a.id = e.src_id "
                  "JOIN symbols b ON b.id = e.dst_id WHERE e.kind = 'calls' "
                  "AND a.qualified = 'Parser.pair'")
    assert picked == {("size", 6), ("log", 7)}


def test_a_bare_go_call_is_the_package_function_not_the_method(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(GO)
    run_index(repo)
    edges = calls(repo)
    assert ("Terminal.render", "render") in edges
    assert ("Terminal.Show", "Terminal.render") in edges


def test_python_overloads_are_one_function_and_bare_calls_skip_methods(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Three `def encode` in one class are one method (the last is what runs); `helper()` in
    `Job.helper` is the module function, since Python needs `self.` to reach a method."""
    repo = make_repo(PYTHON)
    run_index(repo)
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        targets = set(conn.execute(
            "SELECT a.qualified, b.line FROM edges e JOIN symbols a ON a.id = e.src_id "
            "JOIN symbols b ON b.id = e.dst_id WHERE e.kind = 'calls' AND b.name = 'encode'"))
    finally:
        conn.close()
    assert targets == {("Prepared.prepare", 11)}
    assert ("Job.helper", "helper") in calls(repo)


PHP = {
    "src/View.php": """<?php
function render($s) { return $s; }
class View {
  public function render($s) { return render($s); }
  public function show() { return $this->render("x"); }
  public static function make() { return new View(); }
  public function again() { return self::make(); }
}
""",
}


def test_php_member_calls_are_not_bare(make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`$this->render()` and `self::make()` name their member though no @receiver is captured
    (the object comes first in the call node); only `render($s)` is a bare call."""
    repo = make_repo(PHP)
    run_index(repo)
    edges = calls(repo)
    assert {("View.render", "render"), ("View.show", "View.render"),
            ("View.again", "View.make")} <= edges
    assert ("View.show", "render") not in edges


LOCAL_IMPORTS = {
    "pkg/__init__.py": "",
    "pkg/run.py": "def summary(report):\n    return f'indexed {report}'\n",
    "pkg/merge.py": "def summary(report):\n    return f'merged {report}'\n",
    "pkg/cli.py": (
        "def index(report):\n"
        "    from pkg.run import summary\n"
        "    return summary(report)\n\n\n"
        "def merge(report):\n"
        "    from pkg.merge import summary\n"
        "    return summary(report)\n\n\n"
        "def either(report):\n"
        "    return summary(report)  # neither function's import reaches here\n"),
}


def test_an_import_inside_a_function_binds_its_name_there_only(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Two functions import `summary` from two modules: each call is its own function's
    import, and a call outside both is not guessed between them."""
    repo = make_repo(LOCAL_IMPORTS)
    run_index(repo)
    found = rows(repo, "SELECT a.qualified, fb.path FROM edges e JOIN symbols a ON a.id = "
                 "e.src_id JOIN symbols b ON b.id = e.dst_id JOIN files fb ON fb.id = b.file_id "
                 "WHERE e.kind = 'calls' AND b.name = 'summary'")
    assert found == {("index", "pkg/run.py"), ("merge", "pkg/merge.py")}


INHERITED = {
    "src/shop/Base.java": """package shop;
abstract class Base {
  static String label(String name, int width) { return name; }
}
""",
    "src/shop/Other.java": """package shop;
class Other {
  String label(String name, int width) { return ""; }
}
""",
    "src/shop/Child.java": """package shop;
class Child extends Base {
  String show() { return label("x", 2); }
}
""",
}


def test_a_bare_java_call_reaches_the_method_its_class_inherits(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`label(…)` in `Child` is `Base.label` by Java's implicit `this` (two `label`s in the
    repository, none in the file: names alone gave no edge), after a full index and after a
    refresh that re-resolves only the changed file's references."""
    repo = make_repo(INHERITED)
    run_index(repo)
    assert ("Child.show", "Base.label") in calls(repo)
    child = repo / "src/shop/Child.java"
    child.write_text(child.read_text().replace('"x"', '"y"'))
    run_index(repo)
    assert ("Child.show", "Base.label") in calls(repo)
    assert ("Child.show", "Other.label") not in calls(repo)


NAMESPACE = {
    "src/util.ts": "export function merge(a: object, b: object) { return { ...a, ...b }; }\n",
    "src/schemas.ts": """import * as util from "./util";

export class ZodObject {
  merge(other: object) { return util.merge(this, other); }
}
""",
}


def test_a_call_through_a_namespace_import_is_the_imported_files_definition(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`util.merge(…)` inside `ZodObject.merge` is util.ts's `merge`, not the method around
    it that the file's own definitions and the enclosing scope pointed at."""
    repo = make_repo(NAMESPACE)
    run_index(repo)
    found = call_edges(repo)
    assert ("ZodObject.merge", "merge", "src/util.ts") in found


PROPERTY = {
    "lib/response.js": "var res = Object.create(null);\nmodule.exports = res;\n\n"
                       "res.redirect = function redirect(url) {\n  return url;\n};\n",
    "examples/vhost/index.js": "var makeApp = require('./app');\nvar redirect = makeApp();\n",
    "examples/auth/index.js": "function login(req, res) {\n  res.redirect('/');\n}\n"
                              "module.exports = login;\n",
}


def test_a_qualified_call_never_names_another_files_variable(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`res.redirect('/')` calls a property: express's `res.redirect = function redirect`, not
    an example's `var redirect = makeApp()`, which no object here has as a property. The
    variable made the name ambiguous, and the call named nothing."""
    repo = make_repo(PROPERTY)
    run_index(repo)
    found = call_edges(repo)
    assert ("login", "redirect", "lib/response.js") in found
