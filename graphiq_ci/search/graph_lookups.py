"""The graph's lookups by name, id and term, none of them a dict of the whole graph.

A loaded graph's lookups bisect arrays the cache stores (the sorted names, the ids, the
vocabulary's order) so that a query pays for what it looks up, not for the repository's
size; `LazyDict` builds the few whole dicts some callers iterate on first use.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import (
    Callable,
    ItemsView,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from itertools import compress, repeat
from typing import Any, TypeVar, overload

from graphiq_ci.search.graph_views import U32, Strings, VocabLookup, extend, plain

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


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
    computed when asked for from the term's vocabulary ids (`VocabLookup`). Iterating builds
    the whole count dict (tests do; queries don't)."""

    __slots__ = ("_counts", "_df", "_lookup", "_n", "_weight")

    def __init__(self, lookup: VocabLookup, df: Sequence[int], n: int,
                 weight: Callable[[int, int], float]) -> None:
        self._lookup, self._df, self._n, self._weight = lookup, df, n, weight
        self._counts: dict[str, int] | None = None

    @property
    def counts(self) -> dict[str, int]:
        if self._counts is None:  # the last of a repeated term counts, as below
            vocab = self._lookup.vocab
            self._counts = dict(compress(zip(vocab, self._df, strict=True), self._df))
        return self._counts

    def _count(self, term: str) -> int:
        for k in reversed(self._lookup.ids_of(term)):
            if self._df[k]:
                return self._df[k]
        return 0

    def __getitem__(self, term: str) -> float:
        count = self._count(term)
        if not count:
            raise KeyError(term)
        return self._weight(count, self._n)

    def __iter__(self) -> Iterator[str]:
        return iter(self.counts)

    def __len__(self) -> int:
        return len(self.counts)

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self._count(term) > 0


class IdPositions(Mapping[int, int]):
    """Symbol id → position, by `_find` (-1: no such symbol), over the graph's ids in
    order. `get` skips Mapping's KeyError round trip: the graph's callers look ids up tens
    of thousands of times a query."""

    __slots__ = ("_ids",)

    def __init__(self, ids: Sequence[int]) -> None:
        self._ids = ids

    def _find(self, sid: object) -> int:
        raise NotImplementedError

    def __getitem__(self, sid: int) -> int:
        k = self._find(sid)
        if k < 0:
            raise KeyError(sid)
        return k

    def __contains__(self, sid: object) -> bool:
        return self._find(sid) >= 0

    def get(self, sid: object, default: Any = None) -> Any:
        k = self._find(sid)
        return k if k >= 0 else default

    def __iter__(self) -> Iterator[int]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class PositionOfId(IdPositions):
    """By bisection: positions follow ids (`build` orders by id and `graph_update` keeps the
    order), so no dict of every id is built."""

    __slots__ = ()

    def _find(self, sid: object) -> int:
        if isinstance(sid, int):
            k = bisect_left(self._ids, sid)
            if k < len(self._ids) and self._ids[k] == sid:
                return k
        return -1


class NameIndex:
    """Lower-case names, sorted: exact and prefix lookups by bisection, regex scans in C.

    `distinct` holds each lower-case name once, sorted; the positions holding `distinct[k]`
    are `order[at[k]:at[k + 1]]`, ascending. A loaded graph's index comes from the cache
    (`stored`): sorting 200k names was ~0.13 s of each query at 200k symbols. `blob` is
    `distinct` with a NUL before and after each name, so one compiled regex can test every
    name without a Python loop; it is None when a name holds a NUL itself (then callers scan).
    """

    __slots__ = ("_blob", "_listed", "at", "distinct", "order")

    def __init__(self, names: Sequence[str]) -> None:
        low = list(map(str.lower, names))
        self.order: Sequence[int] = sorted(range(len(low)), key=low.__getitem__)
        keys = list(map(low.__getitem__, self.order))
        self.distinct: Sequence[str] = list(dict.fromkeys(keys))
        # each distinct name's first place in `keys`, by bisection in C
        self.at: Sequence[int] = [*map(bisect_left, repeat(keys), self.distinct), len(keys)]
        self._blob: str | None = None
        self._listed: list[str] | None = None

    @classmethod
    def stored(cls, distinct: Sequence[str], at: Sequence[int], order: Sequence[int]) -> NameIndex:
        """The index as the cache holds it (no name holds a NUL there: the writer refuses)."""
        index = cls.__new__(cls)
        index.distinct, index.at, index.order = distinct, at, order
        index._blob, index._listed = None, None
        return index

    def patched(self, old_names: Sequence[str], cut: set[int], remap: Sequence[int],
                fresh: dict[str, list[int]]) -> NameIndex:
        """This index after a patch (`graph_update`), equal to one built from the new names.

        `cut`: the old positions gone or re-read; `remap`: old position → new one (order
        preserving for those kept, identity when nothing moved: then pass an empty list);
        `fresh`: lower-case name → the new positions of the rows read again. Only the names
        of cut or fresh rows are regrouped; the groups between them are copied by runs
        (renumbered through `remap` in C). Sorting every name again was about a tenth of the
        first query after a one-file change at 200k symbols."""
        distinct = plain(self.distinct)
        order, at = self.order, self.at
        moved = remap.__getitem__ if remap else None
        changed = sorted({old_names[o].lower() for o in cut} | fresh.keys())
        new_distinct: list[str] = []
        new_at = array(U32)
        new_order = array(U32)

        def copy(a: int, b: int) -> None:  # the groups a..b-1, unchanged but for renumbering
            if a >= b:
                return
            new_distinct.extend(distinct[a:b])
            new_at.extend(map((len(new_order) - at[a]).__add__, at[a:b]))
            chunk = order[at[a]:at[b]]
            if moved:
                new_order.extend(map(moved, chunk))
            else:
                extend(new_order, chunk)

        done = 0
        for name in changed:
            k = bisect_left(distinct, name, done)
            held = k < len(distinct) and distinct[k] == name
            copy(done, k)
            kept = [] if not held else [remap[o] if remap else o
                                        for o in order[at[k]:at[k + 1]] if o not in cut]
            group = sorted(kept + fresh.get(name, []))
            if group:
                new_distinct.append(name)
                new_at.append(len(new_order))
                new_order.extend(group)
            done = k + 1 if held else k
        copy(done, len(distinct))
        new_at.append(len(new_order))
        return NameIndex.stored(new_distinct, new_at, new_order)

    def positions(self, lower: str) -> list[int]:
        """Positions whose lower-case name is `lower`, ascending (what `by_name.get` holds)."""
        k = bisect_left(self.distinct, lower)
        if k == len(self.distinct) or self.distinct[k] != lower:
            return []
        return list(self.order[self.at[k]:self.at[k + 1]])

    def listed(self) -> list[str]:
        """`distinct` as a list (for rapidfuzz)."""
        if self._listed is None:
            self._listed = list(plain(self.distinct))
        return self._listed

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
            if isinstance(self.distinct, Strings):
                self._blob = "\0" + self.distinct.text()
                return self._blob
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

