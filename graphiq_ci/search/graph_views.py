"""Read-only views of the graph's flat arrays, materialised item by item on first access.

A graph loaded from its cache holds CSR arrays (offsets plus flat ids) and string blobs; the
query path reads a few hundred symbols' term sets, edges and names, never all 200k, so
building each item when first asked keeps loading at a few checks. `VocabLookup` finds a
term's vocabulary ids without a dict of the whole vocabulary.
"""

from __future__ import annotations

import mmap
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar, overload

from graphiq_ci.model import DEEP_EDGES, STRUCTURAL_EDGES, EdgeKind

Edge = tuple[int, float, int]  # (neighbour position, weight, edge code)
EDGE_CODES = {kind.value: i for i, kind in enumerate(EdgeKind)}  # an edge code: its kind's index
EDGE_KINDS = list(EdgeKind)
STRUCTURAL_CODES = frozenset(EDGE_CODES[k.value] for k in STRUCTURAL_EDGES)
DEEP_CODES = frozenset(EDGE_CODES[k.value] for k in DEEP_EDGES)
I32 = next(c for c in "ilh" if array(c).itemsize == 4)  # signed: -1 marks "none"
U32 = I32.upper()  # unsigned: a range check is one max()
K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")
NO_TERMS: frozenset[str] = frozenset()


class LazySequence(Sequence[T]):
    """A read-only sequence whose items are built on first access (`_make`), then kept.

    Kept in a dict, not a list of `size` slots: a query touches a few thousand items, and
    a dozen lists of a million Nones were ~0.1 s of each query at 1M symbols."""

    __slots__ = ("_cache", "_size")

    def __init__(self, size: int) -> None:
        self._size = size
        self._cache: dict[int, T] = {}

    def _make(self, i: int) -> T:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._size))]
        item = self._cache.get(i)
        if item is None:
            k = i + self._size if i < 0 else i
            if not 0 <= k < self._size:
                raise IndexError(f"index {i} out of range")  # as a list would
            item = self._cache[k] = self._make(k)
        return item

    def __iter__(self) -> Iterator[T]:
        return (self[i] for i in range(self._size))


class Strings(LazySequence[str]):
    """Strings stored in one UTF-8 blob, each ended by a NUL, decoded on first access: a
    loaded graph reads a few thousand of its 200k names, and splitting every string section
    was ~0.15 s of each query at 200k symbols. `at[k]` is where string k starts."""

    __slots__ = ("at", "blob")

    def __init__(self, blob: bytes | memoryview, at: Sequence[int]) -> None:
        super().__init__(len(at) - 1)
        self.blob, self.at = blob, at

    def _make(self, i: int) -> str:
        return str(self.blob[self.at[i]:self.at[i + 1] - 1], "utf-8", "surrogatepass")

    def text(self) -> str:
        """Every string, each followed by a NUL (one C-level decode)."""
        return str(self.blob, "utf-8", "surrogatepass")

    def tolist(self) -> list[str]:
        return self.text().split("\0")[:-1] if len(self) else []

    def spliced(self, pieces: Iterable[tuple[int, int] | str]) -> Strings | None:
        """These strings rearranged: runs `(a, b)` of them copied as bytes, new strings
        encoded; None when a new string holds a NUL, which this form can't store.

        A patched graph's string columns are made so (`graph_update`) and written as they
        are: splitting and joining again every name, qualified name and kind was a fifth of
        the first query after a one-file change at 200k symbols."""
        blob, old_at = self.blob, self.at
        blobs: list[bytes | memoryview] = []
        at = array(U32, [0])
        size = 0
        for piece in pieces:
            if isinstance(piece, tuple):
                a, b = piece
                lo, hi = old_at[a], old_at[b]
                blobs.append(blob[lo:hi])
                at.extend(map((size - lo).__add__, old_at[a + 1:b + 1]))
                size += hi - lo
            elif "\0" in piece:
                return None
            else:
                data = piece.encode("utf-8", "surrogatepass") + b"\0"
                blobs.append(data)
                size += len(data)
                at.append(size)
        return Strings(b"".join(blobs), at)


def plain(items: Sequence[T]) -> Sequence[T]:
    """A sequence to copy runs from: `Strings` split at once, anything else as it is."""
    return items.tolist() if isinstance(items, Strings) else items  # type: ignore[return-value]


def typecode(items: Sequence[Any]) -> str | None:
    """The array typecode of an `array`, or of a memoryview cast as one (a loaded graph's
    columns), else None."""
    if isinstance(items, array):
        return items.typecode
    return items.format if isinstance(items, memoryview) else None


def extend(out: Any, chunk: Sequence[Any]) -> None:
    """`out.extend(chunk)`; a memoryview of `out`'s own type by one copy of its bytes."""
    if isinstance(chunk, memoryview) and isinstance(out, array) and chunk.format == out.typecode:
        out.frombytes(chunk.cast("B"))
    else:
        out.extend(chunk)


class TermSets(LazySequence[frozenset[str]]):
    """Per-symbol term sets in CSR form (offsets into one flat array of vocabulary ids).

    The arrays are public for the cache writer and `graph_update`, which copy them by runs.
    `lookup` finds a term's vocabulary ids (one is shared by a graph's two term CSRs);
    `flat` is the flat ids' bytes and where they start in it (a loaded graph's: the cache
    file's own bytes, searched in place)."""

    __slots__ = ("_flat", "ids", "lookup", "off", "vocab")

    def __init__(self, vocab: Sequence[str], off: Sequence[int], ids: Sequence[int],
                 lookup: VocabLookup | None = None,
                 flat: tuple[bytes | mmap.mmap, int] | None = None) -> None:
        super().__init__(len(off) - 1)
        self.vocab, self.off, self.ids = vocab, off, ids
        self.lookup = lookup or VocabLookup(vocab)
        self._flat: tuple[bytes | mmap.mmap, int] | None = flat

    def _make(self, i: int) -> frozenset[str]:
        a, b = self.off[i], self.off[i + 1]
        return frozenset(map(self.vocab.__getitem__, self.ids[a:b])) if b > a else NO_TERMS

    def having(self, term: str) -> list[int]:
        """Positions whose set holds `term`, ascending, found in the flat ids (no set is built)."""
        ids: Any = self.ids  # an array or a memoryview: a buffer
        if self._flat is None:
            self._flat = (bytes(ids), 0)
        flat, base = self._flat
        size, off = memoryview(ids).itemsize, self.off
        end = base + len(self.ids) * size
        found: list[int] = []
        for k in self.lookup.ids_of(term):  # more than one only in a hand-made vocabulary
            pattern = k.to_bytes(size, sys.byteorder)
            at = flat.find(pattern, base, end)
            while at >= 0:
                if (at - base) % size:  # straddles two ids
                    at = flat.find(pattern, at + 1, end)
                    continue
                found.append(bisect_right(off, (at - base) // size) - 1)
                at = flat.find(pattern, at + size, end)
        return sorted(set(found))


class VocabLookup:
    """A term's vocabulary ids, by bisection over the vocabulary's ids sorted by term (ties by
    id): no dict of the whole vocabulary is built. A loaded graph's order comes from the cache
    (a dict or a sort of 200k terms was ~0.1 s of every query at 200k symbols); a built one's
    is sorted on first use, and `extended` keeps a patched one's without a new sort."""

    __slots__ = ("_found", "_order", "vocab")

    def __init__(self, vocab: Sequence[str], order: Sequence[int] | None = None) -> None:
        self.vocab, self._order = vocab, order
        self._found: dict[str, list[int]] = {}  # a query asks for its few terms many times

    @property
    def order(self) -> Sequence[int]:
        if self._order is None:
            self._order = array(U32, sorted(range(len(self.vocab)),
                                            key=self.vocab.__getitem__))
        return self._order

    def ids_of(self, term: str) -> list[int]:
        found = self._found.get(term)
        if found is None:
            order, vocab = self.order, self.vocab
            lo = hi = bisect_left(order, term, key=vocab.__getitem__)
            while hi < len(order) and vocab[order[hi]] == term:
                hi += 1
            found = self._found[term] = [order[k] for k in range(lo, hi)]
        return found

    def extended(self, vocab: Sequence[str]) -> VocabLookup:
        """The lookup of `vocab`, which is this one's vocabulary with terms appended."""
        old = len(self.vocab)
        if self._order is None or len(vocab) - old > 1000:
            return VocabLookup(vocab)  # a sort beats that many insertions
        order = array(U32, self._order)
        key = vocab.__getitem__
        for k in range(old, len(vocab)):
            order.insert(bisect_right(order, vocab[k], key=key), k)
        return VocabLookup(vocab, order)


class Adjacency(LazySequence[list[Edge]]):
    """Per-symbol edge lists in CSR form (offsets into flat target, weight and code arrays)."""

    __slots__ = ("codes", "off", "to", "weights")

    def __init__(self, off: array[int], to: array[int], weights: array[float],
                 codes: array[int]) -> None:
        super().__init__(len(off) - 1)
        self.off, self.to, self.weights, self.codes = off, to, weights, codes

    def _make(self, i: int) -> list[Edge]:
        a, b = self.off[i], self.off[i + 1]
        return list(zip(self.to[a:b], self.weights[a:b], self.codes[a:b], strict=True))


class NeighborTerms(LazySequence[frozenset[str]]):
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
        return neighbor_terms_of(self._name_terms, self._out[i], self._inc[i])


def neighbor_terms_of(name_terms: Sequence[frozenset[str]], out: list[Edge],
                    inc: list[Edge]) -> frozenset[str]:
    return frozenset().union(*(name_terms[j] for j, _, c in out + inc if c in STRUCTURAL_CODES))


def edge_lists(rows: Iterable[tuple[int, int, int, str, float]], position: Callable[[int], int]
               ) -> tuple[dict[int, list[Edge]], dict[int, list[Edge]]]:
    """Out and in edge lists, by position, of re-read edge rows `(rowid, src, dst, kind,
    weight)`, as `build` makes them: an edge at a symbol that does not exist (`position` -1)
    is no edge, and a deep edge (a shared token) is listed both ways. What a patch and a
    delta rebuild for the symbols a change touched."""
    out: dict[int, list[Edge]] = {}
    inc: dict[int, list[Edge]] = {}
    for _, src, dst, kind, weight in rows:
        a, b = position(src), position(dst)
        if a < 0 or b < 0:
            continue
        code = EDGE_CODES[kind]
        out.setdefault(a, []).append((b, weight, code))
        inc.setdefault(b, []).append((a, weight, code))
        if code in DEEP_CODES:
            out.setdefault(b, []).append((a, weight, code))
            inc.setdefault(a, []).append((b, weight, code))
    return out, inc
