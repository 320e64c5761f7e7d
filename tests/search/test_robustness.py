"""Hostile query text: FTS5 syntax, quotes, unicode, huge input: results or nothing, no crash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphiq_ci.search import Hit
from tests.search.conftest import Indexed, run_cli

NASTY = [
    "refund NEAR payment",
    "NEAR(refund payment, 2)",
    "refund OR payment",
    "refund NOT payment",
    "NOT",
    "AND OR NOT",
    "refund*",
    "*",
    "^refund",
    "name:RefundProcessor",
    "source:ledger AND name:post_entry",
    '"refund',
    'refund"',
    '"""',
    "'",
    "refund's \"total\"",
    "(refund",
    "refund)",
    "{name}: refund",
    "-refund +payment",
    "refund; DROP TABLE symbols; --",
    "%_refund_%",
    "\\",
    "\x00refund",
    "rеfund",  # Cyrillic е
    "Zahlungsrückerstattung für Bestellungen",
    "返金処理",
    "refund 💳 payment 🚀",
    "🔥",
    "",
    "   ",
    "\n\t",
    "::",
    "#",
    ".",
    "a" * 300,
]


def _check(shop: Indexed, text: str) -> list[Hit]:
    hits = shop.rank(text).hits
    for h in hits:
        assert h.path in shop.graph.paths
    return hits


def test_fts_operators_and_quotes_never_raise(shop: Indexed) -> None:
    for text in NASTY:
        _check(shop, text)


def test_operators_are_plain_words(shop: Indexed) -> None:
    """`name:` and `OR` are quoted, not obeyed: the words still find their symbols."""
    assert "RefundProcessor" in [h.qualified for h in _check(shop, "name:RefundProcessor")[:3]]
    hits = _check(shop, "post_entry OR ledger_balance")
    assert {"post_entry", "ledger_balance"} & {h.qualified for h in hits}


def test_a_ten_thousand_character_query(shop: Indexed) -> None:
    words = "refund payment ledger order checkout total card balance ".split()
    text = " ".join(words[i % len(words)] + str(i) for i in range(2000))[:10_000]
    assert len(text) == 10_000
    _check(shop, text)
    _check(shop, "x" * 10_000)
    _check(shop, '"' * 10_000)


_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(max_examples=60, **_SETTINGS)  # type: ignore[arg-type]
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(shop: Indexed, text: str) -> None:
    _check(shop, text)


@settings(max_examples=40, **_SETTINGS)  # type: ignore[arg-type]
@given(st.lists(st.sampled_from(['refund', 'NEAR', 'OR', 'NOT', 'AND', '*', '^', 'name:', '"',
                                 '(', ')', 'payment', '::', '#', '.', '-', '+', '💳', 'ё']),
                max_size=12))
def test_operator_soup_never_raises(shop: Indexed, parts: list[str]) -> None:
    _check(shop, " ".join(parts))
    _check(shop, "".join(parts))


def test_cli_survives_hostile_queries(shop: Indexed) -> None:
    for text in ['refund NEAR "payment', "💳" * 50]:
        proc = run_cli("search", text, "--repo", str(shop.root), "--json")
        assert proc.returncode in (0, 1), proc.stderr
        assert "Traceback" not in proc.stderr
