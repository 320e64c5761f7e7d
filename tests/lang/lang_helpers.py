"""Shared helpers for the per-language extraction tests."""

from __future__ import annotations

import textwrap

from graphiq_ci.lang.extract import extract
from graphiq_ci.lang.registry import plugin_for
from graphiq_ci.model import EdgeKind, ParsedFile, Symbol


def parse(language: str, path: str, source: str) -> ParsedFile:
    """Extract a dedented inline snippet (line 1 is the line after the opening quotes), with
    the whole query and with the query narrowed to the snippet: the facts must be the same."""
    data = textwrap.dedent(source).encode()
    parsed = extract(plugin_for(language), path, data)
    assert extract(plugin_for(language), path, data, narrow=True) == parsed
    return parsed


def symbols(parsed: ParsedFile) -> set[tuple[str, str, int]]:
    """(kind, qualified name, line) of every symbol."""
    return {(s.kind.value, s.qualified, s.line) for s in parsed.symbols}


def symbol(parsed: ParsedFile, qualified: str, kind: str | None = None) -> Symbol:
    """The one symbol with this qualified name (and kind, when names repeat)."""
    matches = [
        s for s in parsed.symbols if s.qualified == qualified and kind in (None, s.kind.value)
    ]
    assert len(matches) == 1, (qualified, matches)
    return matches[0]


def refs(parsed: ParsedFile, kind: EdgeKind) -> set[tuple[str, str]]:
    """(scope, name) of every reference of one kind."""
    return {(r.scope, r.name) for r in parsed.references if r.kind is kind}


def imports(parsed: ParsedFile) -> set[tuple[str, tuple[str, ...]]]:
    """(module as written, bound names) of every import."""
    return {(r.name, r.alias) for r in parsed.references if r.kind is EdgeKind.IMPORTS}
