"""The graph log: which symbols each index generation touched, for patching the graph cache.

The triggers in `schema.DDL` fill `graph_log` whoever writes the rows; this module keeps it
bounded and answers what changed between two generations. `graph_log_floor` F in meta promises
that the log lists every symbol touched in each generation after F.
"""

from __future__ import annotations

from graphiq_ci.store.connection import Store

#: generations kept: a graph cache older than that is rebuilt, not patched
GRAPH_LOG_GENERATIONS = 16


def close_graph_log(store: Store, generation: int) -> None:
    """Called as `generation` is published: bound the log, and restart it after a run that
    did not log (a full or first index sets `graph_log` to 'off': every symbol is new)."""
    floor = int(store.get_meta("graph_log_floor", "0") or 0)
    if store.get_meta("graph_log") == "off":
        floor = generation
    floor = max(floor, generation - GRAPH_LOG_GENERATIONS)
    store.conn.execute("DELETE FROM graph_log WHERE generation <= ?", (floor,))
    store.set_meta("graph_log_floor", str(floor))
    store.set_meta("graph_log", "on")


def rebuilding(store: Store) -> bool:
    """Whether the generation being written is built from scratch (a first or full index, a
    merge of shards): every row in it is new, so nothing is logged, and no deep edge of an
    earlier generation is stored (index/run.py clears the tables in the transaction that
    turns the log off)."""
    return store.get_meta("graph_log") == "off"


def touched_since(store: Store, generation: int) -> set[int] | None:
    """Ids of the symbols touched after `generation` (deleted ones included), or None when
    the log does not reach back that far. Read it in the transaction that reads the rows."""
    if generation < int(store.get_meta("graph_log_floor", "0") or 0):
        return None
    return {r[0] for r in store.conn.execute(
        "SELECT DISTINCT symbol_id FROM graph_log WHERE generation > ?", (generation,))}
