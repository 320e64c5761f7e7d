"""FTS5 BM25 lookups. User text never reaches FTS5 raw: every term is double-quoted first."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from graphiq_ci.store import Store
from graphiq_ci.store.schema import BM25_WEIGHTS

#: A term in at least half the rows gets FTS5's floor IDF (1e-6, `fts5Bm25GetData`): it
#: cannot move a BM25 score, yet each of its postings costs about a microsecond to score,
#: with the docsize lookup. At 1M symbols a query of such words took 13 s (issue #14).
#: Only terms with at least this many postings are ever left out, so every repository
#: below twice this many symbols is scored exactly as before.
CAPPED_POSTINGS = 20_000


def quote(term: str) -> str:
    """One FTS5 string token: operators, quotes and column filters become plain text."""
    return '"' + term.replace('"', '""') + '"'


def match_expr(terms: list[str], relaxed: bool) -> str:
    """AND of the terms for symbol-like queries, OR for natural language (GraphIQ relaxed mode)."""
    quoted = [quote(t) for t in dict.fromkeys(terms) if t.strip()]
    return (" OR " if relaxed else " ").join(quoted)


def informative(store: Store, terms: Sequence[str], rows: int,
                known: dict[str, bool]) -> list[str]:
    """`terms` without those FTS5 weighs nothing: in at least half of the `rows` symbols (its
    IDF clamped) and in at least CAPPED_POSTINGS of them. What BM25 engines do with stop
    words they were not told about; here only where scoring them would be slow.

    One probe per term, memoised in `known` (per graph, so per index generation): a row at
    that offset exists iff the term has that many postings; the probe stops there, so it
    costs at most half of what scoring the term would.
    """
    at = max((rows + 1) // 2, CAPPED_POSTINGS)
    if rows < at:
        return list(terms)
    kept = []
    for term in terms:
        if term not in known:
            try:
                known[term] = store.conn.execute(
                    "SELECT 1 FROM symbols_fts WHERE symbols_fts MATCH ? LIMIT 1 OFFSET ?",
                    (quote(term), at - 1)).fetchone() is not None
            except sqlite3.OperationalError:
                known[term] = False
        if not known[term]:
            kept.append(term)
    return kept


def symbol_bm25(store: Store, terms: list[str], relaxed: bool, limit: int) -> dict[int, float]:
    """symbol id → BM25 score (larger is better) over the weighted columns."""
    expr = match_expr(terms, relaxed)
    if not expr:
        return {}
    try:
        rows = store.conn.execute(
            f"SELECT rowid, -bm25(symbols_fts, {BM25_WEIGHTS}) FROM symbols_fts "
            f"WHERE symbols_fts MATCH ? ORDER BY 2 DESC LIMIT ?",
            (expr, limit),
        ).fetchall()
    except sqlite3.OperationalError:
        return {}
    return {int(r): float(s) for r, s in rows}


def relaxed_bm25(store: Store, terms: Sequence[str], rows: int, known: dict[str, bool],
                 limit: int) -> dict[int, float]:
    """`symbol_bm25` OR-matching the `informative` terms. When only the others match, they
    are scored over their first CAPPED_POSTINGS matches (by rowid) instead of all: early
    termination, as BM25 engines cap a common term's postings. All of them score about
    1e-6 there, so which come first is length normalisation, not relevance; a query of
    such words still gets seeds, at the cost of a capped scan rather than one per symbol.
    """
    some = informative(store, terms, rows, known)
    found = symbol_bm25(store, some, True, limit) if some else {}
    if found or len(some) == len(terms):
        return found
    expr = match_expr(list(terms), relaxed=True)
    try:
        last = store.conn.execute(
            "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ? LIMIT 1 OFFSET ?",
            (expr, CAPPED_POSTINGS - 1)).fetchone()
        found_rows = store.conn.execute(
            f"SELECT rowid, -bm25(symbols_fts, {BM25_WEIGHTS}) FROM symbols_fts "
            f"WHERE symbols_fts MATCH ? AND rowid <= ? ORDER BY 2 DESC LIMIT ?",
            (expr, last[0] if last else 1 << 62, limit)).fetchall()
    except sqlite3.OperationalError:
        return {}
    return {int(r): float(s) for r, s in found_rows}


def file_bm25(store: Store, terms: list[str], limit: int) -> dict[str, float]:
    """path → BM25 over whole files (path words weigh 3x): lexical evidence at file granularity."""
    return _path_scores(store, terms, limit, "SELECT f.path, -bm25(files_fts, 3.0, 1.0) FROM "
                        "files_fts JOIN files f ON f.id = files_fts.rowid WHERE files_fts MATCH ?")


def history_bm25(store: Store, terms: list[str], limit: int) -> dict[str, float]:
    """path → BM25 of the task over the subjects of the recent commits that touched the file.

    A task is often worded like earlier changes to the same code ("fix(v4): …", "Add X
    support to the router"), in words the file's own text may not use. Only files that were
    parsed count: the window also names files since deleted, and binary, vendored or minified
    ones the index records only to say why it skipped them."""
    return _path_scores(store, terms, limit, "SELECT h.path, -bm25(history_fts) FROM "
                        "history_fts h JOIN files f ON f.path = h.path AND f.skip_reason = '' "
                        "WHERE history_fts MATCH ?")


def _path_scores(store: Store, terms: list[str], limit: int, select: str) -> dict[str, float]:
    """path → score of `select` (rows of path and score matching the task's OR query), best
    `limit` first; nothing when the task has no searchable word or FTS5 rejects the query."""
    expr = match_expr(terms, relaxed=True)
    if not expr:
        return {}
    try:
        rows = store.conn.execute(f"{select} ORDER BY 2 DESC LIMIT ?", (expr, limit)).fetchall()
    except sqlite3.OperationalError:
        return {}
    return {str(p): float(s) for p, s in rows}


def rare_term_files(store: Store, terms: list[str], most: int) -> set[str]:
    """The files holding a word of the task that at most `most` files hold.

    BM25 already weighs a rare word up, but its length normalisation lets a long file that
    holds it once (`getpwuid` in a 2,000-line `util.c`) lose to one that repeats common task
    words. A word the task shares with one to three files points at them whatever their
    length. Words under 4 characters are left out: short rare tokens are mostly noise."""
    out: set[str] = set()
    for term in dict.fromkeys(t for t in terms if len(t) >= 4):
        try:
            rows = store.conn.execute(
                "SELECT f.path FROM files_fts JOIN files f ON f.id = files_fts.rowid "
                "WHERE files_fts MATCH ? LIMIT ?", (quote(term), most + 1)).fetchall()
        except sqlite3.OperationalError:
            continue
        if len(rows) <= most:
            out.update(str(path) for (path,) in rows)
    return out
