"""The in-memory graph index the query path runs on (GraphIQ's CruncherIndex).

Adjacency lists with weights, per-symbol term sets, global IDF, a name index, neighbour terms
and normalised degree: everything the walk and the scorer read, so a query touches SQLite only
for FTS. Cached next to the database and rebuilt only when the index generation changes.

The cache is a zstd-compressed run of flat sections: numbers as little-endian `array.array`
bytes, string lists as one NUL-joined UTF-8 blob, term sets and adjacency in CSR form (offsets
plus flat ids). Loading is a few C-level copies, splits and min/max checks, with no per-symbol
Python; term sets and edge lists are materialised on first access (`TermSets`, `Adjacency`,
`NeighborTerms`), name and id lookups on first use (`LazyDict`). Only struct, array and zstd
parse the file, with every size and index checked: never pickle or marshal, because the file
lives in the repository's tree.
"""

from __future__ import annotations

import contextlib
import math
import operator
import os
import re
import struct
import sys
import time
from array import array
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar, overload

import zstandard

from graphiq_ci.model import DEEP_EDGES, STRUCTURAL_EDGES, EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.phases import phase
from graphiq_ci.store import Store, index_dir

CACHE_NAME = "graph.bin.zst"
_MAGIC = b"GIQG"
_FORMAT = 2
_EDGE_CODES = {kind.value: i for i, kind in enumerate(EdgeKind)}
EDGE_KINDS = list(EdgeKind)
STRUCTURAL_CODES = frozenset(_EDGE_CODES[k.value] for k in STRUCTURAL_EDGES)
DEEP_CODES = frozenset(_EDGE_CODES[k.value] for k in DEEP_EDGES)

Edge = tuple[int, float, int]  # (neighbour position, weight, edge code)
K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")
_EMPTY: frozenset[str] = frozenset()


class _Lazy(Sequence[T]):
    """A read-only sequence whose items are built on first access (`_make`), then kept."""

    __slots__ = ("_cache",)

    def __init__(self, size: int) -> None:
        self._cache: list[T | None] = [None] * size

    def _make(self, i: int) -> T:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._cache)

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        item = self._cache[i]  # raises IndexError past the end, as a list would
        if item is None:
            i = i if i >= 0 else i + len(self)
            item = self._cache[i] = self._make(i)
        return item

    def __iter__(self) -> Iterator[T]:
        return (self[i] for i in range(len(self)))


class TermSets(_Lazy[frozenset[str]]):
    """Per-symbol term sets in CSR form (offsets into one flat array of vocabulary ids)."""

    __slots__ = ("_flat", "_ids", "_index", "_off", "_vocab")

    def __init__(self, vocab: list[str], off: array[int], ids: array[int]) -> None:
        super().__init__(len(off) - 1)
        self._vocab, self._off, self._ids = vocab, off, ids
        self._index: dict[str, int] | None = None  # term → vocabulary id, for `having`
        self._flat = b""

    def _make(self, i: int) -> frozenset[str]:
        a, b = self._off[i], self._off[i + 1]
        return frozenset(map(self._vocab.__getitem__, self._ids[a:b])) if b > a else _EMPTY

    def having(self, term: str) -> list[int]:
        """Positions whose set holds `term`, ascending, found in the flat ids (no set is built)."""
        if self._index is None:
            self._index = dict(zip(self._vocab, range(len(self._vocab)), strict=True))
            self._flat = self._ids.tobytes()
        if len(self._index) != len(self._vocab):  # a repeated vocabulary entry: compare strings
            return [i for i in range(len(self)) if term in self[i]]
        k = self._index.get(term)
        if k is None:
            return []
        size, flat, off = self._ids.itemsize, self._flat, self._off
        pattern = array(self._ids.typecode, [k]).tobytes()
        found: list[int] = []
        at = flat.find(pattern)
        while at >= 0:
            if at % size:  # straddles two ids
                at = flat.find(pattern, at + 1)
                continue
            found.append(bisect_right(off, at // size) - 1)
            at = flat.find(pattern, at + size)
        return sorted(set(found))


class Adjacency(_Lazy[list[Edge]]):
    """Per-symbol edge lists in CSR form (offsets into flat target, weight and code arrays)."""

    __slots__ = ("_codes", "_off", "_to", "_weights")

    def __init__(self, off: array[int], to: array[int], weights: array[float],
                 codes: array[int]) -> None:
        super().__init__(len(off) - 1)
        self._off, self._to, self._weights, self._codes = off, to, weights, codes

    def _make(self, i: int) -> list[Edge]:
        a, b = self._off[i], self._off[i + 1]
        return list(zip(self._to[a:b], self._weights[a:b], self._codes[a:b], strict=True))


class NeighborTerms(_Lazy[frozenset[str]]):
    """The name terms of each symbol's structural neighbours.

    Not stored in the cache: it is a function of `name_terms` and the adjacency, and a query
    only reads it for the symbols it scores.
    """

    __slots__ = ("_inc", "_name_terms", "_out")

    def __init__(self, name_terms: Sequence[frozenset[str]], out: Sequence[list[Edge]],
                 inc: Sequence[list[Edge]]) -> None:
        super().__init__(len(name_terms))
        self._name_terms, self._out, self._inc = name_terms, out, inc

    def _make(self, i: int) -> frozenset[str]:
        return _neighbor_terms(self._name_terms, self._out[i], self._inc[i])


def _neighbor_terms(name_terms: Sequence[frozenset[str]], out: list[Edge],
                    inc: list[Edge]) -> frozenset[str]:
    return frozenset().union(*(name_terms[j] for j, _, c in out + inc if c in STRUCTURAL_CODES))


class LazyDict(Mapping[K, V]):
    """A dict built by `make` on first use (name and id lookups of a loaded graph)."""

    __slots__ = ("_d", "_make")

    def __init__(self, make: Callable[[], dict[K, V]]) -> None:
        self._make: Callable[[], dict[K, V]] | None = make
        self._d: dict[K, V] = {}

    @property
    def data(self) -> dict[K, V]:
        if self._make is not None:
            self._d, self._make = self._make(), None
        return self._d

    def __getitem__(self, key: K) -> V:
        return self.data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __contains__(self, key: object) -> bool:
        return key in self.data

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, default: V | T, /) -> V | T: ...

    def get(self, key: K, default: Any = None, /) -> Any:
        return self.data.get(key, default)

    def keys(self) -> KeysView[K]:
        return self.data.keys()

    def values(self) -> ValuesView[V]:
        return self.data.values()

    def items(self) -> ItemsView[K, V]:
        return self.data.items()


class NameIndex:
    """Lower-case names, sorted: exact and prefix lookups by bisection, regex scans in C.

    `keys` holds every position's lower-case name in order, `order` the positions in the same
    order (ascending within equal names: the sort is stable), `distinct` each name once. `blob`
    is `distinct` with a NUL before and after each name, so one compiled regex can test every
    name without a Python loop; it is None when a name holds a NUL itself (then callers scan).
    """

    __slots__ = ("_blob", "distinct", "keys", "order")

    def __init__(self, names: Sequence[str]) -> None:
        low = list(map(str.lower, names))
        self.order = sorted(range(len(low)), key=low.__getitem__)
        self.keys = [low[i] for i in self.order]
        self.distinct = list(dict.fromkeys(self.keys))
        self._blob: str | None = None

    def positions(self, lower: str) -> list[int]:
        """Positions whose lower-case name is `lower`, ascending (what `by_name.get` holds)."""
        lo = bisect_left(self.keys, lower)
        return self.order[lo:bisect_right(self.keys, lower, lo)]

    def starting_with(self, prefix: str) -> list[str]:
        """The distinct lower-case names that start with `prefix`, in sorted order."""
        out: list[str] = []
        distinct = self.distinct
        for k in range(bisect_left(distinct, prefix), len(distinct)):
            if not distinct[k].startswith(prefix):
                break
            out.append(distinct[k])
        return out

    @property
    def blob(self) -> str | None:
        if self._blob is None:
            joined = "\0".join(self.distinct)
            if joined.count("\0") != max(len(self.distinct) - 1, 0):
                return None
            self._blob = f"\0{joined}\0"
        return self._blob

    def matching(self, pattern: re.Pattern[str]) -> list[str]:
        """Group 1 of each match of `pattern` in `blob`: a pattern of the form `\0(...)` that
        never crosses a NUL yields the names it matches (a leading literal lets the regex
        engine skip ahead in C). [] when there is no blob."""
        blob = self.blob
        return [] if blob is None else [m.group(1) for m in pattern.finditer(blob)]


@dataclass
class GraphIndex:
    """Parallel arrays indexed by a symbol's position `i` (not its database id).

    `build` fills plain lists and dicts; a graph loaded from the cache holds arrays and the
    lazy sequences and mappings above. Both read the same through these types.
    """

    generation: int = 0
    ids: Sequence[int] = field(default_factory=list)
    names: Sequence[str] = field(default_factory=list)
    qualified: Sequence[str] = field(default_factory=list)
    kinds: Sequence[str] = field(default_factory=list)
    file_of: Sequence[int] = field(default_factory=list)  # position in `paths`
    lines: Sequence[int] = field(default_factory=list)
    end_lines: Sequence[int] = field(default_factory=list)
    visibility: Sequence[str] = field(default_factory=list)
    parent: Sequence[int] = field(default_factory=list)  # -1: none
    terms: Sequence[frozenset[str]] = field(default_factory=list)
    name_terms: Sequence[frozenset[str]] = field(default_factory=list)
    neighbor_terms: Sequence[frozenset[str]] = field(default_factory=list)
    degree: Sequence[float] = field(default_factory=list)
    out: Sequence[list[Edge]] = field(default_factory=list)  # sorted by weight, heaviest first
    inc: Sequence[list[Edge]] = field(default_factory=list)
    idf: Mapping[str, float] = field(default_factory=dict)
    median_idf: float = 0.0
    paths: Sequence[str] = field(default_factory=list)
    path_is_test: Sequence[bool] = field(default_factory=list)
    file_symbol: Sequence[int] = field(default_factory=list)  # per path: its file symbol's position
    by_name: Mapping[str, list[int]] = field(default_factory=dict)  # lower-case name → positions
    pos_of_id: Mapping[int, int] = field(default_factory=dict)
    # derived on first use and kept for the process: never stored, never compared
    _names: NameIndex | None = field(default=None, init=False, repr=False, compare=False)
    _postings: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False,
                                            compare=False)
    _path_words: tuple[list[set[str]], dict[str, int]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def name_index(self) -> NameIndex:
        if self._names is None:
            self._names = NameIndex(self.names)
        return self._names

    def with_name_term(self, term: str) -> list[int]:
        """Positions whose `name_terms` hold `term`, ascending."""
        found = self._postings.get(term)
        if found is None:
            nt = self.name_terms
            found = (nt.having(term) if isinstance(nt, TermSets)
                     else [i for i, s in enumerate(nt) if term in s])
            self._postings[term] = found
        return found

    def path_words(self) -> tuple[list[set[str]], dict[str, int]]:
        """Each path's stemmed words, and in how many paths each word occurs."""
        if self._path_words is None:
            from graphiq_ci.text import stem, tokens

            words = [{stem(t) for t in tokens(p.replace("/", " "))} for p in self.paths]
            df: dict[str, int] = defaultdict(int)
            for ws in words:
                for w in ws:
                    df[w] += 1
            self._path_words = (words, df)
        return self._path_words

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
    conn = store.conn
    paths: list[str] = []
    file_pos: dict[int, int] = {}
    for fid, path in conn.execute("SELECT id, path FROM files WHERE skip_reason = '' ORDER BY id"):
        file_pos[fid] = len(paths)
        paths.append(path)
    file_symbol = [-1] * len(paths)
    ids: list[int] = []
    names: list[str] = []
    qualified: list[str] = []
    kinds: list[str] = []
    file_of: list[int] = []
    lines: list[int] = []
    end_lines: list[int] = []
    visibility: list[str] = []
    terms: list[frozenset[str]] = []
    pos_of_id: dict[int, int] = {}
    by_name: dict[str, list[int]] = {}
    df: dict[str, int] = defaultdict(int)
    parent_ids: list[int | None] = []
    for sid, fid, name, qual, kind, line, end, vis, parent, text in conn.execute(
        "SELECT id, file_id, name, qualified, kind, line, end_line, visibility, parent_id, terms "
        "FROM symbols ORDER BY id"
    ):
        i = len(ids)
        pos_of_id[sid] = i
        ids.append(sid)
        names.append(name)
        qualified.append(qual)
        kinds.append(kind)
        file_of.append(file_pos.get(fid, 0))
        lines.append(line)
        end_lines.append(end)
        visibility.append(vis)
        parent_ids.append(parent)
        term_set = frozenset(text.split())
        terms.append(term_set)
        for t in term_set:
            df[t] += 1
        if kind == "file":
            file_symbol[file_of[i]] = i
        by_name.setdefault(name.lower(), []).append(i)
    n = max(len(ids), 1)
    idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
    values = sorted(idf.values())
    name_terms = [_name_terms(name) for name in names]
    out: list[list[Edge]] = [[] for _ in ids]
    inc: list[list[Edge]] = [[] for _ in ids]
    for src, dst, kind, weight in conn.execute("SELECT src_id, dst_id, kind, weight FROM edges"):
        a, b = pos_of_id.get(src), pos_of_id.get(dst)
        if a is None or b is None:
            continue
        code = _EDGE_CODES[kind]
        out[a].append((b, weight, code))
        inc[b].append((a, weight, code))
        if code in DEEP_CODES:  # deep edges are symmetric: stored once, walked both ways
            out[b].append((a, weight, code))
            inc[a].append((b, weight, code))
    for adj in (out, inc):
        for lst in adj:
            lst.sort(key=lambda e: -e[1])
    neighbor_terms = [_neighbor_terms(name_terms, out[i], inc[i]) for i in range(len(ids))]
    most = max((len(out[i]) + len(inc[i]) for i in range(len(ids))), default=1) or 1
    return GraphIndex(
        generation=store.generation, ids=ids, names=names, qualified=qualified, kinds=kinds,
        file_of=file_of, lines=lines, end_lines=end_lines, visibility=visibility,
        parent=[pos_of_id.get(p, -1) if p else -1 for p in parent_ids],
        terms=terms, name_terms=name_terms, neighbor_terms=neighbor_terms,
        degree=[math.log1p(len(out[i]) + len(inc[i])) / math.log1p(most)
                for i in range(len(ids))],
        out=out, inc=inc, idf=idf, median_idf=values[len(values) // 2] if values else 0.0,
        paths=paths, path_is_test=[is_test_path(p) for p in paths], file_symbol=file_symbol,
        by_name=by_name, pos_of_id=pos_of_id,
    )


def _name_terms(name: str) -> frozenset[str]:
    from graphiq_ci.text import split_identifier, stem

    return frozenset(stem(p) for p in split_identifier(name))


# ------------------------------------------------------------------ cache
#
# header: b"GIQG", u32 format, u32 generation (12 bytes), then one zstd frame (with checksum)
#   holding u32 section count, per section u64 byte length and u64 item count, then the
#   sections in `_SECTIONS` order. Numbers are little-endian; "s" sections are NUL-joined
#   UTF-8 strings. Neighbour terms are not stored: `NeighborTerms` derives them.

_I32 = next(c for c in "ilh" if array(c).itemsize == 4)  # signed: -1 marks "none"
_U32 = _I32.upper()  # unsigned: a range check is one max()
_STR = "s"
_SECTIONS: tuple[tuple[str, str], ...] = (
    ("ids", "q"), ("file_of", _U32), ("lines", _I32), ("end_lines", _I32), ("parent", _I32),
    ("degree", "d"), ("path_is_test", "B"), ("file_symbol", _I32),
    ("names", _STR), ("qualified", _STR), ("kinds", _STR), ("visibility", _STR),
    ("paths", _STR), ("vocab", _STR), ("idf", "d"), ("median_idf", "d"),
    ("terms.off", _U32), ("terms.ids", _U32), ("name_terms.off", _U32), ("name_terms.ids", _U32),
    ("out.off", _U32), ("out.to", _U32), ("out.weight", "d"), ("out.code", "B"),
    ("inc.off", _U32), ("inc.to", _U32), ("inc.weight", "d"), ("inc.code", "B"),
)
_SWAP = sys.byteorder != "little"
_MAX_PAYLOAD = 1 << 32  # a larger frame is not one this module wrote
_COMPRESSOR = zstandard.ZstdCompressor(level=3, write_checksum=True)


class _Corrupt(Exception):
    """The cache file is not one this version wrote, or it was damaged since."""


class _Unencodable(Exception):
    """A string holds a NUL, which the string sections use as their separator."""


def _strings(items: Sequence[str]) -> tuple[bytes, int]:
    joined = "\0".join(items)
    if joined.count("\0") != max(len(items) - 1, 0):
        raise _Unencodable
    return joined.encode("utf-8", "surrogatepass"), len(items)


def _numbers(code: str, values: Iterable[Any]) -> tuple[bytes, int]:
    arr = values if isinstance(values, array) and values.typecode == code else array(code, values)
    if _SWAP:
        arr = array(code, arr)
        arr.byteswap()
    return arr.tobytes(), len(arr)


def _csr_sets(sets: Sequence[frozenset[str]], vocab: dict[str, int]) -> list[tuple[bytes, int]]:
    off = array(_U32, [0])
    flat = array(_U32)
    for s in sets:
        flat.extend([vocab.setdefault(t, len(vocab)) for t in s])
        off.append(len(flat))
    return [_numbers(_U32, off), _numbers(_U32, flat)]


def _csr_edges(adj: Sequence[list[Edge]]) -> list[tuple[bytes, int]]:
    off = array(_U32, [0])
    to, weights, codes = array(_U32), array("d"), array("B")
    for lst in adj:
        for j, w, c in lst:
            to.append(j)
            weights.append(w)
            codes.append(c)
        off.append(len(to))
    return [_numbers(_U32, off), _numbers(_U32, to), _numbers("d", weights),
            _numbers("B", codes)]


def _dump(g: GraphIndex) -> bytes:
    """The cache file for `g`; raises _Unencodable when a string can't be stored."""
    vocab: dict[str, int] = {t: k for k, t in enumerate(g.idf)}  # idf terms first, aligned
    sets = _csr_sets(g.terms, vocab) + _csr_sets(g.name_terms, vocab)
    sections = [
        _numbers("q", g.ids), _numbers(_U32, g.file_of), _numbers(_I32, g.lines),
        _numbers(_I32, g.end_lines), _numbers(_I32, g.parent), _numbers("d", g.degree),
        _numbers("B", g.path_is_test), _numbers(_I32, g.file_symbol),
        _strings(g.names), _strings(g.qualified), _strings(g.kinds), _strings(g.visibility),
        _strings(g.paths), _strings(list(vocab)), _numbers("d", g.idf.values()),
        _numbers("d", [g.median_idf]), *sets, *_csr_edges(g.out), *_csr_edges(g.inc),
    ]
    head = struct.pack(f"<I{2 * len(sections)}Q", len(sections),
                       *(x for blob, count in sections for x in (len(blob), count)))
    payload = b"".join([head, *(blob for blob, _ in sections)])
    return _MAGIC + struct.pack("<II", _FORMAT, g.generation) + _COMPRESSOR.compress(payload)


def _load(data: bytes, generation: int) -> GraphIndex | None:
    """The cached graph; None when it is stale (another generation or format)."""
    if len(data) < 12 or data[:4] != _MAGIC:
        raise _Corrupt("not a graph cache")
    fmt, gen = struct.unpack_from("<II", data, 4)
    if fmt != _FORMAT or gen != generation:
        return None
    try:
        return _decode(gen, memoryview(data)[12:])
    except (ValueError, TypeError, IndexError, OverflowError, MemoryError, struct.error,
            zstandard.ZstdError) as exc:
        raise _Corrupt(type(exc).__name__) from None


def _sections(frame: memoryview) -> dict[str, Any]:
    """Each section's array (or string list), with every length checked against the bytes."""
    size = zstandard.frame_content_size(frame)
    if not 0 <= size <= _MAX_PAYLOAD:
        raise _Corrupt("no usable frame size")
    payload = memoryview(zstandard.ZstdDecompressor().decompress(frame))
    if len(payload) != size or len(payload) < 4:
        raise _Corrupt("frame size mismatch")
    count = struct.unpack_from("<I", payload)[0]
    if count != len(_SECTIONS):
        raise _Corrupt("unexpected sections")
    sizes = struct.unpack_from(f"<{2 * count}Q", payload, 4)
    at = 4 + 16 * count
    if at + sum(sizes[0::2]) != len(payload):
        raise _Corrupt("section sizes don't add up")
    out: dict[str, Any] = {}
    for k, (name, code) in enumerate(_SECTIONS):
        nbytes, items = sizes[2 * k], sizes[2 * k + 1]
        chunk = payload[at:at + nbytes]
        at += nbytes
        if code == _STR:
            strings = str(chunk, "utf-8", "surrogatepass").split("\0") if items else []
            if len(strings) != items or (items == 0 and nbytes):
                raise _Corrupt(f"{name}: wrong string count")
            out[name] = strings
        else:
            arr = array(code)
            if nbytes != items * arr.itemsize:
                raise _Corrupt(f"{name}: wrong size")
            arr.frombytes(chunk)
            if _SWAP:
                arr.byteswap()
            out[name] = arr
    return out


def _below(arr: array[int], high: int) -> bool:
    """Every value of an unsigned array under `high` (one C-level max, no per-item Python)."""
    return not arr or max(arr) < high


def _in_range(arr: array[int], low: int, high: int) -> bool:
    return not arr or (min(arr) >= low and max(arr) < high)


def _csr_ok(off: array[int], flat: array[int], n: int, high: int) -> bool:
    """Offsets start at 0, never decrease and end at the flat array's end; ids under `high`."""
    return (len(off) == n + 1 and off[0] == 0 and off[-1] == len(flat)
            and all(map(operator.le, off, islice(off, 1, None))) and _below(flat, high))


def _decode(gen: int, frame: memoryview) -> GraphIndex:
    s = _sections(frame)
    n, n_paths, n_vocab = len(s["ids"]), len(s["paths"]), len(s["vocab"])
    n_idf = len(s["idf"])
    n_codes = len(EDGE_KINDS)
    if any(len(s[k]) != n for k in ("file_of", "lines", "end_lines", "parent", "degree",
                                    "names", "qualified", "kinds", "visibility")) \
            or len(s["path_is_test"]) != n_paths or len(s["file_symbol"]) != n_paths \
            or n_idf > n_vocab or len(s["median_idf"]) != 1 \
            or not _below(s["file_of"], max(n_paths, 1)) \
            or not _in_range(s["parent"], -1, n) or not _in_range(s["file_symbol"], -1, n) \
            or not _below(s["path_is_test"], 2) \
            or not all(_csr_ok(s[f"{k}.off"], s[f"{k}.ids"], n, n_vocab)
                       for k in ("terms", "name_terms")) \
            or not all(_csr_ok(s[f"{k}.off"], s[f"{k}.to"], n, n)
                       and len(s[f"{k}.weight"]) == len(s[f"{k}.to"]) == len(s[f"{k}.code"])
                       and _below(s[f"{k}.code"], n_codes) for k in ("out", "inc")):
        raise _Corrupt("inconsistent arrays")
    vocab: list[str] = s["vocab"]
    ids: array[int] = s["ids"]
    names: list[str] = s["names"]
    idf_values: array[float] = s["idf"]
    name_terms = TermSets(vocab, s["name_terms.off"], s["name_terms.ids"])
    out = Adjacency(s["out.off"], s["out.to"], s["out.weight"], s["out.code"])
    inc = Adjacency(s["inc.off"], s["inc.to"], s["inc.weight"], s["inc.code"])

    def by_name() -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, lower in enumerate(map(str.lower, names)):
            found.setdefault(lower, []).append(i)
        return found

    return GraphIndex(
        generation=gen, ids=ids, names=names, qualified=s["qualified"], kinds=s["kinds"],
        file_of=s["file_of"], lines=s["lines"], end_lines=s["end_lines"],
        visibility=s["visibility"], parent=s["parent"],
        terms=TermSets(vocab, s["terms.off"], s["terms.ids"]),
        name_terms=name_terms, neighbor_terms=NeighborTerms(name_terms, out, inc),
        degree=s["degree"], out=out, inc=inc,
        idf=LazyDict(lambda: dict(zip(vocab, idf_values, strict=False))),
        median_idf=s["median_idf"][0], paths=s["paths"],
        path_is_test=list(map(bool, s["path_is_test"])), file_symbol=s["file_symbol"],
        by_name=LazyDict(by_name),
        pos_of_id=LazyDict(lambda: dict(zip(ids, range(n), strict=True))),
    )


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
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    try:
        _remove_orphans(path)
        with open(tmp, "wb") as out:
            phase("graph-cache")  # the file exists from here: a kill leaves an orphan
            out.write(_dump(g))
        os.replace(tmp, path)
    except (OSError, OverflowError, _Unencodable):  # e.g. a line number past int32
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)  # a graph that cannot be stored leaves no half file
    return g


def _remove_orphans(path: Path) -> None:
    """Temporary caches of processes that died writing them (a SIGKILL mid-write)."""
    for tmp in path.parent.glob(path.with_suffix(".tmp*").name):
        pid = tmp.suffix.removeprefix(".tmp")
        if pid.isdigit() and not _alive(int(pid)):
            tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _set_aside(path: Path, why: str) -> None:
    aside = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.replace(path, aside)
    except OSError:
        return  # another process replaced it first, or a read-only directory
    print(f"graphiq-ci: graph cache unreadable ({why}), rebuilding it; the old file is kept as "
          f"{aside.name}", file=sys.stderr)
