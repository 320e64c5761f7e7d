"""`Workspace`: one repository's index and graph, held open between questions.

The CLI opens one per command and closes it; the MCP server keeps one for its whole life, so a
question pays neither the interpreter's start-up nor the graph's load. `refresh` runs the
incremental indexer (a stat of every file: ~13 ms on zod when nothing changed), and the graph
is reloaded only when the index generation moved or the database file was replaced (a damaged
index is set aside and rebuilt by `open_store`, under a new inode).
"""

from __future__ import annotations

import os
from pathlib import Path

from graphiq_ci.config import Config, load_config
from graphiq_ci.index import IndexReport, find_root, run_index
from graphiq_ci.index.progress import StderrProgress
from graphiq_ci.search import GraphIndex, load_graph
from graphiq_ci.store import DB_NAME, Store, index_dir, open_store


class Workspace:
    """`show_progress`: a refresh that runs long says so on stderr (the CLI; not the server)."""

    def __init__(self, repo: Path, *, show_progress: bool = False) -> None:
        self.root = find_root(repo)
        self.show_progress = show_progress
        self._store: Store | None = None
        self._inode: int | None = None
        self._graph: GraphIndex | None = None
        self._graph_key: tuple[int | None, int] | None = None
        self.last_refresh: IndexReport | None = None

    def config(self) -> tuple[Config, list[str]]:
        """`.graphiq.yml`, read on every question: an edit to it counts at once."""
        return load_config(self.root)

    def refresh(self, config: Config | None = None) -> list[str]:
        """Index what changed on disk; the notes a user should see (e.g. "index rebuilt")."""
        progress = StderrProgress() if self.show_progress else None
        try:
            self.last_refresh = run_index(self.root, config=config, progress=progress,
                                          store=self.store)
        except BaseException:  # a run that failed on a damaged file has closed the store
            self._close_store()
            raise
        finally:
            if progress:
                progress.close()
        return self.last_refresh.notes

    @property
    def store(self) -> Store:
        """The open index, reopened when its file was replaced since it was opened."""
        inode = _inode(index_dir(self.root) / DB_NAME)
        if self._store is None or inode != self._inode:
            self._close_store()
            self._store = open_store(self.root)
            self._inode = _inode(self._store.path)
        return self._store

    def graph(self) -> GraphIndex:
        """The graph of the current index generation, loaded once per generation."""
        store = self.store
        key = (self._inode, store.generation)
        if self._graph is None or key != self._graph_key:
            self._graph = load_graph(store, self.root)
            self._graph_key = key
        return self._graph

    def close(self) -> None:
        self._close_store()
        self._graph = None
        self._graph_key = None

    def _close_store(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store = None
        self._inode = None

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _inode(path: Path) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None
