"""Deep edges (GraphIQ): symbols linked because they share a type, error, field, constant or name.

Computed from the `deep_tokens` inverted index. A token shared by more than `MAX_SHARERS`
symbols says nothing specific (every function touching `self.name`), so it makes no edges;
this keeps the cost linear in the repository rather than quadratic.
"""

from __future__ import annotations

import sqlite3
from itertools import combinations
from pathlib import Path

from graphiq_ci.model import EDGE_WEIGHTS, EdgeKind
from graphiq_ci.store import Store
from graphiq_ci.store.graph_log import rebuilding

MAX_SHARERS = 8
#: a comment naming a symbol links to it only when the name picks out at most this many
MAX_COMMENT_TARGETS = 2


Row = tuple[int, int, str, float, str]  # src_id, dst_id, kind, weight, the shared token


def rebuild_deep_edges(store: Store, tokens: set[tuple[str, str]] | None,
                       computed: list[Row] | None = None) -> int:
    """Recompute the deep edges of the given (kind, token) pairs (None: all). Returns edges made.
    `computed`: with `tokens` None, every deep edge as `all_deep_edges` worked them out from
    the index as it is (in a child process, while this one resolved: finish.History).

    For given tokens only the difference is written: a file re-parsed after a one-line edit
    still has nearly every token and every sharer it had, and deleting and inserting those
    edges again was 35 ms of a refresh of zod's schemas.ts (#14), and logged every symbol at
    them as touched (store/graph_log.py) though none of their edges changed."""
    conn = store.conn
    everything = tokens is None
    if tokens is not None and not tokens:
        return 0
    if tokens is None:
        # A build from scratch has no old deep edges to delete: the scan for them was 0.14 s
        # of sqlalchemy's build.
        if not rebuilding(store):
            conn.execute("DELETE FROM edges WHERE meta != ''")
        rows = _all_deep_edges(conn) if computed is None else computed
    else:
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (kind TEXT, token TEXT)")
        conn.execute("DELETE FROM wanted")
        conn.executemany("INSERT INTO wanted VALUES (?, ?)", sorted(tokens))
        rows = _deep_edges(conn)
    existing = [] if everything else conn.execute(
        "SELECT e.rowid, e.src_id, e.dst_id, e.kind, e.weight, e.meta FROM edges e "
        "JOIN wanted w ON e.kind = w.kind AND e.meta = w.token").fetchall()
    wanted = set(rows)
    kept: set[Row] = set()
    stale: list[tuple[int]] = []
    for rowid, src, dst, kind, weight, token in existing:
        key = (src, dst, kind, weight, token)
        if key in wanted and key not in kept:
            kept.add(key)
        else:
            stale.append((rowid,))
    conn.executemany("DELETE FROM edges WHERE rowid = ?", stale)
    conn.executemany(
        "INSERT INTO edges(src_id, dst_id, kind, weight, meta) VALUES (?, ?, ?, ?, ?)",
        [r for r in rows if r not in kept])
    return len(rows)


def all_deep_edges(db: Path) -> list[Row]:
    """Every deep edge of the index at `db`, from what it has committed, through a read-only
    connection of its own: a full run's child process works them out while the parent
    resolves, since resolution writes nothing they are made of (deep tokens, symbol names)."""
    conn = sqlite3.connect(db.absolute().as_uri() + "?mode=ro", uri=True)
    try:
        return _all_deep_edges(conn)
    finally:
        conn.close()


def _all_deep_edges(conn: sqlite3.Connection) -> list[Row]:
    # Every token, listed by SQLite in the order sorted() gives (bytes of UTF-8 sort as code
    # points): through a Python set and executemany it was 0.2 s of sqlalchemy's build.
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (kind TEXT, token TEXT)")
    conn.execute("DELETE FROM wanted")
    conn.execute("INSERT INTO wanted SELECT DISTINCT kind, token FROM deep_tokens "
                 "ORDER BY kind, token")
    return _deep_edges(conn)


def _deep_edges(conn: sqlite3.Connection) -> list[Row]:
    """The deep edges of the tokens in the temp table `wanted`."""
    comment = EdgeKind.COMMENT_REF.value
    sharers: dict[tuple[str, str], list[int]] = {}
    # Only the sharers of tokens that can make edges are read: a comment's, and those with at
    # most MAX_SHARERS distinct symbols, which the index tells by reading that many. Reading
    # every sharer of every token (a row lookup each) was 0.6 s of a one-file refresh at 200k
    # symbols, where its 200 tokens were each shared by 2,000 symbols (issue #14).
    for kind, token, sid in conn.execute(
        "WITH few AS MATERIALIZED (SELECT kind, token FROM wanted w WHERE kind = ? OR "
        "(SELECT count(*) FROM (SELECT DISTINCT symbol_id FROM deep_tokens d "
        "WHERE d.kind = w.kind AND d.token = w.token LIMIT ?)) <= ?) "
        "SELECT d.kind, d.token, d.symbol_id FROM few w CROSS JOIN deep_tokens d "
        "ON d.kind = w.kind AND d.token = w.token", (comment, MAX_SHARERS + 1, MAX_SHARERS)
    ):
        sharers.setdefault((kind, token), []).append(sid)
    rows: list[Row] = []
    for (kind, token), ids in sharers.items():
        ids = sorted(set(ids))
        if kind == comment:
            targets = [r[0] for r in conn.execute(
                "SELECT id FROM symbols WHERE name = ? AND kind != 'file' LIMIT ?",
                (token, MAX_COMMENT_TARGETS + 1))]
            if 0 < len(targets) <= MAX_COMMENT_TARGETS:
                w = EDGE_WEIGHTS[EdgeKind.COMMENT_REF]
                rows += [(s, t, kind, w, token) for s in ids for t in targets if s != t]
        elif 2 <= len(ids) <= MAX_SHARERS:
            w = EDGE_WEIGHTS[EdgeKind(kind)]
            rows += [(a, b, kind, w, token) for a, b in combinations(ids, 2)]
    return rows
