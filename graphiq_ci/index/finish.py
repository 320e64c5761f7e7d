"""The end of every index run that changed something, and of a merge of shards.

Both need the whole index: a reference resolves only against every definition, a deep edge
only among every symbol sharing its token, a hub only by all its callers.
"""

from __future__ import annotations

import time
from pathlib import Path

from graphiq_ci.config import Config
from graphiq_ci.index.deep import rebuild_deep_edges
from graphiq_ci.index.resolve import resolve
from graphiq_ci.index.roles import mark_hubs
from graphiq_ci.phases import phase
from graphiq_ci.store import Store
from graphiq_ci.store.graph_log import close_graph_log


def finish_resolution(store: Store, file_ids: set[int] | None, names: set[str],
                      deep_tokens: set[tuple[str, str]] | None) -> None:
    """Edges, deep edges and hubs for what changed (None: the whole index), in the transaction
    that clears `pending` and moves the generation; a merge of shards ends with it too."""
    with store.transaction():
        phase("resolve")
        resolve(store, file_ids, names)
        phase("deep-edges")
        rebuild_deep_edges(store, deep_tokens)
        mark_hubs(store)
        close_graph_log(store, store.generation + 1)
        store.set_meta("generation", str(store.generation + 1))
        store.set_meta("pending", "0")


def record_history(store: Store, root: Path, config: Config, full: bool,
                   head: str) -> list[str]:
    """Recency, churn and co-change when HEAD moved (or `full`), then `head` as indexed."""
    notes: list[str] = []
    if head != store.get_meta("indexed_head") or full:
        from graphiq_ci.index.history import refresh_history  # GitPython: only when HEAD moved

        phase("history")
        notes = refresh_history(store, root, config.cochange_commits)
    with store.transaction():
        store.set_meta("indexed_head", head)
        store.set_meta("indexed_at", str(time.time()))
    return notes
