"""The query-family router routes GraphIQ's own examples, and its cascade has a precedence."""

from __future__ import annotations

import pytest

from graphiq_ci.search.families import classify
from graphiq_ci.search.query import parse_query
from graphiq_ci.search.weights import POLICIES, Family


@pytest.mark.parametrize(
    ("query", "family"),
    [
        # GraphIQ's examples, one per family
        ("RateLimiter", Family.SYMBOL_EXACT),
        ("GraphDb::open", Family.SYMBOL_EXACT),
        ("scheduler/worker.rs", Family.FILE_PATH),
        ("timeout in channel send", Family.ERROR_DEBUG),
        ("encode a value in VLQ", Family.NATURAL_DESCRIPTIVE),
        ("how does auth work", Family.NATURAL_ABSTRACT),
        ("all connector implementations", Family.CROSS_CUTTING),
        ("what calls RateLimiter", Family.RELATIONSHIP),
        # more shapes of the same families
        ("rate_limiter", Family.SYMBOL_EXACT),
        ("Session.request", Family.SYMBOL_EXACT),
        ("CheckoutController#cartTotal", Family.SYMBOL_EXACT),
        ("  RefundProcessor  ", Family.SYMBOL_EXACT),
        ("refundproc", Family.SYMBOL_PARTIAL),
        ("payments.py", Family.FILE_PATH),
        ("web/checkout.ts", Family.FILE_PATH),
        ("who calls post_entry", Family.RELATIONSHIP),
        ("callers of charge_card", Family.RELATIONSHIP),
        ("why is the refund rejected", Family.NATURAL_ABSTRACT),
        ("every handler", Family.CROSS_CUTTING),
        # an exception type inside a longer query is an error query; alone it is a symbol
        ('PaymentError "refund exceeds the order total"', Family.ERROR_DEBUG),
        ("KeyError: order_id in post_entry", Family.ERROR_DEBUG),
        ("PaymentError", Family.SYMBOL_EXACT),
        ("what calls PaymentError", Family.RELATIONSHIP),
    ],
)
def test_routes_each_family(query: str, family: Family) -> None:
    assert classify(query) is family


@pytest.mark.parametrize(
    ("query", "family", "also_looks_like"),
    [
        # cross-cutting is checked first: "error" would otherwise make it ErrorDebug
        ("all error types", Family.CROSS_CUTTING, "an error query"),
        ("every exception we raise", Family.CROSS_CUTTING, "an error query"),
        # errors before relationships and natural language
        ("what calls fail with a timeout", Family.ERROR_DEBUG, "a relationship query"),
        ("how does the refund fail", Family.ERROR_DEBUG, "an abstract question"),
        # a relationship before a path or a question
        ("what calls shop/payments.py", Family.RELATIONSHIP, "a path"),
        # a path before a symbol: it has a dot, but it is a file
        ("checkout.ts", Family.FILE_PATH, "a dotted symbol"),
    ],
)
def test_cascade_precedence(query: str, family: Family, also_looks_like: str) -> None:
    assert classify(query) is family, f"{query!r} must not be routed as {also_looks_like}"


def test_long_text_with_a_path_is_not_a_path_query() -> None:
    assert classify("the refund total in shop/payments.py is computed twice") \
        is not Family.FILE_PATH


def test_parse_query_carries_the_family_policy() -> None:
    q = parse_query("all connector implementations")
    assert q.family is Family.CROSS_CUTTING
    assert q.policy is POLICIES[Family.CROSS_CUTTING]
    assert q.policy.per_file == 1  # one hit per file: a set spans the codebase


def test_an_explicit_family_overrides_the_router() -> None:
    assert parse_query("RateLimiter", Family.NATURAL_DESCRIPTIVE).family \
        is Family.NATURAL_DESCRIPTIVE
