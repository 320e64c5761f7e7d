"""FTS5 BM25 lookups. User text never reaches FTS5 raw: every term is double-quoted first."""

from __future__ import annotations

import sqlite3

from graphiq_ci.store import Store
from graphiq_ci.store.schema import BM25_WEIGHTS


def quote(term: str) -> str:
    """One FTS5 string token: operators, quotes and column filters become plain text."""
    return '"' + term.replace('"', '""') + '"'


def match_expr(terms: list[str], relaxed: bool) -> str:
    """AND of the terms for symbol-like queries, OR for natural language (GraphIQ relaxed mode)."""
    quoted = [quote(t) for t in dict.fromkeys(terms) if t.strip()]
    return (" OR " if relaxed else " ").join(quoted)


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


def file_bm25(store: Store, terms: list[str], limit: int) -> dict[str, float]:
    """path → BM25 over whole files (path words weigh 3x): lexical evidence at file granularity."""
    expr = match_expr(terms, relaxed=True)
    if not expr:
        return {}
    try:
        rows = store.conn.execute(
            "SELECT f.path, -bm25(files_fts, 3.0, 1.0) FROM files_fts "
            "JOIN files f ON f.id = files_fts.rowid "
            "WHERE files_fts MATCH ? ORDER BY 2 DESC LIMIT ?",
            (expr, limit),
        ).fetchall()
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
