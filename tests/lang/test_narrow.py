"""A query narrowed to one tree keeps exactly what that tree can match (lang/narrow.py)."""

from __future__ import annotations

import pytest
import tree_sitter as ts
from tree_sitter_language_pack import get_language, get_parser

from graphiq_ci.lang import detect_language, plugin_for
from graphiq_ci.lang.compiled import query_text
from graphiq_ci.lang.extract import extract
from graphiq_ci.lang.narrow import narrowed, split_rooted, supertypes, tree_kinds
from graphiq_ci.lang.registry import LANGUAGES
from graphiq_ci.lang.spec import LanguageSpec
from tests.conftest import PROJECT_ROOT

_PARSED = [s for s in LANGUAGES if s.grammar]


@pytest.mark.parametrize("spec", _PARSED, ids=lambda s: s.name)
def test_every_query_is_read_and_a_tree_with_every_node_type_keeps_all_of_it(
        spec: LanguageSpec) -> None:
    language = get_language(spec.grammar)  # type: ignore[arg-type]
    every = frozenset(k for i in range(language.node_kind_count)
                      if (k := language.node_kind_for_id(i)) is not None)
    text = narrowed(query_text(spec), every, supertypes(language))
    assert text is not None  # None: syntax the reader does not follow, the whole query compiled
    assert ts.Query(language, text).pattern_count == ts.Query(
        language, query_text(spec)).pattern_count


def test_patterns_and_alternatives_needing_an_absent_node_type_are_dropped() -> None:
    query = ('; a comment\n(function_definition name: (identifier) @name) @definition.function\n'
             '(class_definition name: (identifier) @name) @definition.class\n'
             '(call function: [(identifier) @name (attribute attribute: (identifier) @name)]'
             ' (#not-eq? @name "x")) @reference.call\n'
             '(decorated_definition (decorator)? @d (class_definition)) @x\n')
    tree = get_parser("python").parse(b"def f():\n    return g()\n")
    kinds = tree_kinds(tree)
    assert {"function_definition", "call", "identifier"} <= kinds and "attribute" not in kinds
    assert narrowed(query, kinds, frozenset()) == (
        '(function_definition name: (identifier) @name) @definition.function\n'
        '(call function: [(identifier) @name ] (#not-eq? @name "x")) @reference.call\n')


def test_the_fixture_sources_extract_the_same_narrowed() -> None:
    sources = sorted((PROJECT_ROOT / "tests" / "fixtures" / "shop").rglob("*.*"))
    assert {p.suffix for p in sources} >= {".py", ".ts"}
    for path in sources:
        spec = plugin_for(detect_language(path.name) or "")
        data = path.read_bytes()
        assert extract(spec, path.name, data, narrow=True) == extract(spec, path.name, data)


def test_a_large_file_is_narrowed_too_and_extracts_the_same() -> None:
    """Every module of this package in one 300 KB file: it still lacks node types the
    query names (narrowing drops patterns), and the facts are those of the whole query."""
    data = b"\n".join(p.read_bytes() for p in sorted((PROJECT_ROOT / "graphiq_ci").rglob("*.py")))
    assert len(data) > 300_000
    spec = plugin_for("python")
    tree = get_parser("python").parse(data)
    text = narrowed(query_text(spec), tree_kinds(tree), supertypes(get_language("python")))
    assert text is not None and len(text) < len(query_text(spec))
    parsed = extract(spec, "all.py", data)
    assert len(parsed.symbols) > 1000
    assert extract(spec, "all.py", data, narrow=True) == parsed


@pytest.mark.parametrize("spec", _PARSED, ids=lambda s: s.name)
def test_the_patterns_rooted_at_the_root_node_and_the_rest_are_the_whole_query(
        spec: LanguageSpec) -> None:
    """extract.py runs the patterns rooted at the tree's root type (a file's top-level
    definitions) with a cursor that starts only at the root: split, no pattern is lost."""
    language = get_language(spec.grammar)  # type: ignore[arg-type]
    root = get_parser(spec.grammar).parse(b"").root_node.type  # type: ignore[arg-type]
    split = split_rooted(query_text(spec), root)
    assert split is not None
    rooted, rest = split
    count = ts.Query(language, query_text(spec)).pattern_count
    parts = [ts.Query(language, text).pattern_count if text else 0 for text in (rooted, rest)]
    assert sum(parts) == count
    assert all(line.startswith(f"({root}") for line in rooted.splitlines()
               if line and not line.startswith((" ", ";")))
    if spec.name == "typescript":  # its module-level variables and CommonJS definitions
        assert parts[0] == 8
