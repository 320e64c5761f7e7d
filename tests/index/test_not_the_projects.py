"""Files the repository's `.gitattributes` marks vendored or generated are not indexed, and
follow the attributes as they change (a real git repository, the real indexer)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index
from tests.conftest import git


def _paths(repo: Path) -> set[str]:
    db = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    return {p for (p,) in db.execute("SELECT path FROM files")}


def test_linguist_vendored_and_generated_files_are_left_out(
        make_repo: Callable[..., Path]) -> None:
    repo = make_repo({
        ".gitattributes": "lib/decimal/** linguist-vendored\nsrc/parser.c linguist-generated=true\n"
                          "src/keep.c -linguist-generated\n",
        "lib/decimal/decimal.c": "int dec_add(int a, int b) { return a + b; }\n",
        "src/parser.c": "int yyparse(void) { return 0; }\n",
        "src/parser.y": "%%\nstart: ;\n",
        "src/keep.c": "int keep(void) { return 1; }\n",
        "src/main.c": "int main(void) { return yyparse(); }\n",
    })
    run_index(repo)
    paths = _paths(repo)
    assert "lib/decimal/decimal.c" not in paths
    assert "src/parser.c" not in paths
    assert {"src/main.c", "src/keep.c", "src/parser.y"} <= paths
    (repo / ".gitattributes").write_text("src/parser.c linguist-generated=true\n")
    git(repo, "commit", "-qam", "decimal is ours now")
    run_index(repo)
    assert "lib/decimal/decimal.c" in _paths(repo)
    assert "src/parser.c" not in _paths(repo)
