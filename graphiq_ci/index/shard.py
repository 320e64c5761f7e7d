"""Sharded indexing: each of N jobs parses and writes a fixed 1/N of the files (#14).

A file's shard comes from the SHA-1 of its UTF-8 path, so N jobs on N machines agree on the
split without talking to each other, and a file stays in its shard whatever else changes.
A shard holds the parse only (files, symbols, references, deep tokens, FTS rows): resolution
needs every definition, so `merge.merge_shards` does it once over all N. The shard's `meta`
says which shard it is, of which commit and of which file selection, so that a merge can
refuse shards that do not belong together instead of building a wrong index.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from graphiq_ci.config import Config, load_config
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index.run import IndexReport, Progress, current_head, find_root, index_part
from graphiq_ci.store import INDEX_DIR, create_store, index_dir
from graphiq_ci.store.schema import SCHEMA_VERSION

#: meta keys of a shard; an index that is not a shard has none of them
SHARD_KEY, HEAD_KEY, SELECTION_KEY = "shard", "shard_head", "shard_selection"
_SPEC = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


class ShardSpec(NamedTuple):
    """Shard `number` of `total` (1-based, as a CI matrix counts)."""

    number: int
    total: int

    def __str__(self) -> str:
        return f"{self.number}/{self.total}"

    def holds(self, path: str) -> bool:
        return shard_of(path, self.total) == self.number


def parse_spec(text: str) -> ShardSpec:
    """`2/4` → ShardSpec(2, 4); anything else is a one-line error."""
    m = _SPEC.fullmatch(text)
    if not m:
        raise GraphiqError(f"--shard expects I/N, e.g. 2/4 for the second of four, got {text!r}")
    spec = ShardSpec(int(m[1]), int(m[2]))
    if spec.total < 1:
        raise GraphiqError(f"--shard {text}: the number of shards must be at least 1")
    if not 1 <= spec.number <= spec.total:
        raise GraphiqError(f"--shard {text}: the shard number must be from 1 to {spec.total}")
    return spec


def shard_of(path: str, count: int) -> int:
    """The shard (1..count) that holds `path`; `surrogateescape` keeps a non-UTF-8 name's bytes."""
    digest = hashlib.sha1(path.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def selection(config: Config) -> str:
    """The settings that decide which files are indexed and how: shards must agree on them."""
    data = config.as_dict()
    return json.dumps({k: data[k] for k in ("include", "exclude", "languages", "max_file_size")},
                      sort_keys=True)


def default_path(root: Path, spec: ShardSpec) -> Path:
    return index_dir(root) / f"shard-{spec.number}-of-{spec.total}.db"


def index_shard(repo: Path, spec: ShardSpec, out: Path | None = None,
                progress: Progress | None = None) -> tuple[IndexReport, Path]:
    """Write shard `spec` of `repo` to `out` (default `.graphiq/shard-I-of-N.db`).

    It is built under a temporary name and renamed when complete, so a killed job leaves no
    file a merge could mistake for a shard.
    """
    t0 = time.perf_counter()
    root = find_root(repo)
    config, warnings = load_config(root)
    out = (out or default_path(root, spec)).resolve()
    if out.is_relative_to(root.resolve()) and not out.is_relative_to(root.resolve() / INDEX_DIR):
        raise GraphiqError(f"--out {out}: a shard in the work tree would be indexed as one of its "
                           f"files; write it under {INDEX_DIR}/ or outside the repository")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f"{out.name}.tmp{os.getpid()}")
    store = create_store(tmp)
    try:
        report = index_part(store, root, config, spec.holds, progress)
        with store.transaction():
            store.set_meta(SHARD_KEY, str(spec))
            store.set_meta(HEAD_KEY, current_head(root))
            store.set_meta(SELECTION_KEY, selection(config))
        store.conn.execute("PRAGMA journal_mode = DELETE")  # one file, the artifact to upload
        store.close()
        os.replace(tmp, out)
    except BaseException:
        store.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(OSError):
                Path(f"{tmp}{suffix}").unlink()
        raise
    report.notes += warnings
    report.seconds = time.perf_counter() - t0
    return report, out


@dataclass(frozen=True)
class ShardFile:
    """What a merge needs to know of a shard before it reads its rows."""

    path: Path
    spec: ShardSpec
    head: str
    selection: str


def read_shard(path: Path) -> ShardFile:
    """The shard at `path`, checked to be whole and of this schema (else a one-line error)."""
    if not path.is_file():
        raise GraphiqError(f"shard not found: {path}")
    uri = f"file:{urllib.parse.quote(str(path.absolute()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise GraphiqError(f"{path} cannot be opened as a shard ({exc})") from None
    try:
        if conn.execute("PRAGMA quick_check").fetchone() != ("ok",):
            raise GraphiqError(f"{path} is damaged (its integrity check failed)")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        meta = dict(conn.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
    except sqlite3.DatabaseError as exc:
        raise GraphiqError(f"{path} is damaged or not a database ({exc})") from None
    finally:
        conn.close()
    if SHARD_KEY not in meta:
        raise GraphiqError(f"{path} is not a graphiq-ci shard "
                           "(`graphiq-ci index --shard I/N` writes one)")
    if meta.get("schema_version") != str(SCHEMA_VERSION):
        raise GraphiqError(f"{path} has index schema {meta.get('schema_version', '?')}, this "
                           f"graphiq-ci writes {SCHEMA_VERSION}: make the shards and the merge "
                           "with the same graphiq-ci")
    try:
        spec = parse_spec(meta[SHARD_KEY])
    except GraphiqError:
        raise GraphiqError(f"{path} is damaged (shard {meta[SHARD_KEY]!r})") from None
    return ShardFile(path, spec, meta.get(HEAD_KEY, ""), meta.get(SELECTION_KEY, ""))
