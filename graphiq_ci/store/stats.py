"""Counts of what the index holds, for `graphiq-ci stats`."""

from __future__ import annotations

import time
from typing import Any

from graphiq_ci.store.connection import Store


def index_stats(store: Store, current_head: str) -> dict[str, Any]:
    conn = store.conn

    def grouped(sql: str) -> dict[str, int]:
        return {str(k): int(n) for k, n in conn.execute(sql)}

    indexed_at = float(store.get_meta("indexed_at", "0") or 0)
    indexed_head = store.get_meta("indexed_head")
    return {
        "files": conn.execute("SELECT count(*) FROM files WHERE skip_reason = ''").fetchone()[0],
        "symbols": conn.execute("SELECT count(*) FROM symbols").fetchone()[0],
        "edges": conn.execute("SELECT count(*) FROM edges").fetchone()[0],
        "unresolved_references": conn.execute(
            "SELECT count(*) FROM refs WHERE dst_id IS NULL").fetchone()[0],
        "files_by_language": grouped(
            "SELECT language, count(*) FROM files WHERE skip_reason = '' "
            "GROUP BY 1 ORDER BY 2 DESC"),
        "symbols_by_kind": grouped("SELECT kind, count(*) FROM symbols GROUP BY 1 ORDER BY 2 DESC"),
        "symbols_by_language": grouped(
            "SELECT f.language, count(*) FROM symbols s JOIN files f ON f.id = s.file_id "
            "GROUP BY 1 ORDER BY 2 DESC"),
        "edges_by_kind": grouped("SELECT kind, count(*) FROM edges GROUP BY 1 ORDER BY 2 DESC"),
        "skipped": grouped(
            "SELECT skip_reason, count(*) FROM files WHERE skip_reason != '' GROUP BY 1"),
        "parse_errors": conn.execute(
            "SELECT count(*) FROM files WHERE parse_error != ''").fetchone()[0],
        "freshness": {
            "indexed_head": indexed_head,
            "current_head": current_head,
            "head_moved": bool(current_head) and current_head != indexed_head,
            "indexed_seconds_ago": round(time.time() - indexed_at, 1) if indexed_at else None,
            "generation": store.generation,
        },
    }
