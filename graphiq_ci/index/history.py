"""Git facts captured at index time: per-file recency, churn and the co-change table.

Both are refreshed only when HEAD moves (or on a first or full run), so a query never runs git
for them. A repository without history simply keeps mtimes and an empty table.
"""

from __future__ import annotations

import json
from pathlib import Path

from graphiq_ci.errors import GraphiqError
from graphiq_ci.store import Store
from graphiq_ci.vcs import CoChange, cochange, cochange_update, file_recency

MIN_SUPPORT = 2


def refresh_history(store: Store, root: Path, max_commits: int) -> list[str]:
    """Update files.recency and the co-change table; returns notes for the user."""
    conn = store.conn
    paths = [p for (p,) in conn.execute("SELECT path FROM files")]
    try:
        recency = file_recency(root, paths)
        previous = CoChange.from_json(json.loads(store.get_meta("cochange_state") or "null") or {})
        if max_commits <= 0:
            state = None
        elif previous is not None and previous.max_commits == max_commits:
            state = cochange_update(previous, root)
        else:
            state = cochange(root, max_commits)
    except (GraphiqError, ValueError) as exc:
        return [f"git history not read: {exc}"]
    with store.transaction():
        conn.executemany("UPDATE files SET recency = ? WHERE path = ?",
                         [(t, p) for p, t in recency.items()])
        conn.execute("DELETE FROM cochange")
        conn.execute("UPDATE files SET churn = 0")
        if state is not None:
            conn.executemany("UPDATE files SET churn = ? WHERE path = ?",
                             [(n, p) for p, n in state.count.items()])
            rows = [(a, b, n, state.confidence(a, b))
                    for a, row in state.support.items() for b, n in row.items()
                    if n >= MIN_SUPPORT and a != b]
            conn.executemany(
                "INSERT INTO cochange(a, b, support, confidence) VALUES (?, ?, ?, ?)", rows)
            store.set_meta("cochange_state", json.dumps(state.to_json()))
    return []
