"""The graph walk surfaces a symbol BM25 alone buries (GraphIQ: BM25 retrieves, structure reranks).

Why the fixture needs scale. `walk.walk` never gives evidence to a BM25 seed, and every BM25
match up to `FTS_LIMIT` (200) is a seed; its IDF gate also requires the reached symbol to
contain a rare query term, which BM25 would otherwise rank highly. So a walk hit is, by
construction, a symbol that matches a rare term only weakly (once, in a long body) *and*
ranks below 200 stronger BM25 matches. A ten-file fixture can't have 200 stronger matches,
so this module adds what real shops have: generated OpenAPI clients, one of them full of
"refund payment" endpoints (the lexical decoys), the others unrelated (they keep the decoy
words' IDF positive: FTS5 zeroes the IDF of a word in over half the documents).

The target: `shop/settlement.py` `settle_refund_payments` (the clear BM25 winner) calls
`record_settlement`, whose only query word is "chargebacks" in a comment.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphiq_ci.search.fts import symbol_bm25
from graphiq_ci.search.query import parse_query
from graphiq_ci.search.weights import FTS_LIMIT, WALK_SEEDS
from tests.search.conftest import Indexed, index_shop

QUERY = "settle refund payments and chargebacks"
TARGET = "record_settlement"
CALLER = "settle_refund_payments"

VERBS = ["get", "list", "create", "update", "delete", "search", "export", "approve", "reject",
         "retry"]
REFUND_RESOURCES = [
    "status", "receipt", "batch", "note", "reason", "history", "fee", "limit", "window",
    "method", "region", "currency", "dispute_case", "approval", "audit_log", "export_job",
    "schedule", "webhook", "template", "attachment"]
CATALOG_RESOURCES = [
    "product", "category", "variant", "image", "price_list", "warehouse", "supplier", "tag",
    "bundle", "review", "coupon", "banner", "menu", "brand", "collection", "attribute",
    "inventory", "shipping_zone", "tax_class", "gift_card", "wishlist", "store_front", "page",
    "redirect", "media_file", "search_index", "sitemap", "locale", "translation", "unit",
    "barcode", "rating", "question", "answer", "badge", "carousel", "slot", "channel", "feed",
    "sync_job"]
CUSTOMER_RESOURCES = [
    "profile", "address", "segment", "consent", "session", "device", "loyalty_tier",
    "referral", "subscription", "preference", "contact", "group", "note", "ticket", "survey",
    "avatar", "invite", "role", "token", "alert", "cart", "visit", "phone", "email_log",
    "sms_log", "household", "company", "tax_id", "birthday", "language", "timezone", "score",
    "flag", "tag_rule", "merge_job", "import_job", "export_file", "audience", "journey",
    "event_log"]


def generated_client(title: str, spec: str, prefix: list[str], resources: list[str]) -> str:
    """An openapi-python-client style module: one class per resource, one method per verb."""
    out = [f'"""{title} API client. Generated from {spec} by openapi-python-client; '
           f'do not edit."""\n']
    for resource in resources:
        words = prefix + resource.split("_")
        cls = "".join(w.title() for w in words) + "Api"
        label = " ".join(words)
        out.append(f'\n\nclass {cls}:\n    """Endpoints for {label}."""\n\n'
                   f'    def __init__(self, client):\n        self.client = client\n')
        for verb in VERBS:
            out.append(f'\n    def {verb}(self, **params):\n        """{verb.title()} {label} '
                       f'records."""\n        return self.client.call("{verb}", '
                       f'"/{"/".join(prefix)}/{resource}", params)\n')
    return "".join(out)


@pytest.fixture(scope="module")
def big_shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    indexed = index_shop(tmp_path_factory.mktemp("walk"), {
        "shop/clients/__init__.py": "",
        "shop/clients/refund_payments_api.py": generated_client(
            "Refund payments", "refund-payments.yaml", ["refund", "payment"], REFUND_RESOURCES),
        "shop/clients/catalog_api.py": generated_client(
            "Catalog", "catalog.yaml", ["catalog"], CATALOG_RESOURCES),
        "shop/clients/customers_api.py": generated_client(
            "Customers", "customers.yaml", ["customer"], CUSTOMER_RESOURCES),
    })
    yield indexed
    indexed.store.close()


def _bm25_rank(shop: Indexed, name: str) -> int:
    """1-based rank of `name` under BM25 alone (the pipeline's own FTS query), 0 if unmatched."""
    q = parse_query(QUERY)
    scores = symbol_bm25(shop.store, list(q.terms), q.policy.relaxed_fts, limit=100_000)
    ranked = sorted(scores, key=lambda sid: -scores[sid])
    ids = [sid for sid in ranked if shop.graph.names[shop.graph.pos_of_id[sid]] == name]
    return ranked.index(ids[0]) + 1 if ids else 0


def test_the_caller_is_a_clear_bm25_winner(big_shop: Indexed) -> None:
    assert 1 <= _bm25_rank(big_shop, CALLER) <= WALK_SEEDS


def test_bm25_alone_buries_the_target(big_shop: Indexed) -> None:
    rank = _bm25_rank(big_shop, TARGET)
    assert rank > 10
    assert rank == 0 or rank > FTS_LIMIT  # not even retrieved as a seed


def test_the_walk_brings_the_target_into_the_top_ten(big_shop: Indexed) -> None:
    hits = big_shop.rank(QUERY, top=10).hits
    names = [h.name for h in hits]
    assert TARGET in names, names
    hit = hits[names.index(TARGET)]
    assert "walk" in hit.sources
    assert hit.features.get("walk", 0) > 0
    assert "bm25" not in hit.sources
    assert names.index(TARGET) > names.index(CALLER)  # reached from it, ranked below it

