"""One file the extractor cannot handle is skipped with its reason; every other file is indexed.

The natural case came from astropy: flex-generated C (`static YY_DECL;`) makes tree-sitter
insert a zero-width MISSING identifier as a definition's name, and `_visibility` then split
the signature on an empty string. For the other languages no natural input raises today, so
the failure is injected into the extractor for one file of each.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from graphiq_ci.index import parse as parse_module
from graphiq_ci.index import run_index
from graphiq_ci.lang.registry import LANGUAGES
from tests.conftest import git

#: a small, valid source file per language with a grammar, by extension
SOURCES = {
    ".py": "def ok():\n    return 1\n",
    ".js": "function ok() { return 1 }\n",
    ".jsx": "function ok() { return <div/> }\n",
    ".ts": "export function ok(): number { return 1 }\n",
    ".tsx": "export function ok(): number { return 1 }\n",
    ".go": "package p\n\nfunc ok() int { return 1 }\n",
    ".rs": "pub fn ok() -> i32 { 1 }\n",
    ".java": "class A { int ok() { return 1; } }\n",
    ".c": "int ok(void) { return 1; }\n",
    ".cpp": "int ok() { return 1; }\n",
    ".cs": "class A { int ok() { return 1; } }\n",
    ".rb": "def ok\n  1\nend\n",
    ".php": "<?php\nfunction ok() { return 1; }\n",
    ".kt": "fun ok(): Int = 1\n",
    ".swift": "func ok() -> Int { return 1 }\n",
    ".dart": "int ok() => 1;\n",
    ".ex": "defmodule Ok do\n  def ok, do: 1\nend\n",
    ".lua": "local function ok()\n  return 1\nend\n",
    ".scala": "object A { def ok(): Int = 1 }\n",
}


def _languages_with_grammar() -> list[str]:
    return [spec.name for spec in LANGUAGES if spec.grammar]


def test_every_language_with_a_grammar_has_a_source_here() -> None:
    from graphiq_ci.lang.registry import detect_language

    covered = {detect_language(f"x{ext}") for ext in SOURCES}
    assert set(_languages_with_grammar()) <= covered


def test_flex_generated_c_with_a_missing_name_indexes(tmp_path: Path) -> None:
    (tmp_path / "lexer.c").write_text("static YY_DECL;\n\nint yylex_ok(void) { return 0; }\n")
    (tmp_path / "main.py").write_text("def main():\n    return 1\n")
    report = run_index(tmp_path)
    assert not report.skipped  # indexed, with tree-sitter's recovery noted as a syntax error
    assert set(report.parse_errors) == {"lexer.c"}
    names = {n for (n,) in sqlite3.connect(tmp_path / ".graphiq" / "graphiq.db").execute(
        "SELECT s.name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = 'lexer.c'")}
    assert "yylex_ok" in names and "" not in names


@pytest.mark.parametrize("ext", sorted(SOURCES))
def test_an_extractor_that_raises_skips_only_that_file(tmp_path: Path, ext: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    real = parse_module.extract

    def failing(spec, path, data, narrow=False):  # type: ignore[no-untyped-def]
        if path.startswith("boom"):
            raise ValueError("empty separator")
        return real(spec, path, data, narrow)

    monkeypatch.setattr(parse_module, "extract", failing)  # the pool is not used: < 24 files
    (tmp_path / f"boom{ext}").write_text(SOURCES[ext])
    (tmp_path / f"fine{ext}").write_text(SOURCES[ext])
    git(tmp_path, "init", "-q")
    report = run_index(tmp_path)
    assert report.skipped == {f"boom{ext}": "extraction failed: ValueError: empty separator"}
    db = sqlite3.connect(tmp_path / ".graphiq" / "graphiq.db")
    fine = {n for (n,) in db.execute("SELECT s.name FROM symbols s JOIN files f "
                                     "ON f.id = s.file_id WHERE f.path = ?", (f"fine{ext}",))}
    assert "ok" in fine


def test_the_natural_case_is_not_skipped_in_stats_json(tmp_path: Path) -> None:
    (tmp_path / "lexer.c").write_text("static YY_DECL;\nint a(void) { return 0; }\n")
    run_index(tmp_path)
    out = subprocess.run([sys.executable, "-m", "graphiq_ci", "stats", "--json", "--repo",
                          str(tmp_path)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["skipped"] == {}  # the natural case is not skipped any more
