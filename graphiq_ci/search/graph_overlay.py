"""A graph read through a small delta over the cached base graph, nothing copied (issue #14).

Copying the cached arrays to patch a few rows into them, and writing the whole cache back,
were 2.3 s of the first query after a one-file change at 1M symbols. Here the base graph
stays as loaded (read in place from its file) and a `Delta` (graph_delta) says what differs:
which base positions are gone or re-read (`cut`), the rows read again (`fresh`), the edge
lists of their neighbours (`replaced`), the new words and term counts, the paths. Every
column is a view that maps a position to a base position or a fresh row on access, so a
query pays per item it reads, not per symbol in the repository.

Positions follow symbol ids, as in a fresh build: the new order is runs of kept base
positions with fresh rows between them (`Plan`), so the views read exactly what `build`
would have made, field by field.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from graphiq_ci.paths import is_test_path
from graphiq_ci.search.graph import GraphIndex, lazy_lookups, path_words_of
from graphiq_ci.search.graph_lookups import IdPositions
from graphiq_ci.search.graph_views import (
    NO_TERMS,
    Adjacency,
    Edge,
    LazySequence,
    NeighborTerms,
    TermSets,
    VocabLookup,
)
from graphiq_ci.search.overlay_columns import Appended, Column, Plan, Run


class OverlayPositions(IdPositions):
    """Symbol id → position in the new order: a fresh row's from a dict, any other by the
    base's own bisection (in C, over its array) and the plan. Bisecting the overlaid ids
    column instead read it item by item through the plan: 13 reads per lookup, a fifth of a
    warm `context` on zod through a delta."""

    __slots__ = ("_base", "_fresh", "_plan")

    def __init__(self, plan: Plan, base: Mapping[int, int], fresh: dict[int, int],
                 ids: Sequence[int]) -> None:
        super().__init__(ids)
        self._plan, self._base, self._fresh = plan, base, fresh

    def _find(self, sid: object) -> int:
        if not isinstance(sid, int):
            return -1
        p = self._fresh.get(sid)
        if p is not None:
            return p
        o = self._base.get(sid, -1)
        return self._plan.kept(o) if o >= 0 else -1  # -1: the symbol is gone or re-read


class OverlayLookup(VocabLookup):
    """The base vocabulary's lookup, and the words a delta appended (never a base word)."""

    __slots__ = ("_added", "_base")

    def __init__(self, base: VocabLookup, vocab: Sequence[str], added: dict[str, int]) -> None:
        super().__init__(vocab)
        self._base, self._added = base, added

    def ids_of(self, term: str) -> list[int]:
        k = self._added.get(term)
        return self._base.ids_of(term) if k is None else [k]


class OverlayTermSets(LazySequence[frozenset[str]]):
    """Term sets: a base set (its ids are the same words in the extended vocabulary) or a
    fresh row's. `having` asks the base's flat ids and renumbers, then tests the fresh sets."""

    __slots__ = ("_base_sets", "_fresh_ids", "_plan", "lookup", "vocab")

    def __init__(self, plan: Plan, base: TermSets, vocab: Sequence[str],
                 lookup: VocabLookup, fresh_ids: Sequence[Sequence[int]]) -> None:
        super().__init__(plan.size)
        self.vocab, self.lookup = vocab, lookup
        self._plan, self._base_sets, self._fresh_ids = plan, base, fresh_ids

    def _make(self, i: int) -> frozenset[str]:
        o, k = self._plan.locate(i)
        if o >= 0:
            return self._base_sets[o]
        ids = self._fresh_ids[k]
        return frozenset(map(self.vocab.__getitem__, ids)) if ids else NO_TERMS

    def having(self, term: str) -> list[int]:
        """Positions whose set holds `term`, ascending (`TermSets.having`)."""
        plan = self._plan
        found = [p for p in map(plan.kept, self._base_sets.having(term)) if p >= 0]
        wanted = set(self.lookup.ids_of(term))
        for k, piece in enumerate(plan.pieces):
            if not isinstance(piece, tuple) and wanted.intersection(self._fresh_ids[piece]):
                found.append(plan.starts[k])
        return sorted(found)


class OverlayAdjacency(LazySequence[list[Edge]]):
    """Edge lists: a re-read symbol's or a changed neighbour's from the delta, any other base
    list with its neighbours renumbered (it never points at a cut symbol: the symbol at the
    other end would be a changed neighbour)."""

    __slots__ = ("_base", "_fresh", "_plan", "_replaced", "_same")

    def __init__(self, plan: Plan, base: Adjacency, fresh: Sequence[list[Edge]],
                 replaced: dict[int, list[Edge]]) -> None:
        super().__init__(plan.size)
        self._plan, self._base, self._fresh, self._replaced = plan, base, fresh, replaced
        self._same = not plan.shifted

    def relinked(self, o: int) -> bool:
        """Whether base position `o`'s list is the delta's (a changed neighbour's)."""
        return o in self._replaced

    def length(self, p: int) -> int:
        """len(self[p]), without making the list."""
        o, k = self._plan.locate(p)
        if o < 0:
            return len(self._fresh[k])
        got = self._replaced.get(o)
        return len(got) if got is not None else self._base.off[o + 1] - self._base.off[o]

    def _make(self, i: int) -> list[Edge]:
        o, k = self._plan.locate(i)
        if o < 0:
            return list(self._fresh[k])
        got = self._replaced.get(o)
        if got is not None:
            return list(got)
        edges = self._base[o]
        if self._same:
            return list(edges)
        moved = self._plan.new_of_old
        return [(moved(j), w, c) for j, w, c in edges]


class OverlayDegree(LazySequence[float]):
    """Normalised degree (`graph.degrees`): log1p(edge count) / log1p(the largest count).
    A base symbol keeps its stored value while the largest count is the base's."""

    __slots__ = ("_base", "_inc", "_most", "_out", "_plan", "_same")

    def __init__(self, plan: Plan, base: Sequence[float], out: OverlayAdjacency,
                 inc: OverlayAdjacency, largest: int, base_largest: int) -> None:
        super().__init__(plan.size)
        self._plan, self._base, self._out, self._inc = plan, base, out, inc
        self._most = math.log1p(largest)
        self._same = largest == base_largest

    def _make(self, i: int) -> float:
        if self._same:
            o, _ = self._plan.locate(i)
            if o >= 0 and not self._out.relinked(o):
                return self._base[o]
        return math.log1p(self._out.length(i) + self._inc.length(i)) / self._most


class Delta(NamedTuple):
    """What a graph at `generation` differs in from its base (at `base_generation`, the cache
    file whose CRC is `base_crc`). Positions in edge lists, `moved`, `parents` and
    `file_symbol` are new positions; `cut`, `moved`'s keys and `replaced`'s keys are base
    positions. Fresh row k is `rows[k]` (id, path position, name, qualified name, kind, line,
    end line, visibility, parent), `terms[k]`, `name_terms[k]`, `out[k]`, `inc[k]`."""

    base_generation: int
    base_crc: int
    generation: int
    touched: list[int]  # symbol ids touched since the base: the next delta starts from them
    pieces: list[Run | int]
    moved: dict[int, int]
    cut: list[int]
    rows: list[tuple[int, int, str, str, str, int, int, str, int]]
    terms: list[list[int]]
    name_terms: list[list[int]]
    out: list[list[Edge]]
    inc: list[list[Edge]]
    replaced_out: dict[int, list[Edge]]
    replaced_inc: dict[int, list[Edge]]
    added: list[str]  # words new to the vocabulary, in id order after the base's
    df_changed: dict[int, int]  # base vocabulary id → its new count
    df_added: list[int]
    median_idf: float
    largest: int  # the largest edge count (`degrees`' divisor), and the base's
    base_largest: int
    paths: list[str]
    file_symbol: list[int]


def overlaid(base: GraphIndex, delta: Delta) -> GraphIndex:
    """`base` read through `delta`: equal, field by field, to a fresh build at
    `delta.generation`. Nothing of the base is copied."""
    plan = Plan(delta.pieces, delta.moved)
    rows = delta.rows
    same_paths = list(base.paths) == delta.paths
    new_path = {p: k for k, p in enumerate(delta.paths)}
    path_remap = None if same_paths else [new_path.get(p, 0) for p in base.paths]
    shifted = plan.shifted

    def column(k: int, old: Sequence[Any], convert: Callable[[Any], Any] | None = None,
               ) -> Column[Any]:
        return Column(plan, old, [r[k] for r in rows], convert)

    def parent_of(o: int) -> int:
        return plan.new_of_old(o) if o >= 0 else -1

    terms, name_terms = base.terms, base.name_terms
    assert isinstance(terms, TermSets) and isinstance(name_terms, TermSets)
    assert isinstance(base.out, Adjacency) and isinstance(base.inc, Adjacency)
    size = len(terms.vocab)
    vocab = Appended(terms.vocab, delta.added)
    lookup = OverlayLookup(terms.lookup, vocab, {w: size + k for k, w in enumerate(delta.added)})
    df = Appended(base.term_df, delta.df_added, delta.df_changed)
    t = OverlayTermSets(plan, terms, vocab, lookup, delta.terms)
    nt = OverlayTermSets(plan, name_terms, vocab, lookup, delta.name_terms)
    out = OverlayAdjacency(plan, base.out, delta.out, delta.replaced_out)
    inc = OverlayAdjacency(plan, base.inc, delta.inc, delta.replaced_inc)
    ids = column(0, base.ids)
    names = column(2, base.names)
    was_test = dict(zip(base.paths, base.path_is_test, strict=True))
    g = GraphIndex(
        generation=delta.generation, ids=ids, names=names, qualified=column(3, base.qualified),
        kinds=column(4, base.kinds),
        file_of=column(1, base.file_of, None if path_remap is None else path_remap.__getitem__),
        lines=column(5, base.lines), end_lines=column(6, base.end_lines),
        visibility=column(7, base.visibility),
        parent=column(8, base.parent, parent_of if shifted else None),
        terms=t, name_terms=nt, neighbor_terms=NeighborTerms(nt, out, inc),
        degree=OverlayDegree(plan, base.degree, out, inc, delta.largest, delta.base_largest),
        out=out, inc=inc, median_idf=delta.median_idf, paths=delta.paths,
        path_is_test=(base.path_is_test if same_paths else
                      [was_test[p] if p in was_test else is_test_path(p) for p in delta.paths]),
        file_symbol=delta.file_symbol, term_df=df,
        **{**lazy_lookups(ids, names, lookup, df), "pos_of_id": OverlayPositions(
            plan, base.pos_of_id, {rows[piece][0]: plan.starts[k]
                                   for k, piece in enumerate(plan.pieces)
                                   if not isinstance(piece, tuple)}, ids)},
    )
    g._path_words = base.path_words() if same_paths else path_words_of(
        delta.paths, dict(zip(base.paths, base.path_words()[0], strict=True)))
    fresh: dict[str, list[int]] = {}
    for k, piece in enumerate(plan.pieces):
        if not isinstance(piece, tuple):
            fresh.setdefault(rows[piece][2].lower(), []).append(plan.starts[k])
    base_index, cut = base.name_index(), set(delta.cut)
    g._names_make = lambda: base_index.patched(  # made when first asked for
        base.names, cut, plan.remap(len(base.ids)) if shifted else [], fresh)
    return g
