"""Name matching (rq): exact > prefix > abbreviation > subsequence > typo, and scoped names.

Unit checks of `match_name`, then the whole pipeline on the indexed shop fixture: each kind
of name query must put the intended symbol first, in-process and through the real CLI.
"""

from __future__ import annotations

import json

import pytest

from graphiq_ci.search.match import find_names, match_name
from tests.search.conftest import Indexed, run_cli


@pytest.mark.parametrize(
    ("query", "name", "quality"),
    [
        ("RefundProcessor", "RefundProcessor", "exact"),
        ("refundprocessor", "RefundProcessor", "exact"),
        ("chargecard", "charge_card", "exact"),  # joiners don't count
        ("RefundProc", "RefundProcessor", "prefix"),
        ("refproc", "RefundProcessor", "abbreviation"),
        ("ledbal", "ledger_balance", "abbreviation"),
        ("RefundProcesor", "RefundProcessor", "subsequence"),  # a dropped letter
    ],
)
def test_match_quality(query: str, name: str, quality: str) -> None:
    m = match_name(query, name)
    assert m is not None and m.quality == quality


def test_no_match_for_unrelated_or_too_short_queries() -> None:
    assert match_name("ledger", "RefundProcessor") is None
    assert match_name("rp", "RefundProcessor") is None  # too short to be an abbreviation
    assert match_name("xyzzy", "charge_card") is None


def test_case_match_only_when_the_case_agrees() -> None:
    assert match_name("RefundProcessor", "RefundProcessor").case_match  # type: ignore[union-attr]
    assert not match_name("refundprocessor", "RefundProcessor").case_match  # type: ignore[union-attr]


def test_a_substituted_letter_is_a_typo_match(shop: Indexed) -> None:
    found = find_names(shop.graph, "RefundPrecessor")
    matched = {shop.graph.qualified[i]: m.quality for i, m in found.items()}
    assert matched.get("RefundProcessor") == "typo"


def test_typos_are_not_tried_when_a_prefix_matches(shop: Indexed) -> None:
    found = find_names(shop.graph, "ledger")
    assert found and all(m.quality in ("exact", "prefix") for m in found.values())


def test_scope_must_match_the_parent_chain(shop: Indexed) -> None:
    g = shop.graph
    scoped = {g.qualified[i] for i in find_names(g, "RefundProcessor.validate_refund")}
    assert scoped == {"RefundProcessor.validate_refund"}
    assert not find_names(g, "CheckoutController.validate_refund")
    assert not find_names(g, "Order::cartTotal")


@pytest.mark.parametrize(
    ("query", "expected", "feature"),
    [
        ("RefundProcessor", "RefundProcessor", "match_exact"),
        ("LedgerEntry", "LedgerEntry", "match_exact"),
        ("RefundProc", "RefundProcessor", "match_prefix"),
        ("refundproc", "RefundProcessor", "match_prefix"),
        ("refproc", "RefundProcessor", "match_abbreviation"),
        ("ledbal", "ledger_balance", "match_abbreviation"),
        ("RefundProcesor", "RefundProcessor", "match_subsequence"),
        ("RefundPrecessor", "RefundProcessor", "match_typo"),
        ("RefundProcessor.validate_refund", "RefundProcessor.validate_refund", "match_exact"),
        ("CheckoutController::submitOrder", "CheckoutController.submitOrder", "match_exact"),
        ("CheckoutController#cartTotal", "CheckoutController.cartTotal", "match_exact"),
        ("formatPrice", "formatPrice", "match_exact"),
    ],
)
def test_name_queries_rank_the_intended_symbol_first(
    shop: Indexed, query: str, expected: str, feature: str
) -> None:
    hits = shop.rank(query).hits
    assert hits, f"no results for {query!r}"
    assert hits[0].qualified == expected, [h.qualified for h in hits[:5]]
    assert feature in hits[0].features
    assert "name" in hits[0].sources


def test_scoped_query_prefers_the_member_over_its_class(shop: Indexed) -> None:
    ranked = shop.qualified("CheckoutController#cartTotal")
    assert ranked.index("CheckoutController.cartTotal") < ranked.index("CheckoutController")


def test_cli_search_json_puts_the_intended_symbol_first(shop: Indexed) -> None:
    for query, expected in [("refundproc", "RefundProcessor"),
                            ("CheckoutController::submitOrder", "CheckoutController.submitOrder")]:
        proc = run_cli("search", query, "--repo", str(shop.root), "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["query"] == query
        first = out["results"][0]
        assert first["qualified"] == expected
        assert first["file"] in ("shop/payments.py", "web/checkout.ts")
        assert first["line"] >= 1 and first["end_line"] >= first["line"]
