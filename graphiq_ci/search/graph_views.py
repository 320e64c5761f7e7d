"""Read-only views of the graph's flat arrays, materialised item by item on first access.

A graph loaded from its cache holds CSR arrays (offsets plus flat ids); the query path reads a
few hundred symbols' term sets and edges, never all 200k, so building each item when first
asked keeps loading at a few C-level copies. `NameIndex` answers exact, prefix and regex name
lookups over the sorted names.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import (
    Callable,
    ItemsView,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from itertools import compress
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
    """Per-symbol term sets in CSR form (offsets into one flat array of vocabulary ids).

    The arrays are public for the cache writer and `graph_update`, which copy them by runs."""

    __slots__ = ("_flat", "_index", "ids", "off", "vocab")

    def __init__(self, vocab: list[str], off: array[int], ids: array[int]) -> None:
        super().__init__(len(off) - 1)
        self.vocab, self.off, self.ids = vocab, off, ids
        self._index: dict[str, int] | None = None  # term → vocabulary id, for `having`
        self._flat = b""

    def _make(self, i: int) -> frozenset[str]:
        a, b = self.off[i], self.off[i + 1]
        return frozenset(map(self.vocab.__getitem__, self.ids[a:b])) if b > a else _EMPTY

    def having(self, term: str) -> list[int]:
        """Positions whose set holds `term`, ascending, found in the flat ids (no set is built)."""
        if self._index is None:
            self._index = dict(zip(self.vocab, range(len(self.vocab)), strict=True))
            self._flat = self.ids.tobytes()
        if len(self._index) != len(self.vocab):  # a repeated vocabulary entry: compare strings
            return [i for i in range(len(self)) if term in self[i]]
        k = self._index.get(term)
        if k is None:
            return []
        size, flat, off = self.ids.itemsize, self._flat, self.off
        pattern = array(self.ids.typecode, [k]).tobytes()
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

    __slots__ = ("codes", "off", "to", "weights")

    def __init__(self, off: array[int], to: array[int], weights: array[float],
                 codes: array[int]) -> None:
        super().__init__(len(off) - 1)
        self.off, self.to, self.weights, self.codes = off, to, weights, codes

    def _make(self, i: int) -> list[Edge]:
        a, b = self.off[i], self.off[i + 1]
        return list(zip(self.to[a:b], self.weights[a:b], self.codes[a:b], strict=True))


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
        return neighbor_terms_of(self._name_terms, self._out[i], self._inc[i])


def neighbor_terms_of(name_terms: Sequence[frozenset[str]], out: list[Edge],
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


class Idf(Mapping[str, float]):
    """term → IDF, from per-term symbol counts (`df`, 0: a name term only, no IDF), each
    computed when asked for. The count lookup is one C-level dict build on first use."""

    __slots__ = ("_counts", "_df", "_n", "_vocab", "_weight")

    def __init__(self, vocab: Sequence[str], df: Sequence[int], n: int,
                 weight: Callable[[int, int], float]) -> None:
        self._vocab, self._df, self._n, self._weight = vocab, df, n, weight
        self._counts: dict[str, int] | None = None

    @property
    def counts(self) -> dict[str, int]:
        if self._counts is None:  # the last of a repeated term counts, as before
            self._counts = dict(compress(zip(self._vocab, self._df, strict=True), self._df))
        return self._counts

    def __getitem__(self, term: str) -> float:
        return self._weight(self.counts[term], self._n)

    def __iter__(self) -> Iterator[str]:
        return iter(self.counts)

    def __len__(self) -> int:
        return len(self.counts)

    def __contains__(self, term: object) -> bool:
        return term in self.counts


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

