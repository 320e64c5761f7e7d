"""The end of every index run that changed something, and of a merge of shards.

Both need the whole index: a reference resolves only against every definition, a deep edge
only among every symbol sharing its token, a hub only by all its callers.

Every `context` call ends its no-change refresh here (`record_history`), so what only a
change needs (resolution, deep edges, a process pool for history) is imported when it runs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from graphiq_ci.config import Config
from graphiq_ci.phases import phase
from graphiq_ci.store import Store
from graphiq_ci.store.schema import BULK_INDEXES

if TYPE_CHECKING:  # the history reader: imported only when HEAD moved
    from concurrent.futures import Future, ProcessPoolExecutor

    from graphiq_ci.index.deep import Row
    from graphiq_ci.index.history import GitFacts


def finish_resolution(store: Store, file_ids: set[int] | None, names: set[str],
                      deep_tokens: set[tuple[str, str]] | None,
                      rebound: set[int] | None = None,
                      partial: dict[int, set[int]] | None = None,
                      background: History | None = None) -> None:
    """Edges, deep edges and hubs for what changed (None: the whole index), in the transaction
    that clears `pending` and moves the generation; a merge of shards ends with it too.
    `rebound`: changed files whose imports bind anew; the files importing them are resolved
    again too (a name they import may now be passed on from elsewhere). `partial`: re-parsed
    files of which only some sources' references changed (index/writer.py). `background`:
    a full run's child processes, which may have worked out every deep edge meanwhile."""
    from graphiq_ci.index.bindings import importers
    from graphiq_ci.index.deep import rebuild_deep_edges
    from graphiq_ci.index.pairs import declaration_pairs, link_declarations
    from graphiq_ci.index.resolve import resolve
    from graphiq_ci.index.roles import mark_hubs
    from graphiq_ci.store.graph_log import close_graph_log, rebuilding

    with store.transaction():
        phase("resolve")
        pairs = declaration_pairs(store)  # symbols are written: resolution folds them too
        if file_ids is not None and rebound:
            reached = importers(store, rebound)
            file_ids = file_ids | reached
            partial = {f: s for f, s in (partial or {}).items() if f not in reached}
        resolve(store, file_ids, names, pairs, partial)
        link_declarations(store, pairs)
        phase("deep-edges")
        computed = background.deep_edges() if background and deep_tokens is None else None
        rebuild_deep_edges(store, deep_tokens, computed)
        incremental = file_ids is not None and not rebuilding(store)
        mark_hubs(store, store.generation + 1 if incremental else None)
        for _, statement in BULK_INDEXES.values():  # a build from scratch dropped them
            store.conn.execute(statement)
        close_graph_log(store, store.generation + 1)
        store.set_meta("generation", str(store.generation + 1))
        store.set_meta("pending", "0")


class History:
    """Recency, churn and co-change, when HEAD moved (or `full`): `start_history` begins
    reading git, `record_history` stores what it read and `head` as indexed.

    With `background` (a full run), git is read in a child process while the parent resolves
    edges (one core would be idle for the whole resolution otherwise), and every deep edge is
    worked out in a second one: they are made of deep tokens and symbol names, which
    resolution does not write (sqlalchemy's deep-edges phase 1.3 -> 0.85 s, its resolution
    about 0.25 s slower beside the child). Both processes are forked at once, before any
    thread of the pool exists. Without `background`, git is read in `record_history`.
    """

    def __init__(self, root: Path, config: Config, head: str, wanted: bool) -> None:
        self.root, self.config, self.head, self.wanted = root, config, head, wanted
        self.pool: ProcessPoolExecutor | None = None
        self.future: Future[GitFacts] | None = None
        self.deep: Future[list[Row]] | None = None

    def start(self, store: Store) -> None:
        from concurrent.futures import ProcessPoolExecutor

        from graphiq_ci.index.deep import all_deep_edges
        from graphiq_ci.index.history import history_inputs, read_history

        paths, previous = history_inputs(store)
        try:
            self.pool = ProcessPoolExecutor(max_workers=2)
            self.future = self.pool.submit(read_history, self.root, paths, previous,
                                           self.config.cochange_commits)
            self.deep = self.pool.submit(all_deep_edges, store.path)
        except OSError:  # no process for it (a sandbox without semaphores): read it later
            self.close()

    def deep_edges(self) -> list[Row] | None:
        """Every deep edge, as the child worked them out; None when it did not (no child, or
        it died or failed): the caller works them out itself."""
        try:
            return self.deep.result() if self.deep is not None else None
        except Exception:  # noqa: BLE001 - a killed child, a read it could not do: redo it
            return None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
        self.pool = self.future = self.deep = None


def start_history(store: Store, root: Path, config: Config, full: bool, head: str,
                  background: bool = False) -> History:
    h = History(root, config, head, head != store.get_meta("indexed_head") or full)
    if h.wanted and background:
        h.start(store)
    return h


def record_history(store: Store, h: History, changed: bool = True) -> list[str]:
    """Store what `h` read and HEAD as indexed. A run that changed nothing at the same HEAD
    writes nothing: its commit, on every `context` call, cost more than the rest of the
    no-change refresh's database work (issue #14); `indexed_at` then dates the last run that
    changed the index."""
    notes: list[str] = []
    if not (h.wanted or changed):
        phase("end")
        return notes
    if h.wanted:
        # the history reader: only when HEAD moved
        from concurrent.futures.process import BrokenProcessPool

        from graphiq_ci.index.history import history_inputs, read_history, write_history

        phase("history")
        facts = None
        try:
            if h.future is not None:
                facts = h.future.result()
        except BrokenProcessPool:  # the child died (killed, out of memory): read it here
            facts = None
        finally:
            h.close()
        if facts is None:
            paths, previous = history_inputs(store)
            facts = read_history(h.root, paths, previous, h.config.cochange_commits)
        notes = write_history(store, facts)
    with store.transaction():
        store.set_meta("indexed_head", h.head)
        store.set_meta("indexed_at", str(time.time()))
    phase("end")  # the last phase's end, for whoever times the phases (bench_index.py)
    return notes
