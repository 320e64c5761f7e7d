"""Every registered language's query compiles against its grammar (typescript.scm: tsx too)."""

from __future__ import annotations

import pytest
import tree_sitter as ts
from tree_sitter_language_pack import get_language

from graphiq_ci.lang.compiled import query_text
from graphiq_ci.lang.registry import LANGUAGES
from graphiq_ci.lang.spec import LanguageSpec

_PARSED = [s for s in LANGUAGES if s.grammar]


@pytest.mark.parametrize("spec", _PARSED, ids=lambda s: s.name)
def test_query_compiles(spec: LanguageSpec) -> None:
    assert spec.grammar and spec.query
    # raises QueryError on a bad pattern
    query = ts.Query(get_language(spec.grammar), query_text(spec))
    assert query.pattern_count > 0


def test_tsx_shares_the_typescript_query() -> None:
    assert {s.grammar for s in LANGUAGES if s.query == "typescript.scm"} == {"typescript", "tsx"}
