"""The incremental index run: find what changed, parse it in parallel, write it in batches.

A file whose (mtime_ns, size) is unchanged is not read; one whose content hash is unchanged is
not re-parsed. Each batch of files is one transaction, so an interrupted run keeps every batch it
committed; a `pending` flag in `meta` makes the next run finish the resolution it missed.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from graphiq_ci.config import Config, load_config
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index.finish import finish_resolution, record_history, start_history
from graphiq_ci.index.walk import FileStat, clean_git_env, list_files
from graphiq_ci.model import EDGE_WEIGHTS, EdgeKind, Kind
from graphiq_ci.phases import phase
from graphiq_ci.store import Store, open_store
from graphiq_ci.text import tokens

if TYPE_CHECKING:  # parsing imports tree-sitter: a no-change refresh should not pay for it
    from graphiq_ci.index.parse import FileRecord

BATCH_FILES = 200
#: below this many files to parse, a process pool costs more than it saves
POOL_THRESHOLD = 24

Progress = Callable[[int, int], None]
SymbolKey = tuple[str, str]  # (qualified name, kind): what makes a re-parsed symbol "the same"
_Reused = tuple[int, str]  # an old symbol's id and arity


@dataclass
class IndexReport:
    """What a run did; tests and `stats` read these counters."""

    files_seen: int = 0
    parsed: list[str] = field(default_factory=list)
    unchanged_content: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    parse_errors: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.parsed or self.deleted)


def summary(report: IndexReport) -> str:
    return (f"indexed {len(report.parsed)} files ({len(report.deleted)} deleted, "
            f"{len(report.skipped)} skipped, {len(report.parse_errors)} with syntax errors) "
            f"of {report.files_seen} in {report.seconds:.2f}s"
            + (f"; {len(report.unchanged_content)} touched but unchanged, not parsed"
               if report.unchanged_content else ""))


def find_root(path: Path) -> Path:
    """The git work tree containing `path`, else `path` itself (a plain directory)."""
    if not path.is_dir():
        raise GraphiqError(f"not a directory: {path}")
    here = path.resolve()
    for candidate in (here, *here.parents):  # `.git` is a directory, or a file in worktrees
        if (candidate / ".git").exists():
            return candidate
    return here


def current_head(root: Path) -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(root), "rev-parse", "-q", "--verify", "HEAD"],
            capture_output=True, text=True, env=clean_git_env(),
        ).stdout.strip()
    except FileNotFoundError:
        return ""


def _parse_all(root: Path, stats: list[FileStat], max_size: int, indexed: dict[str, str],
               progress: Progress | None) -> Iterator[FileRecord]:
    """Parse `stats` (in a process pool when many); `indexed`: path → hash already stored."""
    if not stats:  # a no-change refresh: tree-sitter and the grammars are not even imported
        return
    from graphiq_ci.index.parse import parse_file

    args = [(str(root), s.path, s.mtime_ns, s.size, max_size, indexed.get(s.path, ""))
            for s in stats]
    workers = max(1, min(os.cpu_count() or 1, 8))
    if len(args) < POOL_THRESHOLD or workers == 1:
        for i, a in enumerate(args):  # one file: its query is compiled for it alone
            yield parse_file(*a, narrow=len(args) == 1)
            if progress:
                progress(i + 1, len(args))
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunk = max(1, min(32, len(args) // (workers * 4)))
        for i, rec in enumerate(pool.map(_parse_star, args, chunksize=chunk)):
            yield rec
            if progress:
                progress(i + 1, len(args))


def _parse_star(a: tuple[str, str, int, int, int, str]) -> FileRecord:
    from graphiq_ci.index.parse import parse_file

    return parse_file(*a)


class _Writer:
    """Applies file records to the store and remembers what resolution must revisit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.names: set[str] = set()
        self.tokens: set[tuple[str, str]] = set()
        self.file_ids: set[int] = set()
        self.files_added_or_removed = False
        #: FTS rows of the batch being written, inserted together by `write_fts`
        self.fts_files: list[tuple[int, str, str]] = []
        self.fts_symbols: list[tuple[int, str, str, str, str, str, str, str, str]] = []

    def _forget(self, file_id: int,
                keep: Counter[SymbolKey] | None = None) -> dict[SymbolKey, list[_Reused]]:
        """Remove a file's rows; symbols whose key is in `keep` give back their ids for reuse,
        as many per key as the new parse has (overloads share a key), in file order.

        A reused id keeps every edge and resolved reference other files hold to it, so only
        the names that appeared or disappeared need re-resolving across the repository.
        """
        conn = self.store.conn
        old = conn.execute("SELECT id, name, qualified, kind, arity FROM symbols "
                           "WHERE file_id = ? ORDER BY id", (file_id,)).fetchall()
        reuse: dict[SymbolKey, list[_Reused]] = {}
        for sid, name, qualified, kind, arity in old:
            key = (qualified, kind)
            slots = reuse.setdefault(key, [])
            if keep is not None and len(slots) < keep[key]:
                slots.append((sid, arity))
            else:
                self.names.add(name)
        kept = {sid for slots in reuse.values() for sid, _ in slots}
        self.tokens.update(
            (k, t) for k, t in conn.execute(
                "SELECT kind, token FROM deep_tokens WHERE symbol_id IN "
                "(SELECT id FROM symbols WHERE file_id = ?)", (file_id,)))
        ids = [r[0] for r in old]
        gone = [sid for sid in ids if sid not in kept]
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            conn.execute(f"DELETE FROM symbols_fts WHERE rowid IN ({marks})", part)
            conn.execute(f"DELETE FROM deep_tokens WHERE symbol_id IN ({marks})", part)
        # A kept id keeps its edges: what writes each kind writes only the difference
        # (`_write_contains`, resolve's `_replace_edges`, the deep edges of its tokens).
        for chunk in range(0, len(gone), 500):
            part = gone[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            conn.execute(f"DELETE FROM edges WHERE src_id IN ({marks})", part)
            conn.execute(f"DELETE FROM edges WHERE dst_id IN ({marks})", part)
            conn.execute(f"UPDATE refs SET dst_id = NULL WHERE dst_id IN ({marks})", part)
        conn.execute("DELETE FROM symbols WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM refs WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM files_fts WHERE rowid = ?", (file_id,))
        return reuse

    def delete(self, path: str) -> None:
        row = self.store.conn.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row:
            self._forget(row[0])
            self.store.conn.execute("DELETE FROM files WHERE id = ?", (row[0],))
            self.files_added_or_removed = True

    def touch(self, rec: FileRecord) -> None:
        """Content unchanged: only the stat moved."""
        self.store.conn.execute(
            "UPDATE files SET mtime_ns = ?, size = ? WHERE path = ?",
            (rec.mtime_ns, rec.size, rec.path))

    def write(self, rec: FileRecord, existed: bool) -> None:
        conn = self.store.conn
        reuse: dict[SymbolKey, list[_Reused]] = {}
        if existed:
            row = conn.execute("SELECT id FROM files WHERE path = ?", (rec.path,)).fetchone()
            keep = Counter((s[1], s[2]) for s in rec.symbols) if rec.parsed else Counter()
            reuse = self._forget(row[0], keep)
        else:
            self.files_added_or_removed = True
        file_id = conn.execute(
            "INSERT INTO files(path, language, mtime_ns, size, content_hash, skip_reason, "
            "parse_error, recency) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(path) DO UPDATE SET language = excluded.language, "
            "mtime_ns = excluded.mtime_ns, size = excluded.size, "
            "content_hash = excluded.content_hash, skip_reason = excluded.skip_reason, "
            "parse_error = excluded.parse_error, recency = excluded.recency RETURNING id",
            (rec.path, rec.language, rec.mtime_ns, rec.size, rec.content_hash, rec.skip_reason,
             rec.parse_error if rec.parsed else "", rec.mtime_ns / 1e9),
        ).fetchone()[0]
        self.file_ids.add(file_id)
        if not rec.parsed:
            return
        self.fts_files.append((file_id, " ".join(tokens(rec.path.replace("/", " "))), rec.body))
        self._write_symbols(rec, file_id, reuse)

    def write_fts(self) -> None:
        """The batch's FTS rows in two statements (a phase of its own in the phase log)."""
        conn = self.store.conn
        conn.executemany("INSERT INTO files_fts(rowid, path, body) VALUES (?, ?, ?)",
                         self.fts_files)
        conn.executemany(
            "INSERT INTO symbols_fts(rowid, name, decomposed, qualified, hints, sig, file_path, "
            "doc, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", self.fts_symbols)
        self.fts_files, self.fts_symbols = [], []

    def _write_symbols(self, rec: FileRecord, file_id: int,
                       reuse: dict[SymbolKey, list[_Reused]]) -> None:
        conn = self.store.conn
        taken = conn.execute("SELECT max(id) FROM symbols").fetchone()[0] or 0
        # reused ids are not back in the table yet
        next_id = max(taken, *(sid for slots in reuse.values() for sid, _ in slots), 0) + 1
        id_of: dict[str, int] = {}
        sym_rows, contains = [], []
        path_words = " ".join(tokens(rec.path.replace("/", " ")))
        file_sym_id = 0
        file_kind = Kind.FILE.value
        for (name, qualified, kind, line, end_line, signature, doc, source, visibility, parent,
             decomposed, hints, body, terms, declaration, arity) in rec.symbols:
            slots = reuse.get((qualified, kind))
            sid, old_arity = slots.pop(0) if slots else (0, arity)
            if not sid:
                sid = next_id
                next_id += 1
                self.names.add(name)  # a new definition: uses of its name may resolve anew
            elif old_arity != arity:
                self.names.add(name)  # a call's argument count may pick another overload now
            id_of.setdefault("" if kind == file_kind else qualified, sid)
            parent_id = id_of.get(parent) if parent else None
            if kind == file_kind:
                file_sym_id = sid
            else:
                contains.append((parent_id or file_sym_id, sid))
            sym_rows.append((sid, file_id, name, qualified, kind, line, end_line, signature, doc,
                             source, visibility, parent_id, hints, terms, declaration, arity))
            self.fts_symbols.append((sid, name, decomposed, qualified, hints, signature,
                                     path_words, doc, body))
        conn.executemany(
            "INSERT INTO symbols(id, file_id, name, qualified, kind, line, end_line, signature, "
            "doc, source, visibility, parent_id, hints, terms, declaration, arity) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", sym_rows)
        self._write_contains(contains, [r[0] for r in sym_rows])
        conn.executemany(
            "INSERT INTO refs(file_id, src_id, name, kind, line, alias, receiver_type, bare, "
            "arity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(file_id, id_of.get(scope) if scope else None, name, kind, line, alias, receiver,
              bare, arity) for scope, name, kind, line, alias, receiver, bare, arity in rec.refs])
        deep = [(id_of[scope], kind, token) for scope, kind, token in rec.deep if scope in id_of]
        conn.executemany("INSERT INTO deep_tokens(symbol_id, kind, token) VALUES (?, ?, ?)", deep)
        self.tokens.update((k, tok) for _, k, tok in deep)


    def _write_contains(self, contains: list[tuple[int, int]], ids: list[int]) -> None:
        """Make the `contains` edges from `ids` (a file's symbols) exactly `contains`, writing
        only the difference: the ids a re-parse kept kept their edges."""
        conn = self.store.conn
        wanted = set(contains)
        kept: set[tuple[int, int]] = set()
        stale: list[tuple[int]] = []
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            for rowid, src, dst in conn.execute(
                    "SELECT rowid, src_id, dst_id FROM edges WHERE kind = 'contains' AND src_id "
                    f"IN ({','.join('?' * len(part))})", part):
                if (src, dst) in wanted and (src, dst) not in kept:
                    kept.add((src, dst))
                else:
                    stale.append((rowid,))
        conn.executemany("DELETE FROM edges WHERE rowid = ?", stale)
        w = EDGE_WEIGHTS[EdgeKind.CONTAINS]
        conn.executemany(
            "INSERT INTO edges(src_id, dst_id, kind, weight) VALUES (?, ?, 'contains', ?)",
            [(p, c, w) for p, c in contains if (p, c) not in kept])


def run_index(repo: Path, *, full: bool = False, config: Config | None = None,
              progress: Progress | None = None) -> IndexReport:
    """Bring `.graphiq/graphiq.db` up to date with the work tree of `repo`.

    `config` defaults to the repository's `.graphiq.yml`.
    """
    t0 = time.perf_counter()
    root = find_root(repo)
    warnings: list[str] = []
    if config is None:
        config, warnings = load_config(root)
    store = open_store(root)
    try:
        report = _run(store, root, full, config, progress)
    except sqlite3.OperationalError:
        raise  # locked, full disk, read-only: the caller explains it; the file is fine
    except sqlite3.DatabaseError:
        # Damage surfaced mid-run (a truncated or overwritten file passes the cheap checks
        # on open): verify every page, which sets the file aside, and index from scratch.
        store.close()
        store = open_store(root, verify=True)
        if not store.notes:
            raise
        report = _run(store, root, True, config, progress)
    finally:
        store.close()
    report.notes += warnings
    report.seconds = time.perf_counter() - t0
    return report


def selected(files: list[FileStat], config: Config) -> list[FileStat]:
    """`include` / `exclude` globs from `.graphiq.yml` (gitignore syntax); the order kept is the
    order a full run writes files in, which a merge of shards reproduces."""
    if not (config.include or config.exclude):
        return list(files)
    import pathspec  # ~15 ms to import: only for a config that has globs

    include = pathspec.GitIgnoreSpec.from_lines(config.include) if config.include else None
    exclude = pathspec.GitIgnoreSpec.from_lines(config.exclude) if config.exclude else None
    return [f for f in files if (include is None or include.match_file(f.path))
            and not (exclude is not None and exclude.match_file(f.path))]


def index_part(store: Store, root: Path, config: Config, part: Callable[[str], bool],
               progress: Progress | None = None) -> IndexReport:
    """Parse and write, from scratch into `store`, only the files `part` accepts (a shard).

    Resolution, deep edges, hubs and history need the whole repository: the merge does them.
    """
    return _run(store, root, True, config, progress, part)


def _run(store: Store, root: Path, full: bool, config: Config,
         progress: Progress | None, part: Callable[[str], bool] | None = None) -> IndexReport:
    report = IndexReport(notes=list(store.notes))
    conn = store.conn
    if full or not conn.execute("SELECT 1 FROM files LIMIT 1").fetchone():
        with store.transaction():  # every symbol is new: logging each would only cost time
            store.set_meta("graph_log", "off")
    if full:
        with store.transaction():
            for table in ("files", "symbols", "refs", "edges", "deep_tokens", "symbols_fts",
                          "files_fts"):
                conn.execute(f"DELETE FROM {table}")
    on_disk = [f for f in selected(list_files(root), config) if part is None or part(f.path)]
    report.files_seen = len(on_disk)
    known = {p: (m, s, h) for p, m, s, h in
             conn.execute("SELECT path, mtime_ns, size, content_hash FROM files")}
    todo = [f for f in on_disk if known.get(f.path, (None, None))[:2] != (f.mtime_ns, f.size)]
    present = {f.path for f in on_disk}
    gone = sorted(set(known) - present)
    pending = store.get_meta("pending") == "1"

    writer = _Writer(store)
    batch: list[FileRecord] = []

    batches = 0

    def flush() -> None:
        nonlocal batches
        batches += 1
        phase(f"write {batches}")
        with store.transaction():
            store.set_meta("pending", "1")
            for rec in batch:
                # read inside the write transaction: another process may have indexed this
                # file since `known` was read, and writing over it blind duplicates symbols
                old = conn.execute("SELECT content_hash FROM files WHERE path = ?",
                                   (rec.path,)).fetchone()
                if old is not None and old[0] == rec.content_hash and rec.content_hash:
                    writer.touch(rec)
                    report.unchanged_content.append(rec.path)
                    continue
                if rec.same_as_indexed:  # another process re-indexed it since: parse it now
                    from graphiq_ci.index.parse import parse_file

                    rec = parse_file(str(root), rec.path, rec.mtime_ns, rec.size,
                                     config.max_file_size)
                writer.write(rec, existed=old is not None)
                report.parsed.append(rec.path)
                if rec.skip_reason:
                    report.skipped[rec.path] = rec.skip_reason
                elif rec.parse_error:
                    report.parse_errors[rec.path] = rec.parse_error
            phase(f"fts {batches}")
            writer.write_fts()
        phase("parse")  # waiting for the workers again
        batch.clear()

    indexed = {} if full else {path: h for path, (_, _, h) in known.items() if h}
    phase("parse")
    for rec in _parse_all(root, todo, config.max_file_size, indexed, progress):
        if config.languages is not None and rec.language not in config.languages:
            rec.skip_reason, rec.parsed = "language not enabled in .graphiq.yml", False
        batch.append(rec)
        if len(batch) >= BATCH_FILES:
            flush()
    if batch:
        flush()
    if gone:
        with store.transaction():
            store.set_meta("pending", "1")
            for path in gone:
                writer.delete(path)
        report.deleted = gone

    if part is not None:
        return report
    history = start_history(store, root, config, full, current_head(root), background=full)
    if report.changed or pending or full:
        everything = full or pending or writer.files_added_or_removed
        tokens_ = None if (full or pending) else writer.tokens | {
            ("comment_ref", n) for n in writer.names}
        finish_resolution(store, None if everything else writer.file_ids, writer.names, tokens_)
    report.notes += record_history(store, history)
    return report

