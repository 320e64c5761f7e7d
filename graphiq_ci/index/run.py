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
from collections.abc import Callable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING

from graphiq_ci.config import Config, load_config
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index.finish import finish_resolution, record_history, start_history
from graphiq_ci.index.walk import FileStat, clean_git_env, list_files
from graphiq_ci.paths import as_text
from graphiq_ci.phases import phase
from graphiq_ci.store import Store, open_store
from graphiq_ci.store.schema import BULK_INDEXES
from graphiq_ci.vcs.refs import head_commit_from_files

if TYPE_CHECKING:  # parsing imports tree-sitter: a no-change refresh should not pay for it
    from graphiq_ci.index.parse import FileRecord
    from graphiq_ci.index.writer import Writer

BATCH_FILES = 200
#: below this many files to parse, a process pool costs more than it saves
POOL_THRESHOLD = 24

Progress = Callable[[int, int], None]


class IndexReport:
    """What a run did; tests and `stats` read these counters."""

    def __init__(self, notes: list[str] | None = None) -> None:
        self.files_seen = 0
        self.parsed: list[str] = []
        self.unchanged_content: list[str] = []
        self.deleted: list[str] = []
        self.skipped: dict[str, str] = {}
        self.parse_errors: dict[str, str] = {}
        self.seconds = 0.0
        self.notes: list[str] = [] if notes is None else notes

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
    """HEAD's sha ("" without commits or git), from `.git`'s files when they tell."""
    from_files = head_commit_from_files(root)
    if from_files is not None:
        return from_files
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
    from graphiq_ci.index.parse_pool import parse_in_pool

    for i, rec in enumerate(parse_in_pool(args, workers)):
        yield rec
        if progress:
            progress(i + 1, len(args))


def run_index(repo: Path, *, full: bool = False, config: Config | None = None,
              progress: Progress | None = None, store: Store | None = None) -> IndexReport:
    """Bring `.graphiq/graphiq.db` up to date with the work tree of `repo`.

    `config` defaults to the repository's `.graphiq.yml`. `store`: the caller's open index,
    used and left open (a query then opens the file once, not twice); if damage makes the run
    rebuild the index, the store is switched to the rebuilt file (under a new inode).
    """
    t0 = time.perf_counter()
    root = find_root(repo)
    warnings: list[str] = []
    if config is None:
        config, warnings = load_config(root)
    own = store is None
    store = open_store(root) if store is None else store
    try:
        report = _run(store, root, full, config, progress)
    except sqlite3.OperationalError:
        raise  # locked, full disk, read-only: the caller explains it; the file is fine
    except sqlite3.DatabaseError:
        # Damage surfaced mid-run (a truncated or overwritten file passes the cheap checks
        # on open): verify every page, which sets the file aside, and index from scratch.
        store.close()
        rebuilt = open_store(root, verify=True)
        if not rebuilt.notes:
            rebuilt.close()
            raise
        store.conn, store.notes = rebuilt.conn, rebuilt.notes  # the caller's store reads it
        report = _run(store, root, True, config, progress)
    finally:
        if own:
            store.close()
    report.notes += warnings
    report.seconds = time.perf_counter() - t0
    return report


def _write_batches(store: Store, writer: Writer, root: Path, config: Config,
                   report: IndexReport, records: Iterator[FileRecord]) -> None:
    """Write each record as it arrives, BATCH_FILES to a transaction.

    A record is written while the workers parse the next ones: the writer's work (a third
    of the parse workers' on zod) overlaps theirs, where collecting a whole batch first left
    the writer idle until it came and the workers idle while its last batch was written. The
    phase log says `parse` while the writer waits for a record and `write N` while it writes.
    """
    conn = store.conn
    batches = 0
    phase("parse")
    arrived = next(records, None)
    while arrived is not None:
        batches += 1
        with store.transaction():
            marked = False
            for rec in chain([arrived], islice(records, BATCH_FILES - 1)):
                phase(f"write {batches}")
                if config.languages is not None and rec.language not in config.languages:
                    rec.skip_reason, rec.parsed = "language not enabled in .graphiq.yml", False
                # read inside the write transaction: another process may have indexed this
                # file since `known` was read, and writing over it blind duplicates symbols
                old = conn.execute("SELECT content_hash FROM files WHERE path = ?",
                                   (rec.path,)).fetchone()
                if old is not None and old[0] == rec.content_hash and rec.content_hash:
                    writer.touch(rec)
                    report.unchanged_content.append(rec.path)
                else:
                    if not marked:  # a batch that only touched files leaves nothing to resolve
                        store.set_meta("pending", "1")
                        marked = True
                    _write_one(writer, root, config, report, rec, existed=old is not None)
                phase("parse")  # waiting for the workers
            phase(f"fts {batches}")
            writer.write_fts()
        phase("parse")
        arrived = next(records, None)


def _write_one(writer: Writer, root: Path, config: Config, report: IndexReport,
               rec: FileRecord, existed: bool) -> None:
    """Write a record whose content is not the indexed one, and report it."""
    if rec.same_as_indexed:  # another process re-indexed it since: parse it now
        from graphiq_ci.index.parse import parse_file

        rec = parse_file(str(root), rec.path, rec.mtime_ns, rec.size, config.max_file_size)
    writer.write(rec, existed=existed)
    report.parsed.append(rec.path)
    if rec.skip_reason:
        report.skipped[rec.path] = rec.skip_reason
    elif rec.parse_error:
        report.parse_errors[rec.path] = rec.parse_error


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
    store.notes.clear()  # said once: a store the caller holds is refreshed again
    conn = store.conn
    fresh = full or not conn.execute("SELECT 1 FROM files LIMIT 1").fetchone()
    if fresh:  # one transaction: a log turned off means the old rows are gone (rebuilding)
        with store.transaction():
            store.set_meta("graph_log", "off")  # every symbol is new: logging each costs time
            if full:
                for table in ("files", "symbols", "refs", "edges", "deep_tokens",
                              "symbols_fts", "files_fts"):
                    conn.execute(f"DELETE FROM {table}")
            for name in BULK_INDEXES:  # each secondary index is built once, after the inserts
                conn.execute(f"DROP INDEX IF EXISTS {name}")
    unstorable: list[str] = []
    on_disk = [f for f in selected(list_files(root, unstorable), config)
               if part is None or part(f.path)]
    report.files_seen = len(on_disk)
    known = {p: (m, s, h) for p, m, s, h in
             conn.execute("SELECT path, mtime_ns, size, content_hash FROM files")}
    todo = [f for f in on_disk if known.get(f.path, (None, None))[:2] != (f.mtime_ns, f.size)]
    present = {f.path for f in on_disk}
    gone = sorted(set(known) - present)
    if unstorable and (todo or gone):  # said when files are read, not on every no-change
        report.notes.append(  # refresh (each `context` call, each git hook)
            f"{len(unstorable)} files not indexed: their names are not UTF-8 "
            f"(such as {as_text(unstorable[0])!r})")
    pending = store.get_meta("pending") == "1"

    # A no-change refresh (most commits' hook) has nothing to write or resolve, and skips the
    # writer's imports (the extraction's fact types with it); whatever below uses `writer`
    # runs only when files are parsed or gone, a resolution is pending, or the build is fresh.
    if todo or gone or pending or fresh:
        from graphiq_ci.index.writer import Writer

        writer = Writer(store)
    indexed = {} if full else {path: h for path, (_, _, h) in known.items() if h}
    if todo:
        _write_batches(store, writer, root, config, report,
                       _parse_all(root, todo, config.max_file_size, indexed, progress))
    if gone:
        with store.transaction():
            store.set_meta("pending", "1")
            for path in gone:
                writer.delete(path)
        report.deleted = gone

    if fresh:  # a run killed before this point gets them back when the index is next opened
        phase("indexes")
        with store.transaction():
            for table, statement in BULK_INDEXES.values():
                if table != "edges":  # resolution writes the edges: see finish.py
                    conn.execute(statement)
    if part is not None:
        return report
    history = start_history(store, root, config, full, current_head(root), background=full)
    changed = report.changed or pending or full or bool(report.unchanged_content)
    if report.changed or pending or full:
        everything = full or pending or writer.files_added_or_removed
        tokens_ = None if (full or pending) else writer.tokens | {
            ("comment_ref", n) for n in writer.names}
        finish_resolution(store, None if everything else writer.file_ids, writer.names,
                          tokens_, writer.rebound, writer.changed_sources, history)
    report.notes += record_history(store, history, changed)
    return report

