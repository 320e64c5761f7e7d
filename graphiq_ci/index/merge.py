"""Merging shards: N parses become one index, resolved once over the whole (#14).

The merged index is the one `index --full` writes on the same checkout, row for row: files
take the ids a full run gives them (its file order), and each file's symbols, references,
deep tokens and edges keep their order, shifted to where a full run would have put them.
So search ties, graph order and every answer come out the same. Then resolution, deep edges,
hubs and history run once, as at the end of a full run.

The merge is built in a temporary file beside the index and copied into `graphiq.db` with
SQLite's backup, one write transaction: an error leaves the old index as it was, and a
process reading it meanwhile sees the old index or the new one, never a file swapped under
its open connection (which a rename would do, and a WAL database does not survive).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphiq_ci.config import load_config
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index.finish import finish_resolution, record_history, start_history
from graphiq_ci.index.run import current_head, find_root, selected
from graphiq_ci.index.shard import ShardFile, read_shard, selection
from graphiq_ci.index.walk import list_files
from graphiq_ci.phases import phase
from graphiq_ci.store import Store, create_store, index_dir, open_store

#: per table: how its rows are found per file of a shard (contiguous, in write order)
_RANGES = {
    "symbols": "SELECT file_id, min(id), max(id), count(*) FROM sh.symbols GROUP BY 1",
    "refs": "SELECT file_id, min(rowid), max(rowid), count(*) FROM sh.refs GROUP BY 1",
    "deep_tokens": "SELECT s.file_id, min(x.rowid), max(x.rowid), count(*) FROM "
                   "sh.deep_tokens x JOIN sh.symbols s ON s.id = x.symbol_id GROUP BY 1",
    "edges": "SELECT s.file_id, min(x.rowid), max(x.rowid), count(*) FROM "
             "sh.edges x JOIN sh.symbols s ON s.id = x.src_id GROUP BY 1",
}
#: per table copied: (rows of the shard `x` joined to their file's map row `m`, columns whose
#: value is remapped). `m` holds a file's new id and, per table, the shift of its row ids.
_COPY = {
    "files": ("sh.files x JOIN shard_map m ON m.old = x.id", {"id": "m.new"}),
    "symbols": ("sh.symbols x JOIN shard_map m ON m.old = x.file_id",
                {"id": "x.id + m.symbols", "file_id": "m.new",
                 "parent_id": "x.parent_id + m.symbols"}),
    "refs": ("sh.refs x JOIN shard_map m ON m.old = x.file_id",
             {"rowid": "x.rowid + m.refs", "file_id": "m.new", "src_id": "x.src_id + m.symbols",
              "dst_id": "NULL"}),
    "deep_tokens": ("sh.deep_tokens x JOIN sh.symbols s ON s.id = x.symbol_id "
                    "JOIN shard_map m ON m.old = s.file_id",
                    {"rowid": "x.rowid + m.deep_tokens", "symbol_id": "x.symbol_id + m.symbols"}),
    "edges": ("sh.edges x JOIN sh.symbols s ON s.id = x.src_id "
              "JOIN shard_map m ON m.old = s.file_id",
              {"rowid": "x.rowid + m.edges", "src_id": "x.src_id + m.symbols",
               "dst_id": "x.dst_id + m.symbols"}),
    "symbols_fts": ("sh.symbols_fts x JOIN sh.symbols s ON s.id = x.rowid "
                    "JOIN shard_map m ON m.old = s.file_id", {"rowid": "x.rowid + m.symbols"}),
    "files_fts": ("sh.files_fts x JOIN shard_map m ON m.old = x.rowid", {"rowid": "m.new"}),
}


@dataclass
class MergeReport:
    shards: int = 0
    files: int = 0
    symbols: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def summary(report: MergeReport) -> str:
    return (f"merged {report.shards} shards: {report.files} files, {report.symbols} symbols, "
            f"resolved into .graphiq/graphiq.db in {report.seconds:.2f}s")


@dataclass
class _File:
    """One file of one shard: where its rows are there, and the shifts that place them here."""

    shard: int
    old: int
    path: str
    first: dict[str, int] = field(default_factory=dict)  # table → first row id in the shard
    count: dict[str, int] = field(default_factory=dict)
    new: int = 0
    shift: dict[str, int] = field(default_factory=dict)


def merge_shards(repo: Path, paths: Sequence[Path]) -> MergeReport:
    """Combine the shards at `paths` into `repo`'s index and resolve it, as `index --full`."""
    t0 = time.perf_counter()
    root = find_root(repo)
    config, warnings = load_config(root)
    head = current_head(root)
    shards = [read_shard(p) for p in paths]
    _check_set(shards, head, selection(config))
    build = index_dir(root) / f"merge-{os.getpid()}.db"
    store = create_store(build)
    try:
        with store.transaction():  # every row is new: the graph log would list them all
            store.set_meta("graph_log", "off")
        files = _layout(store, shards, [f.path for f in selected(list_files(root), config)])
        for k, shard in enumerate(shards):
            phase(f"merge {k + 1}")
            _copy(store, shard, [f for f in files if f.shard == k])
        history = start_history(store, root, config, True, head, background=True)
        finish_resolution(store, None, set(), None, background=history)
        report = MergeReport(shards=len(shards), files=len(files), notes=warnings)
        report.notes += record_history(store, history)
        report.symbols = store.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
        phase("merge-install")
        report.notes += _install(store, root)
    finally:
        store.close()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(f"{build}{suffix}").unlink()
    report.seconds = time.perf_counter() - t0
    return report


def _check_set(shards: list[ShardFile], head: str, wanted: str) -> None:
    """The shards are all N of one split, of this checkout's commit and file selection."""
    if not shards:
        raise GraphiqError("--merge needs the shard files to merge")
    first = shards[0]
    seen: dict[int, Path] = {}
    for s in shards:
        if s.spec.total != first.spec.total:
            raise GraphiqError(f"shards of different splits: {first.path} is {first.spec}, "
                               f"{s.path} is {s.spec}")
        if s.spec.number in seen:
            raise GraphiqError(f"shard {s.spec} given twice: {seen[s.spec.number]} and {s.path}")
        seen[s.spec.number] = s.path
        if s.head != first.head:
            raise GraphiqError(f"shards of different commits: {first.path} is of "
                               f"{first.head[:12] or 'no commit'}, {s.path} of "
                               f"{s.head[:12] or 'no commit'}")
        if s.selection != first.selection:
            raise GraphiqError(f"shards indexed with different .graphiq.yml include, exclude, "
                               f"languages or max_file_size: {first.path} and {s.path}")
    missing = [f"{i}/{first.spec.total}" for i in range(1, first.spec.total + 1) if i not in seen]
    if missing:
        raise GraphiqError(f"missing shard{'s' * (len(missing) > 1)} {', '.join(missing)} "
                           f"(given {', '.join(str(s.spec) for s in shards)})")
    if first.head != head:
        raise GraphiqError(f"the shards are of commit {first.head[:12] or 'none'}, this "
                           f"checkout is at {head[:12] or 'no commit'}: merge where they were made")
    if first.selection != wanted:
        raise GraphiqError("the shards were indexed with other .graphiq.yml include, exclude, "
                           "languages or max_file_size settings than this checkout has")


@contextlib.contextmanager
def _attached(store: Store, shard: ShardFile) -> Iterator[None]:
    """The shard as schema `sh` (ATTACH can't run inside a transaction, so one at a time)."""
    store.conn.execute("ATTACH DATABASE ? AS sh", (str(shard.path),))
    try:
        yield
    finally:
        store.conn.execute("DETACH DATABASE sh")


def _layout(store: Store, shards: list[ShardFile], order: list[str]) -> list[_File]:
    """Every file of every shard, in the order a full run writes them, with its row shifts.

    `order` is the checkout's file list as a full run walks it; a file a shard holds that the
    checkout lacks (the two differ only if the work tree changed) goes last.
    """
    files: list[_File] = []
    for k, shard in enumerate(shards):
        with _attached(store, shard):
            conn = store.conn
            mine = {old: _File(k, old, path) for old, path in
                    conn.execute("SELECT id, path FROM sh.files")}
            for path in (f.path for f in mine.values()):
                if not shard.spec.holds(path):
                    raise GraphiqError(f"{shard.path} is damaged: it holds {path}, a file of "
                                       "another shard")
            for table, sql in _RANGES.items():
                total = 0
                for old, low, high, n in conn.execute(sql):
                    if old not in mine or high - low + 1 != n:
                        raise GraphiqError(f"{shard.path} is damaged: its {table} are not laid "
                                           "out as `index --shard` writes them")
                    mine[old].first[table], mine[old].count[table] = low, n
                    total += n
                if total != conn.execute(f"SELECT count(*) FROM sh.{table}").fetchone()[0]:
                    raise GraphiqError(f"{shard.path} is damaged: {table} of no file")
            files += mine.values()
    rank = {path: i for i, path in enumerate(order)}
    files.sort(key=lambda f: (rank.get(f.path, len(rank)), f.path))
    upto: dict[str, int] = defaultdict(lambda: 1)  # per table: the next row id to give out
    for new, f in enumerate(files, 1):
        f.new = new
        for table in _RANGES:
            f.shift[table] = upto[table] - f.first.get(table, 0)
            upto[table] += f.count.get(table, 0)
    return files


def _copy(store: Store, shard: ShardFile, files: list[_File]) -> None:
    """One shard's rows, at the ids `_layout` gave them, in one transaction."""
    conn = store.conn
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS shard_map (old INTEGER PRIMARY KEY, "
                 f"new INTEGER, {', '.join(f'{t} INTEGER' for t in _RANGES)})")
    with _attached(store, shard), store.transaction():
        conn.execute("DELETE FROM shard_map")
        conn.executemany(
            f"INSERT INTO shard_map VALUES ({', '.join('?' * (2 + len(_RANGES)))})",
            [(f.old, f.new, *(f.shift[t] for t in _RANGES)) for f in files])
        for table, (source, remapped) in _COPY.items():
            columns = [r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")]
            if "rowid" in remapped:
                columns.insert(0, "rowid")
            values = ", ".join(remapped.get(c, f"x.{c}") for c in columns)
            conn.execute(f"INSERT INTO main.{table}({', '.join(columns)}) "
                         f"SELECT {values} FROM {source}")


def _install(built: Store, root: Path) -> list[str]:
    """Copy the finished merge into `graphiq.db` (one transaction); returns notes."""
    target = open_store(root)
    try:
        with built.transaction():  # a graph cached for the old index must not match the new one,
            # nor be patched from a log that starts after it
            generation = max(built.generation, target.generation + 1)
            built.set_meta("generation", str(generation))
            built.set_meta("graph_log_floor", str(generation))
        built.conn.backup(target.conn)
        return target.notes
    finally:
        target.close()
