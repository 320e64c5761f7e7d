"""SQLite storage: one file per repository at `.graphiq/graphiq.db` (WAL, busy timeout)."""

from __future__ import annotations

from graphiq_ci.store.connection import (
    DB_NAME,
    INDEX_DIR,
    Store,
    chunks,
    create_store,
    index_dir,
    open_store,
)

__all__ = ["DB_NAME", "INDEX_DIR", "Store", "chunks", "create_store", "index_dir", "open_store"]
