"""Language facts that decide what a bare name can mean: a constructor is its type, a bare call
in Go or Python never reaches a method, and an overloaded name is one definition only where the
language says so. Real git repos, the real indexer, edges read back from the index.
"""

from __future__ import annotations

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
  int measure() { return size(2); }
}
""",
}


def test_an_instantiation_and_an_extends_name_the_type_not_a_constructor(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`new Evaluator.Tag(…)` with two `Tag` constructors still resolves (to the type, which
    stands for its constructors); `extends Evaluator` is the class, so `Tag.matches` overrides
    `Evaluator.matches`."""
    repo = make_repo(JAVA)
    run_index(repo)
    edges = calls(repo)
    assert ("Parser.tag", "Evaluator.Tag") in edges
    import sqlite3
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        extends = set(conn.execute(
            "SELECT a.qualified, b.qualified, b.kind FROM edges e JOIN symbols a ON a.id = "
            "e.src_id JOIN symbols b ON b.id = e.dst_id WHERE e.kind = 'extends'"))
    finally:
        conn.close()
    assert extends == {("Evaluator.Tag", "Evaluator", "class")}
    # Java overloads are different methods: a call of `size` is not guessed to be either
    assert not {dst for src, dst in edges if src == "Parser.measure"}
