"""Edge recovery: exactly the structural edges whose two ends were kept."""

from __future__ import annotations

from pathlib import Path

import pytest

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.context.expand import recover_edges
from graphiq_ci.model import STRUCTURAL_EDGES
from graphiq_ci.search import load_graph
from graphiq_ci.store import open_store


def test_context_edges_join_only_kept_symbols(shop_root: Path) -> None:
    for max_nodes in (4, 24):
        ctx = graphiq_ci.build_context(shop_root, "refunds over the order total are rejected",
                                       Options(max_nodes=max_nodes))
        kept = {s.id for s in ctx.symbols}
        for src, dst, _ in ctx.edges:
            assert src in kept and dst in kept
        if max_nodes == 24:
            assert ctx.edges  # the kept subgraph is connected, not a bag of symbols


@pytest.mark.parametrize("max_nodes", [4, 24])
def test_entry_points_are_kept_symbols(shop_root: Path, max_nodes: int) -> None:
    ctx = graphiq_ci.build_context(shop_root, "refunds over the order total are rejected",
                                   Options(max_nodes=max_nodes))
    assert set(ctx.entry_points) <= {s.id for s in ctx.symbols}
    assert len(ctx.symbols) <= max_nodes


def test_recover_edges_is_exactly_the_induced_structural_subgraph(shop_root: Path) -> None:
    store = open_store(shop_root)
    try:
        g = load_graph(store, shop_root)
        names = {"RefundProcessor", "RefundProcessor.process_refund",
                 "RefundProcessor.validate_refund", "reconcile_books", "refund_order",
                 "PaymentError", "post_entry"}
        kept = [i for i, q in enumerate(g.qualified) if q in names]
        assert len(kept) == len(names)
        ids = {g.ids[i] for i in kept}
        kinds = tuple(k.value for k in STRUCTURAL_EDGES)
        expected = {
            (src, dst, kind) for src, dst, kind in store.conn.execute(
                f"SELECT src_id, dst_id, kind FROM edges WHERE kind IN "
                f"({','.join('?' * len(kinds))})", kinds)
            if src in ids and dst in ids
        }
    finally:
        store.close()
    got = recover_edges(g, kept)
    assert len(got) == len(set(got))
    assert set(got) == expected
    assert ("calls" in {k for _, _, k in got}) and ("contains" in {k for _, _, k in got})
    assert recover_edges(g, kept[:1]) == []
