"""The graph index's cache file, `graph.bin` next to the database.

The cache is a run of flat sections, each 8-byte aligned: numbers as little-endian `array`
bytes, strings as one UTF-8 blob (each string ended by a NUL) plus where each starts, term
sets and adjacency in CSR form (offsets plus flat ids), and the lookups a query needs (names
sorted, the vocabulary's order) stored rather than derived. Loading reads the file (maps a
large one), checks its CRC-32 (once per file: `graph.checked` remembers the file it
verified) and every section's size, and casts memoryviews over the bytes: no copy, no split
and no per-symbol Python, so a warm query pays little for the repository's size (at 200k
symbols the zstd frame, splitting the strings, range-checking every id and sorting the names
were ~0.7 s of each query, the CRC ~0.02 s).
Items are materialised on first access (`graph_views`).

Only struct, zlib's CRC and memoryview parse the file: never pickle or marshal, because the
file lives in the repository's tree. The CRC catches a damaged file; a forged one (its CRC
made to match) is as trusted as the database beside it: an id out of range fails the query
with an IndexError, since every access is bounds-checked, and never reads outside the file.
"""

from __future__ import annotations

import contextlib
import mmap
import operator
import os
import struct
import sys
import zlib
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import accumulate, chain
from pathlib import Path
from typing import Any

from graphiq_ci.search.graph import GraphIndex, build, lazy_lookups
from graphiq_ci.search.graph_files import (
    DELTA_NAME,
    CheckedStamp,
    note,
    set_aside,
    write_whole,
)
from graphiq_ci.search.graph_lookups import NameIndex
from graphiq_ci.search.graph_views import (
    I32,
    U32,
    Adjacency,
    NeighborTerms,
    Strings,
    TermSets,
    VocabLookup,
    plain,
)
from graphiq_ci.store import Store, index_dir

Buffer = bytes | mmap.mmap  # the file's bytes, read or mapped
CACHE_NAME = "graph.bin"
OLD_CACHES = ("graph.bin.zst",)  # earlier formats' files, removed when this one is written
_MAGIC = b"GIQG"
_FORMAT = 5

# header (16 bytes): b"GIQG", u32 format, u32 generation, u32 CRC-32 of the rest; then u32
#   section count, per section u64 byte length and u64 item count, then the sections in
#   `_SECTIONS` order, each padded to a multiple of 8 bytes. Numbers are little-endian; a
#   string section ("s") is followed by its strings' starts (`NAME.at`, items + 1 offsets,
#   the last the blob's length). `df` holds, per vocabulary id, how many symbols' terms hold
#   it (0: a name term only): IDF is derived from it, and `graph_update` patches it.
#   `vocab.order` is the vocabulary ids sorted by term; `names.sorted` the distinct
#   lower-case names, sorted, and the positions holding each are
#   `names.pos[names.run[k]:names.run[k + 1]]`. `paths.words` holds each path's stemmed
#   words (`GraphIndex.path_words`), space-separated.

_STR = "s"
_SECTIONS: tuple[tuple[str, str], ...] = (
    ("ids", "q"), ("file_of", U32), ("lines", I32), ("end_lines", I32), ("parent", I32),
    ("degree", "d"), ("path_is_test", "B"), ("file_symbol", I32),
    ("names", _STR), ("qualified", _STR), ("kinds", _STR), ("visibility", _STR),
    ("paths", _STR), ("paths.words", _STR), ("vocab", _STR), ("vocab.order", U32),
    ("df", U32), ("median_idf", "d"),
    ("names.sorted", _STR), ("names.run", U32), ("names.pos", U32),
    ("terms.off", U32), ("terms.ids", U32), ("name_terms.off", U32), ("name_terms.ids", U32),
    ("out.off", U32), ("out.to", U32), ("out.weight", "d"), ("out.code", "B"),
    ("inc.off", U32), ("inc.to", U32), ("inc.weight", "d"), ("inc.code", "B"),
)
_TABLE = tuple((f"{name}.at", U32) if code == _STR else None for name, code in _SECTIONS)
_LAYOUT = tuple(x for k, entry in enumerate(_SECTIONS) for x in (entry, _TABLE[k]) if x)
_SWAP = sys.byteorder != "little"
_HEADER = 16


class _Corrupt(Exception):
    """The cache file is not one this version wrote, or it was damaged since."""


class _Unencodable(Exception):
    """A string holds a NUL, which the string sections use as their separator."""


def _strings(items: Sequence[str]) -> list[tuple[bytes, int]]:
    if isinstance(items, Strings):  # a loaded or patched column: already in this form
        return [(bytes(items.blob), len(items)), _numbers(U32, items.at)]
    items = plain(items)
    joined = "\0".join(items)
    if joined.count("\0") != max(len(items) - 1, 0):
        raise _Unencodable
    blob = (joined + "\0" if items else "").encode("utf-8", "surrogatepass")
    sizes: Iterable[int] = (map(len, items) if len(blob) == len(joined) + bool(items)  # ASCII
                            else (len(s.encode("utf-8", "surrogatepass")) for s in items))
    # string k starts at the lengths before it plus one NUL each (map and accumulate in C)
    at = array(U32, map(operator.add, accumulate(sizes, initial=0), range(len(items) + 1)))
    return [(blob, len(items)), _numbers(U32, at)]


def _numbers(code: str, values: Iterable[Any]) -> tuple[bytes, int]:
    if isinstance(values, array) and values.typecode == code:
        arr = values
    elif isinstance(values, memoryview) and values.format == code:
        arr = array(code)
        arr.frombytes(values.cast("B"))  # a loaded column: one copy, no per-item Python
    else:
        arr = array(code, values)
    if _SWAP:
        arr = array(code, arr)
        arr.byteswap()
    return arr.tobytes(), len(arr)


def _csr(off: Sequence[int], *flat: Sequence[Any], codes: str) -> list[tuple[bytes, int]]:
    return [_numbers(c, a) for c, a in zip(codes, (off, *flat), strict=True)]


def _dump(g: GraphIndex) -> bytes:
    """The cache file for `g`; raises _Unencodable when a string can't be stored."""
    return b"".join(_parts(g))


def _parts(g: GraphIndex) -> list[bytes]:
    """The cache file for `g` in pieces, to be written one after another (joining them
    would hold the file twice)."""
    t, nt, out, inc = g.terms, g.name_terms, g.out, g.inc
    assert isinstance(t, TermSets) and isinstance(nt, TermSets) and t.vocab is nt.vocab \
        and t.lookup is nt.lookup and len(g.term_df) == len(t.vocab), \
        "build, patch and load give term sets as CSR arrays over one vocabulary"
    assert isinstance(out, Adjacency) and isinstance(inc, Adjacency), \
        "build, patch and load give edges as CSR arrays"
    names = g.name_index()
    sections = [
        _numbers("q", g.ids), _numbers(U32, g.file_of), _numbers(I32, g.lines),
        _numbers(I32, g.end_lines), _numbers(I32, g.parent), _numbers("d", g.degree),
        _numbers("B", g.path_is_test), _numbers(I32, g.file_symbol),
        *_strings(g.names), *_strings(g.qualified), *_strings(g.kinds),
        *_strings(g.visibility), *_strings(g.paths),
        *_strings(_joined(g.path_words()[0])), *_strings(t.vocab),
        _numbers(U32, t.lookup.order), _numbers(U32, g.term_df), _numbers("d", [g.median_idf]),
        *_strings(names.distinct), _numbers(U32, names.at), _numbers(U32, names.order),
        *_csr(t.off, t.ids, codes=U32 * 2), *_csr(nt.off, nt.ids, codes=U32 * 2),
        *_csr(out.off, out.to, out.weights, out.codes, codes=U32 * 2 + "dB"),
        *_csr(inc.off, inc.to, inc.weights, inc.codes, codes=U32 * 2 + "dB"),
    ]
    assert len(sections) == len(_LAYOUT)
    head = struct.pack(f"<I{2 * len(sections)}Q", len(sections),
                       *(x for blob, count in sections for x in (len(blob), count)))
    parts = [head, _pad(len(head))]
    for blob, _ in sections:
        parts += [blob, _pad(len(blob))]
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return [_MAGIC + struct.pack("<III", _FORMAT, g.generation, crc), *parts]


def _joined(word_sets: list[set[str]]) -> list[str]:
    joined = [" ".join(sorted(ws)) for ws in word_sets]
    if any(" " in w or not w for ws in word_sets for w in ws):
        raise _Unencodable  # identifier parts never are: a guard, not a case
    return joined


def _pad(size: int) -> bytes:
    return b"\0" * (-size % 8)


def _load(data: Buffer, generation: int | None, checked: bool = False) -> GraphIndex | None:
    """The cached graph; None when it is stale (another generation than `generation`, when
    one is given). A file of another format raises `_Stale`. `checked`: this very file's CRC
    was verified before (`CheckedStamp`), so its body is not read again for it."""
    if len(data) < _HEADER or data[:4] != _MAGIC:
        raise _Corrupt("not a graph cache")
    fmt, gen, crc = struct.unpack_from("<III", data, 4)
    if fmt != _FORMAT:
        raise _Stale(fmt)
    if generation is not None and gen != generation:
        return None
    body = memoryview(data)[_HEADER:]
    if not checked and zlib.crc32(body) != crc:
        raise _Corrupt("checksum mismatch")
    try:
        return _decode(gen, data)
    except (ValueError, TypeError, IndexError, OverflowError, MemoryError, struct.error,
            UnicodeDecodeError) as exc:
        raise _Corrupt(type(exc).__name__) from None


class _Stale(Exception):
    """The cache was written in another format (an older or newer graphiq-ci)."""


def _sections(data: Buffer) -> dict[str, Any]:
    """Each section as a memoryview cast to its type (a string section: its bytes and item
    count), with every length checked against the file; `NAME@` is where it starts."""
    view = memoryview(data)
    if len(view) < _HEADER + 4:
        raise _Corrupt("no section table")
    count = struct.unpack_from("<I", view, _HEADER)[0]
    if count != len(_LAYOUT):
        raise _Corrupt("unexpected sections")
    sizes = struct.unpack_from(f"<{2 * count}Q", view, _HEADER + 4)
    at = _HEADER + 4 + 16 * count
    at += -at % 8  # the header's 16 bytes keep the body's alignment
    out: dict[str, Any] = {}
    for k, (name, code) in enumerate(_LAYOUT):
        nbytes, items = sizes[2 * k], sizes[2 * k + 1]
        if at + nbytes > len(view):
            raise _Corrupt(f"{name}: past the end")
        chunk = view[at:at + nbytes]
        out[f"{name}@"] = at
        at += nbytes + (-nbytes % 8)
        if code == _STR:
            out[name] = (chunk, items)
            continue
        if nbytes != items * struct.calcsize(code):
            raise _Corrupt(f"{name}: wrong size")
        if _SWAP:
            arr = array(code)
            arr.frombytes(chunk)
            arr.byteswap()
            out[name] = arr
        else:
            out[name] = chunk.cast(code)  # type: ignore[call-overload]  # code: a str
    if at != len(view):
        raise _Corrupt("section sizes don't add up")
    return out


#: a string section smaller than this is split at once: a list reads faster than `Strings`
#: (zod's whole vocabulary splits in well under a millisecond; a query reads it ~20k times)
_SPLIT_BELOW = 1 << 20


def _text(s: dict[str, Any], name: str) -> Sequence[str]:
    blob, items = s[name]
    at = s[f"{name}.at"]
    if len(at) != items + 1 or at[0] != 0 or at[-1] != len(blob) \
            or (items and blob[-1] != 0):
        raise _Corrupt(f"{name}: wrong string table")
    strings = Strings(blob, at)
    if len(blob) >= _SPLIT_BELOW:
        return strings
    listed = strings.tolist()
    if len(listed) != items:
        raise _Corrupt(f"{name}: wrong string count")
    return listed


def _csr_ok(off: Sequence[int], flat: Sequence[int], n: int) -> bool:
    """Offsets for `n` items that start at 0 and end at the flat array's end. Values are not
    range-checked here: every read of them is (see the module's docstring)."""
    return len(off) == n + 1 and off[0] == 0 and off[-1] == len(flat)


def _decode(gen: int, data: Buffer) -> GraphIndex:
    s = _sections(data)
    names, vocab, distinct = _text(s, "names"), _text(s, "vocab"), _text(s, "names.sorted")
    paths = list(_text(s, "paths"))
    path_words = [set(t.split(" ")) if t else set() for t in _text(s, "paths.words")]
    n, n_paths, n_vocab = len(s["ids"]), len(paths), len(vocab)
    strings = [_text(s, k) for k in ("qualified", "kinds", "visibility")]
    if any(len(x) != n for x in (s["file_of"], s["lines"], s["end_lines"], s["parent"],
                                 s["degree"], names, *strings, s["names.pos"])) \
            or len(s["path_is_test"]) != n_paths or len(s["file_symbol"]) != n_paths \
            or len(path_words) != n_paths \
            or len(s["df"]) != n_vocab or len(s["vocab.order"]) != n_vocab \
            or len(s["median_idf"]) != 1 or not _csr_ok(s["names.run"], s["names.pos"],
                                                         len(distinct)) \
            or not all(_csr_ok(s[f"{k}.off"], s[f"{k}.ids"], n) for k in ("terms", "name_terms")) \
            or not all(_csr_ok(s[f"{k}.off"], s[f"{k}.to"], n)
                       and len(s[f"{k}.weight"]) == len(s[f"{k}.to"]) == len(s[f"{k}.code"])
                       for k in ("out", "inc")):
        raise _Corrupt("inconsistent arrays")
    ids, df = s["ids"], s["df"]
    lookup = VocabLookup(vocab, s["vocab.order"])
    flat = None if _SWAP else (data, s["terms.ids@"])
    name_flat = None if _SWAP else (data, s["name_terms.ids@"])
    name_terms = TermSets(vocab, s["name_terms.off"], s["name_terms.ids"], lookup, name_flat)
    out = Adjacency(s["out.off"], s["out.to"], s["out.weight"], s["out.code"])
    inc = Adjacency(s["inc.off"], s["inc.to"], s["inc.weight"], s["inc.code"])
    qualified, kinds, visibility = strings
    g = GraphIndex(
        generation=gen, ids=ids, names=names, qualified=qualified, kinds=kinds,
        file_of=s["file_of"], lines=s["lines"], end_lines=s["end_lines"],
        visibility=visibility, parent=s["parent"],
        terms=TermSets(vocab, s["terms.off"], s["terms.ids"], lookup, flat),
        name_terms=name_terms, neighbor_terms=NeighborTerms(name_terms, out, inc),
        degree=s["degree"], out=out, inc=inc,
        median_idf=s["median_idf"][0], paths=paths,
        path_is_test=list(map(bool, s["path_is_test"])), file_symbol=s["file_symbol"],
        term_df=df, **lazy_lookups(ids, names, lookup, df),
    )
    g._names = NameIndex.stored(distinct, s["names.run"], s["names.pos"])
    g._path_words = (path_words, Counter(chain.from_iterable(path_words)))
    return g


#: a cache file this large is mapped, not read: reading copied ~0.4 s of 295 MB into every
#: query at 1M symbols, which the CRC then reads again
_MAP_FROM = 16 << 20


def _read(path: Path) -> tuple[Buffer, tuple[int, int, int]]:
    """The file's bytes, a large one memory-mapped where a mapped file can be replaced (POSIX),
    and what identifies this very file: its size, modification time and inode.

    A mapping stays valid while it is used because no writer changes the file in place:
    `load_graph` writes a new file and renames it over the old one, and `_set_aside` renames.
    (A file truncated in place under a running process would end it with SIGBUS.)
    """
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        identity = (st.st_size, st.st_mtime_ns, st.st_ino)
        if os.name != "posix" or st.st_size < _MAP_FROM:
            return f.read(), identity
        flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)  # faulted in at once
        return mmap.mmap(f.fileno(), st.st_size, flags=flags, prot=mmap.PROT_READ), identity


def load_graph(store: Store, root: Path) -> GraphIndex:
    """The cached graph when it matches the index generation, else the cached one read
    through a delta up to it (`graph_delta`: what changed since, from the graph log; kept in
    `graph.delta` beside the cache), else a fresh build; the result is cached.

    A delta past `COMPACT_SHARE` of the symbols, or past `COMPACT_BYTES` of the cache file's
    bytes, is folded into a new cache (`graph_update`).
    A stale cache is overwritten; a corrupt cache or delta is set aside (one line on stderr
    says where) and rebuilt; one an older graphiq-ci wrote is rebuilt with one line saying so
    (the graph is derived from the index: nothing is lost). A cache that can't be written
    (read-only checkout) only costs the next query a rebuild.
    """
    path = index_dir(root) / CACHE_NAME
    generation = store.generation
    cached, crc = None, 0
    try:
        data, identity = _read(path)
        crc = struct.unpack_from("<I", data, 12)[0] if len(data) >= _HEADER else 0
        checked = CheckedStamp(path, identity, crc)
        verified = checked.holds()
        cached = _load(data, None, checked=verified)
        if cached is not None and not verified:
            checked.record()
    except OSError:
        old = [p.name for p in map(path.with_name, OLD_CACHES) if p.exists()]
        if old:
            note(f"graph cache {old[0]} is an older graphiq-ci's, rebuilding it as {CACHE_NAME}")
    except _Stale as exc:
        note(f"graph cache {CACHE_NAME} is in another graphiq-ci's format (format {exc}), "
             "rebuilding it")
    except _Corrupt as exc:
        set_aside(path, str(exc))
    if cached is not None and cached.generation == generation:
        return cached
    g = None
    if cached is not None and cached.generation < generation:
        from graphiq_ci.search.graph_delta import through_delta  # only once the index moved on

        with contextlib.suppress(OverflowError):  # a line number past int32, as below
            g, current = through_delta(cached, crc, len(data), store,
                                       path.with_name(DELTA_NAME))
            if current and g is not None:
                return g
    if g is None:
        g = build(store)
    try:
        parts = _parts(g)
    except (OverflowError, _Unencodable):  # e.g. a line number past int32: not stored
        return g
    if write_whole(path, parts, "graph-cache"):
        for name in (*OLD_CACHES, DELTA_NAME):
            path.with_name(name).unlink(missing_ok=True)
    return g
