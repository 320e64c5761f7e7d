"""The ranking pipeline end to end on the indexed shop: lock, promotion, diversity, --explain."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from graphiq_ci.search.fts import symbol_bm25
from graphiq_ci.search.weights import FEATURES, POLICIES, Family, Policy
from tests.search.conftest import Indexed, run_cli


def test_confidence_lock_keeps_a_clear_lexical_winner_first(shop: Indexed) -> None:
    query = "append a ledger entry for the auditors"
    result = shop.rank(query)
    q = result.query
    bm = sorted(symbol_bm25(shop.store, list(q.terms), q.policy.relaxed_fts, 50).values(),
                reverse=True)
    assert bm[0] / bm[1] > FEATURES["lock_gap"]  # the premise: BM25 has a clear winner
    first = result.hits[0]
    assert first.qualified == "post_entry"
    assert "confidence_lock" in first.features
    assert not any("confidence_lock" in h.features for h in result.hits[1:])


def test_no_lock_without_a_clear_winner(shop: Indexed) -> None:
    result = shop.rank("refund payment")  # a dozen near-identical refund_payment_* helpers
    q = result.query
    bm = sorted(symbol_bm25(shop.store, list(q.terms), q.policy.relaxed_fts, 50).values(),
                reverse=True)
    assert bm[0] / bm[1] <= FEATURES["lock_gap"]
    assert not any("confidence_lock" in h.features for h in result.hits)


def test_exact_name_is_promoted_only_for_symbol_queries(shop: Indexed) -> None:
    exact = shop.rank("PaymentError")
    assert exact.query.family is Family.SYMBOL_EXACT
    assert exact.hits[0].qualified == "PaymentError"
    assert "exact_promotion" in exact.hits[0].features
    prose = shop.rank("why is a PaymentError raised")
    assert all("exact_promotion" not in h.features for h in prose.hits)


@pytest.mark.parametrize(
    ("query", "family"),
    [
        ("refund_payment", Family.SYMBOL_EXACT),
        ("refund", Family.SYMBOL_PARTIAL),
        ("shop/orders.py", Family.FILE_PATH),
        ("refund payment error", Family.ERROR_DEBUG),
        ("refund payment notice email receipt", Family.NATURAL_DESCRIPTIVE),
        ("how are refund payments labelled", Family.NATURAL_ABSTRACT),
        ("all refund payment helpers", Family.CROSS_CUTTING),
        ("what calls refund payment helpers", Family.RELATIONSHIP),
    ],
)
def test_diversity_caps_hits_per_file(shop: Indexed, query: str, family: Family) -> None:
    result = shop.rank(query, top=30)
    assert result.query.family is family
    cap = POLICIES[family].per_file
    per_file = Counter(h.path for h in result.hits)
    assert result.hits and max(per_file.values()) <= cap, per_file
    # the cap did something: without it shop/orders.py's decoys crowd one file
    undiverse = Counter(h.path for h in shop.rank(query, top=30, diversity=False).hits)
    assert max(undiverse.values()) > cap


@pytest.mark.parametrize("query", ["RefundProcessor", "refund payment error",
                                   "how are refunds validated", "all payment errors"])
def test_hits_are_ranked_best_first_and_point_at_real_symbols(shop: Indexed, query: str) -> None:
    hits = shop.rank(query, top=20).hits
    assert hits
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert len({h.id for h in hits}) == len(hits)
    for h in hits:
        assert h.path in shop.graph.paths
        assert 1 <= h.line <= h.end_line
        assert h.sources


def test_error_query_scans_source_for_a_quoted_message(shop: Indexed) -> None:
    result = shop.rank('PaymentError "refund exceeds the order total"')
    assert result.query.family is Family.ERROR_DEBUG
    raising = {h.qualified for h in result.hits if "source_scan" in h.sources}
    # the method that raises it, and the class whose source contains that method
    assert raising == {"RefundProcessor.validate_refund", "RefundProcessor"}
    assert result.hits[0].qualified in raising


def test_top_limits_the_number_of_hits(shop: Indexed) -> None:
    assert len(shop.rank("refund", top=2).hits) == 2


# ------------------------------------------------------------------ --explain

_POLICY_FIELDS = set(Policy._fields)
#: pipeline-level bonuses (pipeline.LOCK_BONUS), and the neutral kind factor
_PIPELINE = {"confidence_lock", "exact_promotion", "kind_other"}


def _known(name: str) -> bool:
    """A feature name --explain may print: a FEATURES key, or a policy weight's name."""
    return (name in FEATURES or name in _POLICY_FIELDS or f"{name}_w" in _POLICY_FIELDS
            or f"{name}_weight" in FEATURES or name in _PIPELINE
            or (name == "coverage" and "cov_w" in _POLICY_FIELDS))


@pytest.mark.parametrize("query", ["RefundProcessor.validate_refund",
                                   "keep the accounts balanced after refunds"])
def test_explain_names_only_known_features(shop: Indexed, query: str) -> None:
    proc = run_cli("search", query, "--repo", str(shop.root), "--explain")
    assert proc.returncode == 0, proc.stderr
    names: list[str] = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("additive:") and line != "additive: none":
            names += re.findall(r"(\w+) \+", line)
        elif line.startswith("multipliers:") and line != "multipliers: none":
            names += re.findall(r"(\w+) ×", line)
    assert {"bm25", "coverage"} <= set(names)
    unknown = sorted({n for n in names if not _known(n)})
    assert not unknown, f"--explain prints names the weights don't define: {unknown}"
    assert proc.stdout.startswith("family: ")


def test_json_explain_features_use_the_same_names(shop: Indexed) -> None:
    proc = run_cli("search", "refund payment error", "--repo", str(shop.root), "--json",
                   "--explain")
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["results"]
    assert results
    for r in results:
        assert r["features"], r
        for name in r["features"]:
            assert _known(name.removeprefix("x_")), name
