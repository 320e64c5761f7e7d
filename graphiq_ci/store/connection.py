"""Opening the index: WAL, busy timeout, schema check, and rebuild of a damaged or foreign file."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from graphiq_ci.errors import GraphiqError
from graphiq_ci.store.schema import DDL, SCHEMA_VERSION

INDEX_DIR = ".graphiq"
DB_NAME = "graphiq.db"
BUSY_TIMEOUT_MS = 30_000
T = TypeVar("T")


def index_dir(repo_root: Path) -> Path:
    """`.graphiq/` at the repo root, created with a `.gitignore` that ignores itself."""
    d = repo_root / INDEX_DIR
    if d.is_symlink() and not d.resolve().is_relative_to(repo_root.resolve()):
        # a committed `.graphiq` link would make every run write where the link points
        raise GraphiqError(f"{d} is a symlink leading outside the repository; remove it")
    try:
        d.mkdir(exist_ok=True)
        ignore = d / ".gitignore"
        if not ignore.exists():
            ignore.write_text("*\n")
    except OSError as exc:
        raise GraphiqError(f"cannot create {d}: {exc.strerror}") from None
    return d


class Store:
    """A connection to one repository's index plus the few meta helpers every stage needs."""

    def __init__(self, conn: sqlite3.Connection, path: Path, notes: list[str]) -> None:
        self.conn = conn
        self.path = path
        self.notes = notes  # one-line messages for the user (e.g. "index rebuilt: ...")

    def get_meta(self, key: str, default: str = "") -> str:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    @property
    def generation(self) -> int:
        return int(self.get_meta("generation", "0") or 0)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it lands or none of it does.

        A write the disk refuses (full, over quota, read-only) rolls back and becomes a
        one-line `GraphiqError`: the batches committed before it stay valid.
        """
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.rollback()
                raise
            self.conn.commit()
        except sqlite3.OperationalError as exc:
            if not _environmental(exc):
                raise
            raise GraphiqError(f"index not updated: {_explain(exc)} ({self.path})") from None

    def close(self) -> None:
        self.conn.close()


#: SQLite result codes the environment causes (busy, locked, read-only, I/O, full, can't open)
_ENVIRONMENTAL = frozenset({5, 6, 8, 10, 13, 14})


def _environmental(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in _ENVIRONMENTAL
    return any(w in str(exc) for w in ("locked", "readonly", "disk", "unable to open"))


def _explain(exc: sqlite3.Error) -> str:
    text = str(exc)
    if text in ("disk I/O error", "database or disk is full"):
        return f"{text}: is the disk full or read-only?"
    return text


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


OUTDATED = "schema version"


def _health(conn: sqlite3.Connection, thorough: bool) -> str:
    """'' when the file is a usable index of this schema, else why not.

    `thorough` adds SQLite's quick_check, which reads every page: it runs when a query has
    already hit damage (see `run_index`), not on every open, where it would cost more than
    the query (40 ms on a 16 MB index, seconds on a large one).
    """
    try:
        if thorough:
            row = conn.execute("PRAGMA quick_check").fetchone()
            if not row or row[0] != "ok":
                return "integrity check failed"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return ""  # a new, empty file
        if "meta" not in tables:
            return "not a graphiq-ci index"
        got = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if not got or got[0] != str(SCHEMA_VERSION):
            return f"{OUTDATED} {got[0] if got else '?'} is not {SCHEMA_VERSION}"
    except sqlite3.DatabaseError as exc:
        return f"unreadable ({exc})"
    return ""


def _open_problem(path: Path, thorough: bool) -> tuple[str, sqlite3.Connection | None]:
    """Why the file at `path` can't be used as it is ('' when it can), and when it can, the
    connection that checked it: closing the last connection to a WAL database checkpoints and
    removes the WAL, which the next open makes again (issue #14: every query opens once)."""
    try:
        conn = _connect(path)
    except sqlite3.DatabaseError as exc:
        return f"unreadable ({exc})", None
    problem = _health(conn, thorough)
    if problem:
        conn.close()
        return problem, None
    return "", conn


def _set_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            os.replace(src, Path(str(aside) + suffix))
    keep = {aside.name + suffix for suffix in ("", "-wal", "-shm")}
    for older in path.parent.glob(f"{path.name}.broken-*"):  # keep only the newest: repeated
        if older.name not in keep:  # damage must not fill the disk
            with contextlib.suppress(OSError):
                older.unlink()
    return aside


def open_store(repo_root: Path, *, verify: bool = False) -> Store:
    """Open (creating or rebuilding when needed) the index of `repo_root`.

    A file that is not an index of this schema is set aside and rebuilt; `verify` also checks
    every page, for a caller that has just seen SQLite report damage.
    """
    path = index_dir(repo_root) / DB_NAME
    notes: list[str] = []
    try:
        with _open_lock(path):  # two processes must not both set aside (one the other's) file
            problem, conn = _open_problem(path, verify)
            generation = "0"
            if problem.startswith(OUTDATED):  # a sound index of another version: nothing to keep
                generation = _old_generation(path)
                for suffix in ("", "-wal", "-shm"):
                    Path(str(path) + suffix).unlink(missing_ok=True)
                notes.append(f"index rebuilt: {problem} (a graphiq-ci upgrade)")
            elif problem:
                aside = _set_aside(path)
                notes.append(f"index rebuilt: {problem}; the old file is kept as {aside.name}")
            conn = conn or _connect(path)
            conn.executescript(DDL)
            conn.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )
            if generation != "0":
                conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', ?)",
                             (generation,))
    except sqlite3.Error as exc:
        raise GraphiqError(f"cannot open the index {path}: {_explain(exc)}") from None
    return Store(conn, path, notes)


def _old_generation(path: Path) -> str:
    """The generation an outdated index reached, which its rebuild continues from: caches
    keyed by generation (the graph cache next to it) must never take the rebuilt index,
    starting again at 1, for the old one they were made from."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return "0"
    return row[0] if row and str(row[0]).isdigit() else "0"


def create_store(path: Path) -> Store:
    """A new, empty index at `path`, for a file that is not the repository's index: a shard, or
    a merge still being built. Whatever was at `path` (and its WAL) is removed first."""
    try:
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        conn = _connect(path)
        conn.executescript(DDL)
        conn.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)",
                     (str(SCHEMA_VERSION),))
    except (sqlite3.Error, OSError) as exc:
        why = _explain(exc) if isinstance(exc, sqlite3.Error) else exc.strerror
        raise GraphiqError(f"cannot create {path}: {why}") from None
    return Store(conn, path, [])


@contextlib.contextmanager
def _open_lock(path: Path) -> Iterator[None]:
    """An exclusive advisory lock held while the index file is checked and maybe replaced."""
    if sys.platform == "win32":
        yield
        return
    import fcntl

    try:
        fd = os.open(path.with_name(".open.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # a read-only index directory: nothing can be replaced there anyway
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


#: values per `IN (...)`: SQLite caps the variables of one statement (999 before 3.32)
IN_CHUNK = 500


def chunks(items: Sequence[T], n: int = IN_CHUNK) -> list[Sequence[T]]:
    """`items` in runs of at most `n`, for statements that take them as `IN (?, ?, …)`."""
    return [items[i : i + n] for i in range(0, len(items), n)]
