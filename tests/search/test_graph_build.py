"""`build` makes, straight into arrays, the graph the plain-Python build made (issue #14).

The reference (`graph_reference.reference_build`) is the former `build`, kept line for line;
every field is compared, edge lists as ordered lists and term sets as sets, on real indexes of
real repositories: the shop fixture, and a C/Python/TypeScript repository edited so symbol ids
have gaps.
"""

from __future__ import annotations

import gc
import shutil
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from graphiq_ci.index import run_index
from graphiq_ci.search.graph import DEEP_CODES, GraphIndex, build
from graphiq_ci.search.graph_cache import _dump, _load
from graphiq_ci.search.graph_views import Adjacency, TermSets
from graphiq_ci.store import Store, open_store
from tests.index.test_pairs import UTIL_C
from tests.search.graph_reference import reference_build
from tests.search.test_graph_cache import SHOP, _observable

UTIL_H = """\
#ifndef UTIL_H
#define UTIL_H
/* Parse a decimal number from a string. */
int parse_number(const char *s);
#endif
"""
MAIN_C = """\
#include "util.h"

int main(int argc, char **argv) {
    return parse_number(argv[1]);
}
"""
TYPES_TS = """\
export interface Invoice { amount: number; currency: string }
export class InvoiceError extends Error {}
export const MAX_AMOUNT = 1000;
"""
BILLING_TS = """\
import { Invoice, InvoiceError, MAX_AMOUNT } from "./types";

export function total(invoices: Invoice[]): number {
  return invoices.reduce((sum, i) => sum + i.amount, 0);
}

export function check(invoice: Invoice): Invoice {
  if (invoice.amount > MAX_AMOUNT) throw new InvoiceError("too large");
  return invoice;
}

export function refund(invoice: Invoice): Invoice {
  if (invoice.amount < 0) throw new InvoiceError("negative");
  return { amount: -invoice.amount, currency: invoice.currency };
}
"""
LEDGER_PY = '''"""Ledger entries."""


class Ledger:
    """Totals invoice amounts."""

    def add(self, amount):
        return self.total(amount)

    def total(self, amount):
        return amount
'''
FILES = {"c/util.h": UTIL_H, "c/util.c": UTIL_C, "c/main.c": MAIN_C, "web/types.ts": TYPES_TS,
         "web/billing.ts": BILLING_TS, "py/ledger.py": LEDGER_PY,
         "py/extra.py": "def unused():\n    return 1\n"}


def assert_same_graph(store: Store) -> GraphIndex:
    """`build(store)` equals the reference field by field; returns the built graph."""
    built = build(store)
    want = _observable(reference_build(store))
    got = _observable(built)
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key] == value, key
    every = set().union(*want["terms"], *want["name_terms"], {"no-such-term"})  # type: ignore
    reference = reference_build(store)
    assert {t: built.idf_of(t) for t in every} == {t: reference.idf_of(t) for t in every}
    return built


def tied_lists(g: GraphIndex) -> int:
    """Edge lists where two edges weigh the same: only the tie-break orders them."""
    return sum(any(x[1] == y[1] for x, y in pairwise(lst)) for lst in (*g.out, *g.inc))


@pytest.fixture(scope="module")
def shop_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("graph_build") / "shop"
    shutil.copytree(SHOP, root)
    run_index(root)
    store = open_store(root)
    yield store
    store.close()


def test_the_shop_graph_equals_the_reference(shop_store: Store) -> None:
    g = assert_same_graph(shop_store)
    assert tied_lists(g) > 5  # the comparison sees edge order, not only edge sets
    assert any(c in DEEP_CODES for lst in g.out for _, _, c in lst)
    assert sum(map(len, g.terms)) > len(g.ids)


def test_an_edited_repository_equals_the_reference(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(FILES)
    run_index(repo)
    store = open_store(repo)
    try:
        g = assert_same_graph(store)
        codes = {c for lst in g.out for _, _, c in lst}
        assert len(codes) >= 5 and codes & DEEP_CODES
        (repo / "py/extra.py").unlink()  # ids with a gap: positions no longer id - 1
        (repo / "web/billing.ts").write_text(BILLING_TS + "\nexport const again = total;\n")
        (repo / "py/more.py").write_text(LEDGER_PY.replace("Ledger", "Journal"))
        run_index(repo)
        g = assert_same_graph(store)
        assert list(g.ids) != list(range(g.ids[0], g.ids[0] + len(g.ids)))
    finally:
        store.close()


def test_a_built_graph_is_the_array_form_the_cache_holds(shop_store: Store) -> None:
    g = build(shop_store)
    assert isinstance(g.terms, TermSets) and isinstance(g.name_terms, TermSets)
    assert g.terms.vocab is g.name_terms.vocab and len(g.term_df) == len(g.terms.vocab)
    assert isinstance(g.out, Adjacency) and isinstance(g.inc, Adjacency)
    loaded = _load(_dump(g), g.generation)
    assert loaded is not None and _observable(loaded) == _observable(g)


def test_build_leaves_the_connection_as_it_found_it(shop_store: Store) -> None:
    conn = shop_store.conn
    assert gc.isenabled()
    build(shop_store)
    assert gc.isenabled() and not conn.in_transaction
    assert conn.execute("SELECT name FROM temp.sqlite_master").fetchall() == []
    conn.execute("BEGIN")  # inside a caller's read transaction (as `graph_update` reads)
    try:
        assert _observable(build(shop_store)) == _observable(reference_build(shop_store))
        assert conn.in_transaction
    finally:
        conn.execute("COMMIT")
