"""The edges resolution found, written as a difference, and the test edges it adds.

A reference's target becomes an edge of its kind (index/resolve.py); a test's call of code
outside the tests is also a `tests` edge, and so is a test named after its subject
(`test_parse_url` → `parse_url`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from graphiq_ci.index.names import NameTable
from graphiq_ci.model import EDGE_WEIGHTS, EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.store import Store, chunks

#: Edge kinds derived from references, regenerated per source symbol.
REF_EDGES = (
    EdgeKind.CALLS, EdgeKind.REFERENCES, EdgeKind.IMPORTS, EdgeKind.EXTENDS,
    EdgeKind.IMPLEMENTS, EdgeKind.TESTS,
)
TEST_NAME = re.compile(r"^(?:test_?|Test)(\w+?)(?:_test|Test)?$")
_BATCH = 1 << 16


def replace_edges(store: Store, src_ids: list[int] | None,
                  edges: dict[tuple[int, int, str], float]) -> None:
    """Make the reference edges of `src_ids` (None: all) exactly `edges` (which it empties),
    writing only the difference: an unchanged edge is not deleted and inserted again, so the
    graph log (see store/graph_log.py) names only symbols whose edges really changed. A file
    added anywhere re-resolves every reference; rewriting all 400k edges of a large
    repository would mark every symbol and make the next query rebuild the whole graph."""
    conn = store.conn
    kinds = ",".join(f"'{k.value}'" for k in REF_EDGES)
    select = "SELECT rowid, src_id, dst_id, kind, weight FROM edges WHERE "
    if src_ids is None:
        existing: Iterable[tuple[int, int, int, str, float]] = _fetched(
            conn.execute(f"{select} kind IN ({kinds})"))
    else:
        # `+kind`: SQLite keeps no statistics here and would read the (kind, meta) index,
        # every edge of these kinds, instead of the few of `src_ids` (0.4 s of a one-file
        # refresh at 200k symbols, issue #14); the unary plus leaves it the src_id index
        existing = [row for chunk in chunks(src_ids) for row in conn.execute(
            f"{select} +kind IN ({kinds}) AND src_id IN ({','.join('?' * len(chunk))})",
            chunk)]
    stale: list[int] = []
    for rowid, src, dst, kind, weight in existing:
        key = (src, dst, kind)
        if edges.get(key) == weight:
            del edges[key]  # kept as it is; a second copy of it is stale
        else:
            stale.append(rowid)
    for part in chunks(stale):
        conn.execute(f"DELETE FROM edges WHERE rowid IN ({','.join('?' * len(part))})", part)
    conn.executemany("INSERT INTO edges(src_id, dst_id, kind, weight) VALUES (?, ?, ?, ?)",
                     ((s, d, k, w) for (s, d, k), w in edges.items()))


def _fetched(cur: sqlite3.Cursor) -> Iterator[Any]:
    """A cursor's rows a batch at a time (a full resolution's 2M edges are not all held)."""
    while batch := cur.fetchmany(_BATCH):
        yield from batch


def is_test_to_subject(t: NameTable, src: int, dst: int) -> bool:
    src_path = t.path_of.get(t.file_of_symbol.get(src, -1), "")
    dst_path = t.path_of.get(t.file_of_symbol.get(dst, -1), "")
    return is_test_path(src_path) and not is_test_path(dst_path)


def test_sources(t: NameTable, rows: Iterable[tuple[Any, ...]]) -> list[int]:
    """The test functions among the sources of `rows` (references as resolution reads them:
    rowid, file, source, …)."""
    return sorted({src for _, fid, src, *_ in rows if src > 0
                   and is_test_path(t.path_of.get(fid, ""))} & t.qualified_of.keys())


def naming_convention_tests(t: NameTable, test_sources: list[int],
                            edges: dict[tuple[int, int, str], float]) -> None:
    """`test_parse_url` → `parse_url`, `TestRouter` → `Router`, when that name is one definition."""
    for sid in test_sources:
        m = TEST_NAME.match(t.qualified_of[sid].rsplit(".", 1)[-1])
        if not m:
            continue
        subject = m.group(1)
        cands = [c for c in t.by_name.get(subject, []) + t.by_name.get(subject.lstrip("_"), [])
                 if not is_test_path(t.path_of.get(c.file_id, ""))]
        if len(cands) == 1:
            edges[(sid, cands[0].id, EdgeKind.TESTS.value)] = EDGE_WEIGHTS[EdgeKind.TESTS]
