"""Compare two graphiq-ci indexes table by table: does a change to the indexer alter its output?

    python benchmarks/compare_index.py A/.graphiq/graphiq.db B/.graphiq/graphiq.db

A speed-up must leave the index exactly as it was: same files, symbols (ids included), refs,
edges, deep tokens, FTS rows and co-change table. Index both copies of one checkout (same
mtimes) with the old and the new code, then run this; it prints each table's row count and the
first differing rows, and exits 1 when any table differs. Rows are compared as sorted multisets
plus, separately, in rowid order, so a change that only reorders rows is reported as such.
Only `meta.indexed_at` (a timestamp) is left out.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

#: table → the SELECT whose rows must match (rowid first where the rowid is an id others use)
TABLES = {
    "meta": "SELECT key, value FROM meta WHERE key != 'indexed_at'",
    "files": "SELECT * FROM files",
    "symbols": "SELECT * FROM symbols",
    "refs": "SELECT rowid, * FROM refs",
    "edges": "SELECT rowid, * FROM edges",
    "deep_tokens": "SELECT rowid, * FROM deep_tokens",
    "symbols_fts": "SELECT rowid, * FROM symbols_fts",
    "files_fts": "SELECT rowid, * FROM files_fts",
    "cochange": "SELECT * FROM cochange",
}
#: tables whose row order may differ between indexes that hold the same facts: before the
#: commit after e6c2a27, comment mentions came out of a set of strings, in an order that
#: followed the per-process hash seed (now in the order the comment names them)
UNORDERED = frozenset({"deep_tokens"})


def _rows(conn: sqlite3.Connection, sql: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in conn.execute(sql)]


def compare(a: Path, b: Path, show: int = 3) -> bool:
    """Print a line per table; True when every table holds the same rows in the same order
    (in any order for `UNORDERED`)."""
    ca, cb = sqlite3.connect(f"file:{a}?mode=ro", uri=True), sqlite3.connect(
        f"file:{b}?mode=ro", uri=True)
    same = True
    for table, sql in TABLES.items():
        ra, rb = _rows(ca, sql), _rows(cb, sql)
        if ra == rb:
            print(f"{table}: {len(ra)} rows, identical")
            continue
        # without the rowid: equal contents written in another order
        strip = 1 if sql.startswith("SELECT rowid") else 0
        sa, sb = sorted(map(repr, (r[strip:] for r in ra))), sorted(
            map(repr, (r[strip:] for r in rb)))
        if sa == sb:
            print(f"{table}: {len(ra)} rows, same contents in another order"
                  + (" (the order varied run to run before)" if table in UNORDERED else ""))
            same = same and table in UNORDERED
            continue
        same = False
        only_a = sorted(set(sa) - set(sb))
        only_b = sorted(set(sb) - set(sa))
        print(f"{table}: DIFFERENT ({len(ra)} vs {len(rb)} rows; {len(only_a)} only in A, "
              f"{len(only_b)} only in B)")
        for r in only_a[:show]:
            print(f"  A: {r[:300]}")
        for r in only_b[:show]:
            print(f"  B: {r[:300]}")
    return same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--show", type=int, default=3, help="differing rows printed per table")
    args = ap.parse_args()
    for db in (args.a, args.b):
        if not db.is_file():
            ap.error(f"no such index: {db}")
    same = compare(args.a, args.b, args.show)
    print("indexes are identical" if same else "indexes DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
