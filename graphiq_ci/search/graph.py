"""The in-memory graph index the query path runs on (GraphIQ's CruncherIndex).

Adjacency lists with weights, per-symbol term sets, global IDF, a name index, neighbour terms
and normalised degree: everything the walk and the scorer read, so a query touches SQLite only
for FTS. Cached next to the database as zstd-compressed JSON (never pickle: the file lives in
the repository's tree) and rebuilt only when the index generation changes.
"""

from __future__ import annotations

import json
import math
import os
import struct
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zstandard

from graphiq_ci.model import DEEP_EDGES, STRUCTURAL_EDGES, EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.store import Store, index_dir

CACHE_NAME = "graph.bin.zst"
_MAGIC = b"GIQG"
_FORMAT = 1
_EDGE_CODES = {kind.value: i for i, kind in enumerate(EdgeKind)}
EDGE_KINDS = list(EdgeKind)
STRUCTURAL_CODES = frozenset(_EDGE_CODES[k.value] for k in STRUCTURAL_EDGES)
DEEP_CODES = frozenset(_EDGE_CODES[k.value] for k in DEEP_EDGES)


@dataclass
class GraphIndex:
    """Parallel arrays indexed by a symbol's position `i` (not its database id)."""

    generation: int = 0
    ids: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    qualified: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    file_of: list[int] = field(default_factory=list)  # position in `paths`
    lines: list[int] = field(default_factory=list)
    end_lines: list[int] = field(default_factory=list)
    visibility: list[str] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)  # -1: none
    terms: list[frozenset[str]] = field(default_factory=list)
    name_terms: list[frozenset[str]] = field(default_factory=list)
    neighbor_terms: list[frozenset[str]] = field(default_factory=list)
    degree: list[float] = field(default_factory=list)
    out: list[list[tuple[int, float, int]]] = field(default_factory=list)  # (j, weight, edge code)
    inc: list[list[tuple[int, float, int]]] = field(default_factory=list)
    idf: dict[str, float] = field(default_factory=dict)
    median_idf: float = 0.0
    paths: list[str] = field(default_factory=list)
    path_is_test: list[bool] = field(default_factory=list)
    file_symbol: list[int] = field(default_factory=list)  # per path: position of its file symbol
    by_name: dict[str, list[int]] = field(default_factory=dict)  # lower-case name → positions
    pos_of_id: dict[int, int] = field(default_factory=dict)

    def idf_of(self, term: str) -> float:
        return self.idf.get(term, self.max_idf)

    @property
    def max_idf(self) -> float:
        return math.log(1 + len(self.ids))

    def is_test(self, i: int) -> bool:
        return self.path_is_test[self.file_of[i]]

    def path(self, i: int) -> str:
        return self.paths[self.file_of[i]]


def build(store: Store) -> GraphIndex:
    """Read symbols and edges once and derive every query-time structure."""
    g = GraphIndex(generation=store.generation)
    conn = store.conn
    file_pos: dict[int, int] = {}
    for fid, path in conn.execute("SELECT id, path FROM files WHERE skip_reason = '' ORDER BY id"):
        file_pos[fid] = len(g.paths)
        g.paths.append(path)
        g.path_is_test.append(is_test_path(path))
    g.file_symbol = [-1] * len(g.paths)
    df: dict[str, int] = defaultdict(int)
    parent_ids: list[int | None] = []
    for sid, fid, name, qual, kind, line, end, vis, parent, terms in conn.execute(
        "SELECT id, file_id, name, qualified, kind, line, end_line, visibility, parent_id, terms "
        "FROM symbols ORDER BY id"
    ):
        i = len(g.ids)
        g.pos_of_id[sid] = i
        g.ids.append(sid)
        g.names.append(name)
        g.qualified.append(qual)
        g.kinds.append(kind)
        g.file_of.append(file_pos.get(fid, 0))
        g.lines.append(line)
        g.end_lines.append(end)
        g.visibility.append(vis)
        parent_ids.append(parent)
        term_set = frozenset(terms.split())
        g.terms.append(term_set)
        for t in term_set:
            df[t] += 1
        if kind == "file":
            g.file_symbol[g.file_of[i]] = i
        g.by_name.setdefault(name.lower(), []).append(i)
    g.parent = [g.pos_of_id.get(p, -1) if p else -1 for p in parent_ids]
    n = max(len(g.ids), 1)
    g.idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
    values = sorted(g.idf.values())
    g.median_idf = values[len(values) // 2] if values else 0.0
    g.name_terms = [_name_terms(name) for name in g.names]
    g.out = [[] for _ in g.ids]
    g.inc = [[] for _ in g.ids]
    for src, dst, kind, weight in conn.execute("SELECT src_id, dst_id, kind, weight FROM edges"):
        a, b = g.pos_of_id.get(src), g.pos_of_id.get(dst)
        if a is None or b is None:
            continue
        code = _EDGE_CODES[kind]
        g.out[a].append((b, weight, code))
        g.inc[b].append((a, weight, code))
        if code in DEEP_CODES:  # deep edges are symmetric: stored once, walked both ways
            g.out[b].append((a, weight, code))
            g.inc[a].append((b, weight, code))
    for adj in (g.out, g.inc):
        for lst in adj:
            lst.sort(key=lambda e: -e[1])
    g.neighbor_terms = [
        frozenset().union(*(g.name_terms[j] for j, _, c in g.out[i] + g.inc[i]
                            if c in STRUCTURAL_CODES))
        for i in range(len(g.ids))
    ]
    most = max((len(g.out[i]) + len(g.inc[i]) for i in range(len(g.ids))), default=1) or 1
    g.degree = [math.log1p(len(g.out[i]) + len(g.inc[i])) / math.log1p(most)
                for i in range(len(g.ids))]
    return g


def _name_terms(name: str) -> frozenset[str]:
    from graphiq_ci.text import split_identifier, stem

    return frozenset(stem(p) for p in split_identifier(name))


# ------------------------------------------------------------------ cache

_ARRAYS = ("ids", "names", "qualified", "kinds", "file_of", "lines", "end_lines", "visibility",
           "parent", "degree", "paths", "path_is_test", "file_symbol")


def _dump(g: GraphIndex) -> bytes:
    vocab: dict[str, int] = {}

    def enc(s: frozenset[str]) -> list[int]:
        return [vocab.setdefault(t, len(vocab)) for t in s]

    body: dict[str, Any] = {k: getattr(g, k) for k in _ARRAYS}
    body["terms"] = [enc(s) for s in g.terms]
    body["neighbor_terms"] = [enc(s) for s in g.neighbor_terms]
    body["out"] = g.out
    body["idf"] = g.idf
    body["vocab"] = list(vocab)
    raw = json.dumps(body, separators=(",", ":")).encode()
    return _MAGIC + struct.pack("<II", _FORMAT, g.generation) + zstandard.compress(raw, 3)


class _Corrupt(Exception):
    """The cache file is not one this version wrote, or it was damaged since."""


def _load(data: bytes, generation: int) -> GraphIndex | None:
    """The cached graph; None when it is stale (another generation or format)."""
    if len(data) < 12 or data[:4] != _MAGIC:
        raise _Corrupt("not a graph cache")
    fmt, gen = struct.unpack("<II", data[4:12])
    if fmt != _FORMAT or gen != generation:
        return None
    try:
        g = _decode(data)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError,
            zstandard.ZstdError) as exc:
        raise _Corrupt(type(exc).__name__) from None
    n, n_paths = len(g.ids), len(g.paths)
    if any(len(getattr(g, k)) != n for k in _ARRAYS[:10] + ("terms", "neighbor_terms", "out")) \
            or len(g.path_is_test) != n_paths or len(g.file_symbol) != n_paths \
            or any(not 0 <= f < max(n_paths, 1) for f in g.file_of) \
            or any(not 0 <= j < n for lst in g.out for j, _, _ in lst):
        raise _Corrupt("inconsistent arrays")
    return g


def _decode(data: bytes) -> GraphIndex:
    gen = struct.unpack("<II", data[4:12])[1]
    body = json.loads(zstandard.decompress(data[12:]))
    g = GraphIndex(generation=gen)
    for k in _ARRAYS:
        setattr(g, k, body[k])
    vocab = body["vocab"]
    g.terms = [frozenset(vocab[t] for t in s) for s in body["terms"]]
    g.neighbor_terms = [frozenset(vocab[t] for t in s) for s in body["neighbor_terms"]]
    g.out = [[(j, w, c) for j, w, c in lst] for lst in body["out"]]
    g.inc = [[] for _ in g.ids]
    for i, lst in enumerate(g.out):
        for j, w, c in lst:
            g.inc[j].append((i, w, c))
    g.idf = body["idf"]
    values = sorted(g.idf.values())
    g.median_idf = values[len(values) // 2] if values else 0.0
    g.name_terms = [_name_terms(name) for name in g.names]
    g.pos_of_id = {sid: i for i, sid in enumerate(g.ids)}
    for i, name in enumerate(g.names):
        g.by_name.setdefault(name.lower(), []).append(i)
    return g


def load_graph(store: Store, root: Path) -> GraphIndex:
    """The cached graph when it matches the index generation, else a fresh build (then cached).

    A stale cache is overwritten; a corrupt one is set aside (one line on stderr says where)
    and rebuilt. A cache that can't be written (read-only checkout) only costs the next query
    a rebuild.
    """
    path = index_dir(root) / CACHE_NAME
    generation = store.generation
    try:
        g = _load(path.read_bytes(), generation)
        if g is not None:
            return g
    except OSError:
        pass
    except _Corrupt as exc:
        _set_aside(path, str(exc))
    g = build(store)
    try:
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(_dump(g))
        os.replace(tmp, path)
    except OSError:
        pass
    return g


def _set_aside(path: Path, why: str) -> None:
    aside = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.replace(path, aside)
    except OSError:
        return  # another process replaced it first, or a read-only directory
    print(f"graphiq-ci: graph cache unreadable ({why}), rebuilding it; the old file is kept as "
          f"{aside.name}", file=sys.stderr)
