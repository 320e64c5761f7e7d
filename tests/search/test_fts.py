"""FTS lookups at scale: terms FTS5 weighs nothing are left out of OR-matching, or capped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphiq_ci.index import run_index
from graphiq_ci.search import fts, load_graph
from graphiq_ci.search.fts import informative, relaxed_bm25, symbol_bm25
from graphiq_ci.store import open_store
from tests.search.conftest import Indexed


def _module(i: int) -> str:
    out = [f'"""Billing module {i}."""', ""]
    for f in range(10):
        out += [f"def fn_{i}_{f}(amount: int) -> int:",
                f'    """Apply rule {f} of stage {i} to an invoice amount."""',
                "    return amount - 1", ""]
    if i == 3:
        out += ["def refund_ledger(amount: int) -> int:",
                '    """Refund an invoice amount to the ledger."""', "    return -amount", ""]
    return "\n".join(out)


@pytest.fixture(scope="module")
def billing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    """Every function's docstring holds `rule` and `invoice`; one says `refund`."""
    root: Path = tmp_path_factory.mktemp("fts") / "billing"
    root.mkdir()
    for i in range(8):
        (root / f"mod_{i}.py").write_text(_module(i))
    run_index(root)
    store = open_store(root)
    yield Indexed(root, store, load_graph(store, root))
    store.close()


@pytest.fixture
def capped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cap this small repository reaches (the default needs 40k symbols)."""
    monkeypatch.setattr(fts, "CAPPED_POSTINGS", 20)


def _informative(b: Indexed, terms: list[str]) -> list[str]:
    return informative(b.store, terms, len(b.graph.ids), {})


def test_below_the_cap_every_term_is_kept(billing: Indexed) -> None:
    assert _informative(billing, ["rule", "invoice", "refund"]) == ["rule", "invoice", "refund"]


@pytest.mark.usefixtures("capped")
def test_terms_in_half_the_symbols_are_left_out(billing: Indexed) -> None:
    assert _informative(billing, ["rule", "invoice", "refund", "nowhere"]) == ["refund",
                                                                            "nowhere"]


@pytest.mark.usefixtures("capped")
def test_or_matching_ranks_as_with_every_term(billing: Indexed) -> None:
    """What the common words add is FTS5's floor IDF: the order of what matches stays."""
    terms = ["refund", "rule", "invoice"]
    full = symbol_bm25(billing.store, terms, True, 1000)
    kept = relaxed_bm25(billing.store, terms, len(billing.graph.ids), {}, 1000)
    assert kept and set(kept) < set(full)
    assert sorted(kept, key=lambda i: -full[i]) == list(kept)
    assert all(abs(kept[i] - full[i]) < 1e-4 for i in kept)


@pytest.mark.usefixtures("capped")
def test_a_query_of_only_common_words_scores_a_capped_window(billing: Indexed) -> None:
    terms = ["rule", "invoice"]
    found = relaxed_bm25(billing.store, terms, len(billing.graph.ids), {}, 50)
    matching = sorted(symbol_bm25(billing.store, terms, True, 10_000))
    assert found and set(found) <= set(matching[:fts.CAPPED_POSTINGS])
    assert billing.rank("apply rule invoice amount").hits  # still an answer
