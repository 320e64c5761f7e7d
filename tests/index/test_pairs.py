"""C header/source pairs on real git repositories: a declaration and its definition are one
answer (index/pairs.py), through indexing, incremental re-indexing, search and context."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index
from tests.conftest import git
from tests.context.conftest import run_cli

UTIL_H = """\
#ifndef UTIL_H
#define UTIL_H
/* Parse a decimal number from a string. */
int parse_number(const char *s);
/* Declared, never defined in this repository. */
int external_hook(int code);
#endif
"""
UTIL_C = """\
#include "util.h"

int parse_number(const char *s) {
    int n = 0;
    while (*s) n = n * 10 + (*s++ - '0');
    return n;
}
"""
MAIN_C = """\
#include <stdio.h>
#include "util.h"

int main(int argc, char **argv) {
    printf("%d\\n", parse_number(argv[1]));
    return external_hook(0);
}
"""
# a second `parse_number`, file-local to another source file: only the stem pairs util.h
OTHER_C = """\
static int parse_number(const char *s) { return s[0]; }
int other(void) { return parse_number("7"); }
"""


def _edges(repo: Path, kind: str) -> set[tuple[str, str]]:
    db = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    return set(db.execute(
        "SELECT fa.path || ':' || a.qualified, fb.path || ':' || b.qualified FROM edges e "
        "JOIN symbols a ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id "
        "JOIN files fa ON fa.id = a.file_id JOIN files fb ON fb.id = b.file_id "
        "WHERE e.kind = ?", (kind,)))


def _repo(make_repo: Callable[..., Path], **extra: str) -> Path:
    return make_repo({"util.h": UTIL_H, "util.c": UTIL_C, "main.c": MAIN_C, **extra})


def test_a_call_through_the_header_resolves_to_the_definition(
        make_repo: Callable[..., Path]) -> None:
    repo = _repo(make_repo)
    run_index(repo)
    calls = _edges(repo, "calls")
    assert ("main.c:main", "util.c:parse_number") in calls
    assert ("main.c:main", "util.h:parse_number") not in calls
    # a declaration with no definition here stays what a call reaches
    assert ("main.c:main", "util.h:external_hook") in calls
    assert _edges(repo, "declares") == {("util.h:parse_number", "util.c:parse_number")}


def test_among_several_definitions_the_same_stem_is_the_pair(
        make_repo: Callable[..., Path]) -> None:
    repo = _repo(make_repo, **{"other.c": OTHER_C})
    run_index(repo)
    assert _edges(repo, "declares") == {("util.h:parse_number", "util.c:parse_number")}
    calls = _edges(repo, "calls")
    assert ("main.c:main", "util.c:parse_number") in calls  # through the include
    assert ("other.c:other", "other.c:parse_number") in calls  # its own stays its own


def test_pairs_follow_the_definition_as_files_change(make_repo: Callable[..., Path]) -> None:
    repo = _repo(make_repo)
    run_index(repo)
    (repo / "util.c").unlink()
    git(repo, "commit", "-qam", "drop util.c")
    run_index(repo)
    assert _edges(repo, "declares") == set()
    assert ("main.c:main", "util.h:parse_number") in _edges(repo, "calls")
    (repo / "numbers.c").write_text(UTIL_C)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the definition moves to numbers.c")
    run_index(repo)
    assert _edges(repo, "declares") == {("util.h:parse_number", "numbers.c:parse_number")}
    assert ("main.c:main", "numbers.c:parse_number") in _edges(repo, "calls")


def test_search_and_context_name_the_defining_file_first(
        make_repo: Callable[..., Path]) -> None:
    repo = _repo(make_repo)
    found = run_cli("search", "parse_number", "--repo", str(repo))
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0].startswith("util.c:3"), found.stdout
    ctx = run_cli("context", "Fix parse_number overflow on long input", "--repo", str(repo),
                  "--format", "json")
    assert ctx.returncode == 0, ctx.stderr
    files = [f["path"] for f in json.loads(ctx.stdout)["files"]]
    assert files[0] == "util.c" and "util.h" in files, files


PARSER_HPP = """\
#pragma once
class Parser {
 public:
  Parser(int depth);
  int parse(const char* s);
  void reset();  // declared, defined nowhere here
 private:
  int depth_;
};
"""
PARSER_CPP = """\
#include "parser.hpp"

Parser::Parser(int depth) : depth_(depth) {}

int Parser::parse(const char* s) {
  return s[0] - '0' + depth_;
}
"""
RUN_CPP = """\
#include "parser.hpp"

int run(const char* text) {
  Parser p(2);
  p.reset();
  return p.parse(text);
}
"""


def test_a_cpp_member_declared_in_its_class_pairs_with_its_out_of_line_body(
        make_repo: Callable[..., Path]) -> None:
    """`int parse(…);` inside `class Parser` and `int Parser::parse(…) {…}` in the .cpp are one
    answer: both are `Parser.parse`, the call through an instance reaches the body, and a
    member declared without a body anywhere stays the call's target."""
    repo = make_repo({"parser.hpp": PARSER_HPP, "parser.cpp": PARSER_CPP, "run.cpp": RUN_CPP})
    run_index(repo)
    assert _edges(repo, "declares") == {
        ("parser.hpp:Parser.parse", "parser.cpp:Parser.parse"),
        ("parser.hpp:Parser.Parser", "parser.cpp:Parser.Parser")}
    calls = _edges(repo, "calls")
    assert ("run.cpp:run", "parser.cpp:Parser.parse") in calls
    assert ("run.cpp:run", "parser.hpp:Parser.reset") in calls
    assert not {dst for src, dst in calls if dst == "parser.hpp:Parser.parse"}
    found = run_cli("search", "Parser.parse", "--repo", str(repo))
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0].startswith("parser.cpp:5  Parser.parse")
