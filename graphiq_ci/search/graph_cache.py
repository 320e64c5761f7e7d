"""The graph index's cache file, `graph.bin.zst` next to the database.

The cache is a zstd-compressed run of flat sections: numbers as little-endian `array.array`
bytes, string lists as one NUL-joined UTF-8 blob, term sets and adjacency in CSR form (offsets
plus flat ids). Loading is a few C-level copies, splits and min/max checks, with no per-symbol
Python; term sets and edge lists are materialised on first access (`graph_views`). Only
struct, array and zstd parse the file, with every size and index checked: never pickle or
marshal, because the file lives in the repository's tree.
"""

from __future__ import annotations

import contextlib
import operator
import os
import struct
import sys
import time
from array import array
from collections.abc import Iterable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

import zstandard

from graphiq_ci.phases import phase
from graphiq_ci.search.graph import EDGE_KINDS, GraphIndex, build, lazy_lookups
from graphiq_ci.search.graph_views import I32, U32, Adjacency, Edge, NeighborTerms, TermSets
from graphiq_ci.store import Store, index_dir

CACHE_NAME = "graph.bin.zst"
_MAGIC = b"GIQG"
_FORMAT = 3

# header: b"GIQG", u32 format, u32 generation (12 bytes), then one zstd frame (with checksum)
#   holding u32 section count, per section u64 byte length and u64 item count, then the
#   sections in `_SECTIONS` order. Numbers are little-endian; "s" sections are NUL-joined
#   UTF-8 strings. Neighbour terms are not stored: `NeighborTerms` derives them. `df` holds,
#   per vocabulary id, how many symbols' terms hold it (0: a name term only): IDF is derived
#   from it, and `graph_update` patches it.

_STR = "s"
_SECTIONS: tuple[tuple[str, str], ...] = (
    ("ids", "q"), ("file_of", U32), ("lines", I32), ("end_lines", I32), ("parent", I32),
    ("degree", "d"), ("path_is_test", "B"), ("file_symbol", I32),
    ("names", _STR), ("qualified", _STR), ("kinds", _STR), ("visibility", _STR),
    ("paths", _STR), ("vocab", _STR), ("df", U32), ("median_idf", "d"),
    ("terms.off", U32), ("terms.ids", U32), ("name_terms.off", U32), ("name_terms.ids", U32),
    ("out.off", U32), ("out.to", U32), ("out.weight", "d"), ("out.code", "B"),
    ("inc.off", U32), ("inc.to", U32), ("inc.weight", "d"), ("inc.code", "B"),
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


def _csr_sets(sets: Sequence[frozenset[str]]) -> list[tuple[bytes, int]]:
    assert isinstance(sets, TermSets), "build, patch and load give term sets as CSR arrays"
    return [_numbers(U32, sets.off), _numbers(U32, sets.ids)]


def _csr_edges(adj: Sequence[list[Edge]]) -> list[tuple[bytes, int]]:
    assert isinstance(adj, Adjacency), "build, patch and load give edges as CSR arrays"
    return [_numbers(U32, adj.off), _numbers(U32, adj.to), _numbers("d", adj.weights),
            _numbers("B", adj.codes)]


def _dump(g: GraphIndex) -> bytes:
    """The cache file for `g`; raises _Unencodable when a string can't be stored."""
    vocab = _vocab(g)
    sets = _csr_sets(g.terms) + _csr_sets(g.name_terms)
    sections = [
        _numbers("q", g.ids), _numbers(U32, g.file_of), _numbers(I32, g.lines),
        _numbers(I32, g.end_lines), _numbers(I32, g.parent), _numbers("d", g.degree),
        _numbers("B", g.path_is_test), _numbers(I32, g.file_symbol),
        _strings(g.names), _strings(g.qualified), _strings(g.kinds), _strings(g.visibility),
        _strings(g.paths), _strings(vocab), _numbers(U32, g.term_df),
        _numbers("d", [g.median_idf]), *sets, *_csr_edges(g.out), *_csr_edges(g.inc),
    ]
    head = struct.pack(f"<I{2 * len(sections)}Q", len(sections),
                       *(x for blob, count in sections for x in (len(blob), count)))
    payload = b"".join([head, *(blob for blob, _ in sections)])
    return _MAGIC + struct.pack("<II", _FORMAT, g.generation) + _COMPRESSOR.compress(payload)


def _vocab(g: GraphIndex) -> list[str]:
    """The one vocabulary both term CSRs index, with a count per term (`term_df`)."""
    t, nt = g.terms, g.name_terms
    assert isinstance(t, TermSets) and isinstance(nt, TermSets) and t.vocab is nt.vocab \
        and len(g.term_df) == len(t.vocab), "build, patch and load share one vocabulary"
    return t.vocab


def _load(data: bytes, generation: int | None) -> GraphIndex | None:
    """The cached graph; None when it is stale (another format, or another generation than
    `generation` when one is given)."""
    if len(data) < 12 or data[:4] != _MAGIC:
        raise _Corrupt("not a graph cache")
    fmt, gen = struct.unpack_from("<II", data, 4)
    if fmt != _FORMAT or generation is not None and gen != generation:
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
    n_codes = len(EDGE_KINDS)
    if any(len(s[k]) != n for k in ("file_of", "lines", "end_lines", "parent", "degree",
                                    "names", "qualified", "kinds", "visibility")) \
            or len(s["path_is_test"]) != n_paths or len(s["file_symbol"]) != n_paths \
            or len(s["df"]) != n_vocab or len(s["median_idf"]) != 1 \
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
    df: array[int] = s["df"]
    name_terms = TermSets(vocab, s["name_terms.off"], s["name_terms.ids"])
    out = Adjacency(s["out.off"], s["out.to"], s["out.weight"], s["out.code"])
    inc = Adjacency(s["inc.off"], s["inc.to"], s["inc.weight"], s["inc.code"])

    return GraphIndex(
        generation=gen, ids=ids, names=names, qualified=s["qualified"], kinds=s["kinds"],
        file_of=s["file_of"], lines=s["lines"], end_lines=s["end_lines"],
        visibility=s["visibility"], parent=s["parent"],
        terms=TermSets(vocab, s["terms.off"], s["terms.ids"]),
        name_terms=name_terms, neighbor_terms=NeighborTerms(name_terms, out, inc),
        degree=s["degree"], out=out, inc=inc,
        median_idf=s["median_idf"][0], paths=s["paths"],
        path_is_test=list(map(bool, s["path_is_test"])), file_symbol=s["file_symbol"],
        term_df=df, **lazy_lookups(ids, names, vocab, df),
    )


def load_graph(store: Store, root: Path) -> GraphIndex:
    """The cached graph when it matches the index generation, else the cached one patched up
    to it (`graph_update`: what changed since, from the graph log), else a fresh build; the
    result is cached.

    A stale cache is overwritten; a corrupt one is set aside (one line on stderr says where)
    and rebuilt. A cache that can't be written (read-only checkout) only costs the next query
    a rebuild.
    """
    path = index_dir(root) / CACHE_NAME
    generation = store.generation
    cached = None
    try:
        cached = _load(path.read_bytes(), None)
    except OSError:
        pass
    except _Corrupt as exc:
        _set_aside(path, str(exc))
    if cached is not None and cached.generation == generation:
        return cached
    g = None
    if cached is not None and cached.generation < generation:
        from graphiq_ci.search.graph_update import patch

        with contextlib.suppress(OverflowError):  # a line number past int32, as below
            g = patch(cached, store)
    if g is None:
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
