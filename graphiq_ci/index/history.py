"""Git facts captured at index time: per-file recency, churn and the co-change table.

Both are refreshed only when HEAD moves (or on a first or full run), so a query never runs git
for them. A repository without history simply keeps mtimes and an empty table.

Reading them (`read_history`) touches no database, so a full run does it in a child process
while the parent resolves edges; `write_history` then stores what it found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphiq_ci.errors import GraphiqError
from graphiq_ci.store import Store
from graphiq_ci.vcs import CoChange, cochange, cochange_update, file_recency

MIN_SUPPORT = 2


@dataclass
class GitFacts:
    """What `read_history` found: plain data, so it can come back from another process."""

    recency: dict[str, float]
    state: CoChange | None
    error: str = ""  # why git history was not read ('' when it was)


def history_inputs(store: Store) -> tuple[list[str], Any]:
    """The indexed paths and the stored co-change state, read before the child starts."""
    paths = [p for (p,) in store.conn.execute("SELECT path FROM files")]
    return paths, json.loads(store.get_meta("cochange_state") or "null")


def read_history(root: Path, paths: list[str], previous_json: Any,
                 max_commits: int) -> GitFacts:
    """Recency of `paths` and the co-change state, updated from `previous_json` when it can be."""
    try:
        recency = file_recency(root, paths)
        previous = CoChange.from_json(previous_json or {})
        if max_commits <= 0:
            state = None
        elif previous is not None and previous.max_commits == max_commits:
            state = cochange_update(previous, root)
        else:
            state = cochange(root, max_commits)
    except (GraphiqError, ValueError) as exc:
        return GitFacts({}, None, str(exc))
    return GitFacts(recency, state)


def write_history(store: Store, facts: GitFacts) -> list[str]:
    """Store files.recency, churn and the co-change table; returns notes for the user."""
    if facts.error:
        return [f"git history not read: {facts.error}"]
    conn, state = store.conn, facts.state
    with store.transaction():
        conn.executemany("UPDATE files SET recency = ? WHERE path = ?",
                         [(t, p) for p, t in facts.recency.items()])
        conn.execute("DELETE FROM cochange")
        conn.execute("DELETE FROM history_fts")
        conn.execute("UPDATE files SET churn = 0")
        if state is not None:
            conn.executemany("UPDATE files SET churn = ? WHERE path = ?",
                             [(n, p) for p, n in state.count.items()])
            rows = [(a, b, n, state.confidence(a, b))
                    for a, row in state.support.items() for b, n in row.items()
                    if n >= MIN_SUPPORT and a != b]
            conn.executemany(
                "INSERT INTO cochange(a, b, support, confidence) VALUES (?, ?, ?, ?)", rows)
            conn.executemany("INSERT INTO history_fts(path, subjects) VALUES (?, ?)",
                             state.history_documents().items())
            store.set_meta("cochange_state", json.dumps(state.to_json()))
    return []
