"""A language's query, compiled once per process and read match by match.

The query is compiled as two: the patterns rooted at the tree's root node type (a file's
top-level definitions), which a cursor runs from the root alone, and the rest
(narrow.split_rooted). A process that parses one file compiles only what that file can match
(`narrowed_query`).

One predicate of ours, `(#has-parent? @x kind kind.field …)`: @x's parent is one of these kinds
(and @x sits in that field of it: nvim-treesitter's predicate of that name, plus fields). It
stands for a pattern per parent: tree-sitter analyses every nested node of a pattern on its own
when it compiles the query, so a type-name chain repeated under twenty parents cost twenty
analyses (C++: half a second a process, #14). It suits patterns whose other matches are rare:
each match costs Python a few microseconds, kept or not. tree-sitter passes a predicate it
does not know through, and `has_parent` checks it while extract.py reads the matches.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

import tree_sitter as ts
from tree_sitter_language_pack import get_language, get_parser

from graphiq_ci.lang.narrow import narrowed, split_rooted, supertypes, tree_kinds
from graphiq_ci.lang.spec import LanguageSpec


@cache
def parser(grammar: str) -> ts.Parser:
    return get_parser(grammar)  # type: ignore[arg-type]


#: package data beside this module (pyproject.toml); importlib.resources' reader would cost
#: every parsing process 2-4 ms (zipfile and its readers) for a wheel never run zipped (#14)
QUERIES = Path(__file__).parent / "queries"


@cache
def query_text(spec: LanguageSpec) -> str:
    """The language's query: its shared base files, then its own file."""
    files = [*spec.base_queries, *([spec.query] if spec.query else [])]
    return "\n".join((QUERIES / name).read_text(encoding="utf-8") for name in files)


#: (kinds any child of counts, (kind, field) pairs): where a `#has-parent?` capture may sit
Parents = tuple[frozenset[str], frozenset[tuple[str, str]]]
_HAS_PARENT = re.compile(r"\(#has-parent\?\s+@([\w.]+)((?:\s+[\w.]+)+)\s*\)")


#: pattern index → the capture a `#has-parent?` predicate names, and its parents
Parented = dict[int, tuple[str, Parents]]


class Queries(NamedTuple):
    """A language's query compiled as two: the patterns rooted at the tree's root node type (a
    file's top-level definitions), which a cursor runs from the root alone, and the rest
    (narrow.split_rooted). Each with its `#has-parent?` patterns."""

    rest: ts.Query
    rest_parented: Parented
    rooted: ts.Query | None
    rooted_parented: Parented


@cache
def query(spec: LanguageSpec) -> Queries:
    """The compiled query, and each `#has-parent?` pattern's capture and parents.

    extract() checks the predicate while it reads the matches: a callback per match from
    tree-sitter would cost more (a dict of every capture built for it)."""
    return _compile(spec.grammar or "", query_text(spec))


def narrowed_query(spec: LanguageSpec, tree: ts.Tree) -> Queries:
    """The query without the patterns `tree` cannot match (lang/narrow.py), compiled for it
    alone: what a process parsing one file compiles. Large files too: even zod's 113 KB
    `schemas.ts` lacks a third of what TypeScript's query names (its compile 77 -> 49 ms; a
    65 KB C# file's 152 -> 102 ms), and listing a tree's node types takes under 10 ms."""
    language = get_language(spec.grammar)  # type: ignore[arg-type]
    text = narrowed(query_text(spec), tree_kinds(tree), supertypes(language))
    return query(spec) if text is None else _compile(spec.grammar or "", text)


@cache
def _root_type(grammar: str) -> str:
    """The type of the node at the root of every tree of `grammar` (`program`, `module`)."""
    return str(parser(grammar).parse(b"").root_node.type)


def _compile(grammar: str, text: str) -> Queries:
    split = split_rooted(text, _root_type(grammar))
    if split is None or not split[0]:
        return Queries(*_compiled(grammar, text), None, {})
    return Queries(*_compiled(grammar, split[1]), *_compiled(grammar, split[0]))


def _compiled(grammar: str, text: str) -> tuple[ts.Query, Parented]:
    data = text.encode()
    compiled = ts.Query(get_language(grammar), text)  # type: ignore[arg-type]
    parented: Parented = {}
    for i in range(compiled.pattern_count):
        source = data[compiled.start_byte_for_pattern(i):compiled.end_byte_for_pattern(i)
                      ].decode()
        found = _HAS_PARENT.search(source)
        if found:
            args = found[2].split()
            fields = frozenset((k, f) for k, _, f in (a.partition(".") for a in args) if f)
            parented[i] = (found[1], (frozenset(a for a in args if "." not in a), fields))
    return compiled, parented


def matches(queries: Queries, tree: ts.Tree
            ) -> list[tuple[tuple[str, Parents] | None, dict[str, list[ts.Node]]]]:
    """Each match in `tree` with its `#has-parent?` rule (None: none), the rooted patterns'
    last: their cursor starts matches at the root only (a start depth of 0)."""
    rules = queries.rest_parented
    out = [(rules.get(p), caps) for p, caps in
           ts.QueryCursor(queries.rest).matches(tree.root_node)]
    if queries.rooted is not None:
        cursor = ts.QueryCursor(queries.rooted)
        cursor.set_max_start_depth(0)
        rules = queries.rooted_parented
        out += [(rules.get(p), caps) for p, caps in cursor.matches(tree.root_node)]
    return out


def has_parent(node: ts.Node, parents: Parents) -> bool:
    """`node`'s parent is one of a `#has-parent?` rule's kinds (in its field, if it names one)."""
    parent = node.parent
    if parent is None:
        return False
    kinds, fields = parents
    return parent.type in kinds or any(
        kind == parent.type and node in parent.children_by_field_name(field)
        for kind, field in fields)
