"""Patching a cached graph up to the index's generation instead of rebuilding it (issue #14).

After an index run that touched k files, a full `build` rereads every symbol and edge (7 s,
360 MiB at 202k symbols; 10 s, 1.3 GiB before it built arrays directly). The graph log
(store/graph_log.py) names every symbol whose row or edges changed since the cached
generation; `patch` rereads only those rows and the edges at them, and copies everything
else from the cached arrays by runs. Positions stay in symbol-id
order and edge lists in `edge_order`, as `build` makes them, so the result equals a fresh
build field by field; IDF is recomputed from the stored per-term counts (`term_df`).

A query after a small change no longer comes here: it reads the cache through a delta
(`graph_delta`, `graph_overlay`), which copies nothing. `patch` is how a delta that grew
past its share is folded into a new cache file.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from graphiq_ci.paths import is_test_path
from graphiq_ci.phases import phase
from graphiq_ci.search.graph import (
    Edge,
    GraphIndex,
    degrees,
    edge_order,
    idf_weight,
    lazy_lookups,
    name_terms_of,
    path_words_of,
)
from graphiq_ci.search.graph_views import (
    U32,
    Adjacency,
    NeighborTerms,
    Strings,
    TermSets,
    edge_lists,
    extend,
    plain,
    typecode,
)
from graphiq_ci.store import Store
from graphiq_ci.store.graph_log import touched_since

#: past this share of the symbols touched, rereading them costs about what a build does
MAX_TOUCHED_SHARE = 0.25

Run = tuple[int, int]  # old positions a..b-1, copied in order
Piece = Run | list[Any]  # a run, or one new item (for a CSR: one list per flat array)
_Row = tuple[int, int, str, str, str, int, int, str, int | None, str]


def patch(base: GraphIndex, store: Store, touched: set[int] | None = None,
          ) -> GraphIndex | None:
    """`base` (a graph loaded from the cache) brought up to the store's generation, or None
    when the log can't say what changed since or so much did that `build` is the better way.
    `touched`: the symbols changed since `base`, when the caller read them (in the
    transaction it runs this in); else they come from the log.

    Everything is read in one read transaction, so the log, the rows and the generation the
    result is stamped with are one snapshot.
    """
    terms, name_terms, out, inc = base.terms, base.name_terms, base.out, base.inc
    if not (isinstance(terms, TermSets) and isinstance(name_terms, TermSets)
            and terms.vocab is name_terms.vocab and len(base.term_df) == len(terms.vocab)
            and isinstance(out, Adjacency) and isinstance(inc, Adjacency)):
        return None
    conn = store.conn
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        generation = store.generation
        if touched is None:
            touched = touched_since(store, base.generation)
        if touched is None or len(touched) > MAX_TOUCHED_SHARE * max(len(base.ids), 1000):
            return None
        phase(f"graph-patch {len(touched)} symbols")
        return _Patch(base, store, touched, generation).result()
    finally:
        if own:
            conn.execute("COMMIT")


class _Patch:
    """One patch: the new position order as runs of old positions and fresh symbols."""

    def __init__(self, g: GraphIndex, store: Store, touched: set[int], generation: int) -> None:
        self.g, self.generation = g, generation
        conn = store.conn
        self.old_ids: Sequence[int] = g.ids
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS graph_touched (id INTEGER PRIMARY KEY)")
        conn.execute("DELETE FROM graph_touched")
        conn.executemany("INSERT INTO graph_touched VALUES (?)", [(s,) for s in touched])
        self.rows: dict[int, _Row] = {r[0]: r for r in conn.execute(
            "SELECT id, file_id, name, qualified, kind, line, end_line, visibility, parent_id, "
            "terms FROM symbols WHERE id IN graph_touched")}
        self.edges: list[tuple[int, int, int, str, float]] = conn.execute(
            "SELECT rowid, src_id, dst_id, kind, weight FROM edges WHERE src_id IN graph_touched "
            "UNION SELECT rowid, src_id, dst_id, kind, weight FROM edges "
            "WHERE dst_id IN graph_touched").fetchall()
        self.paths: list[str] = []
        self.file_pos: dict[int, int] = {}
        for fid, path in conn.execute(
                "SELECT id, path FROM files WHERE skip_reason = '' ORDER BY id"):
            self.file_pos[fid] = len(self.paths)
            self.paths.append(path)
        self.cut = {p for p in map(self.old_position, touched) if p >= 0}
        self.fresh = sorted(self.rows)
        self._order()

    def old_position(self, sid: int) -> int:
        k = bisect_left(self.old_ids, sid)
        return k if k < len(self.old_ids) and self.old_ids[k] == sid else -1

    def _order(self) -> None:
        """The plan (runs of kept old positions, fresh ids between them), new ids, and
        `remap`: old position → new one (-1: deleted; a re-read symbol: its new place)."""
        old_ids, n = self.old_ids, len(self.old_ids)
        events = sorted([(p, 1, 0) for p in self.cut]
                        + [(bisect_left(old_ids, f), 0, f) for f in self.fresh])
        self.plan: list[Run | int] = []
        start = 0
        for q, is_cut, f in events:
            if q > start:
                self.plan.append((start, q))
                start = q
            if is_cut:
                start = q + 1
            else:
                self.plan.append(f)
        if start < n:
            self.plan.append((start, n))
        self.new_ids = array("q")
        self.remap = [-1] * n
        self.fresh_pos: dict[int, int] = {}
        self.shifted = False
        for piece in self.plan:
            at = len(self.new_ids)
            if isinstance(piece, tuple):
                a, b = piece
                self.new_ids.extend(old_ids[a:b])
                self.remap[a:b] = range(at, at + b - a)
                self.shifted |= at != a
            else:
                self.fresh_pos[piece] = at
                self.new_ids.append(piece)
        for f, at in self.fresh_pos.items():
            o = self.old_position(f)
            if o >= 0:
                self.remap[o] = at
                self.shifted |= at != o

    def position(self, sid: int) -> int:
        """The new position of symbol `sid`, -1 when it is gone."""
        at = self.fresh_pos.get(sid)
        if at is not None:
            return at
        o = self.old_position(sid)
        return self.remap[o] if o >= 0 else -1

    def gather(self, old: Sequence[Any], fresh: Callable[[_Row], Any],
               convert: Callable[[Any], Any] | None = None) -> Sequence[Any]:
        """One per-symbol field in the new order: runs copied from `old`, fresh rows read."""
        if isinstance(old, Strings) and convert is None:
            spliced = old.spliced(piece if isinstance(piece, tuple) else fresh(self.rows[piece])
                                  for piece in self.plan)
            if spliced is not None:
                return spliced
        code = typecode(old)
        out: Any = [] if code is None else array(code)
        old = plain(old)
        for piece in self.plan:
            if isinstance(piece, tuple):
                chunk = old[piece[0]:piece[1]]
                if convert is None:
                    extend(out, chunk)
                else:
                    out.extend(map(convert, chunk))
            else:
                out.append(fresh(self.rows[piece]))
        return out  # type: ignore[no-any-return]

    def result(self) -> GraphIndex:
        g = self.g
        path_of_old = g.paths
        new_path = {p: k for k, p in enumerate(self.paths)}
        same_paths = list(path_of_old) == self.paths
        path_remap = None if same_paths else [new_path.get(p, 0) for p in path_of_old]
        pmap = [*self.remap, -1]  # a parent of -1 stays -1
        n = len(self.new_ids)
        file_of = self.gather(g.file_of, lambda r: self.file_pos.get(r[1], 0),
                              None if path_remap is None else path_remap.__getitem__)
        parent = self.gather(g.parent, lambda r: self.position(r[8]) if r[8] else -1,
                             pmap.__getitem__ if self.shifted else None)
        kinds = self.gather(g.kinds, lambda r: r[4])
        terms, name_terms, df = self._terms()
        out, inc = self._adjacency()
        names = self.gather(g.names, lambda r: r[2])
        ids = self.new_ids
        held = sorted(filter(None, df), reverse=True)  # IDF falls as the count rises
        was_test = dict(zip(path_of_old, g.path_is_test, strict=True))
        file_symbol = array(typecode(g.file_symbol) or "l",
                            [-1] * len(self.paths))
        for k, p in enumerate(path_of_old):
            if p in new_path and g.file_symbol[k] >= 0:
                file_symbol[new_path[p]] = self.remap[g.file_symbol[k]]
        for f in self.fresh:
            if self.rows[f][4] == "file":
                at = file_of[self.fresh_pos[f]]
                file_symbol[at] = max(file_symbol[at], self.fresh_pos[f])

        patched = GraphIndex(
            generation=self.generation, ids=ids, names=names,
            qualified=self.gather(g.qualified, lambda r: r[3]), kinds=kinds, file_of=file_of,
            lines=self.gather(g.lines, lambda r: r[5]),
            end_lines=self.gather(g.end_lines, lambda r: r[6]),
            visibility=self.gather(g.visibility, lambda r: r[7]), parent=parent,
            terms=terms, name_terms=name_terms,
            neighbor_terms=NeighborTerms(name_terms, out, inc),
            degree=degrees(out, inc), out=out, inc=inc,
            median_idf=idf_weight(held[len(held) // 2], n) if held else 0.0,
            paths=self.paths,
            path_is_test=[was_test[p] if p in was_test else is_test_path(p) for p in self.paths],
            file_symbol=file_symbol, term_df=df, **lazy_lookups(ids, names, terms.lookup, df),
        )
        patched._path_words = path_words_of(  # the paths kept keep their words
            self.paths, dict(zip(path_of_old, g.path_words()[0], strict=True)))
        fresh: dict[str, list[int]] = {}
        for f, at in self.fresh_pos.items():
            fresh.setdefault(self.rows[f][2].lower(), []).append(at)
        patched._names = g.name_index().patched(g.names, self.cut,
                                                self.remap if self.shifted else [], fresh)
        return patched

    def _terms(self) -> tuple[TermSets, TermSets, array[int]]:
        """Both term CSRs over one vocabulary, new terms appended; per-term counts patched."""
        old: TermSets = self.g.terms  # type: ignore[assignment]
        old_names: TermSets = self.g.name_terms  # type: ignore[assignment]
        # a word's id by bisection of the stored order (`VocabLookup`), not a dict of the
        # whole vocabulary: building that was a third of a one-file patch at 200k symbols
        known, added = old.lookup, dict[str, int]()  # new words → their ids, in order
        size = len(old.vocab)
        df = array(typecode(old.ids) or U32)
        extend(df, self.g.term_df)
        for o in self.cut:
            for k in old.ids[old.off[o]:old.off[o + 1]]:
                df[k] -= 1

        def ids_of(words: Iterable[str], count: bool) -> list[int]:
            found = []
            for w in words:
                ids = known.ids_of(w)
                k = ids[-1] if ids else added.setdefault(w, size + len(added))
                if k == len(df):
                    df.append(0)
                if count:
                    df[k] += 1
                found.append(k)
            return found

        term_plan = self._pieces(lambda r: [ids_of(frozenset(r[9].split()), True)])
        name_plan = self._pieces(lambda r: [ids_of(name_terms_of(r[2]), False)])
        t_off, (t_ids,) = _splice(old.off, [old.ids], term_plan, None)
        n_off, (n_ids,) = _splice(old_names.off, [old_names.ids], name_plan, None)
        vocab: Sequence[str] | None = None
        if isinstance(old.vocab, Strings):  # the stored words as bytes, new ones appended
            vocab = old.vocab.spliced([(0, size), *added])
        if vocab is None:
            vocab = [*plain(old.vocab), *added]
        lookup = old.lookup.extended(vocab)
        return (TermSets(vocab, t_off, t_ids, lookup), TermSets(vocab, n_off, n_ids, lookup),
                df)

    def _pieces(self, fresh: Callable[[_Row], list[Any]],
                replaced: dict[int, list[Any]] | None = None) -> list[Piece]:
        """The plan for a CSR: fresh rows become items, and so do the old positions in
        `replaced` (their runs are split around them)."""
        pieces: list[Piece] = []
        cuts = sorted(replaced) if replaced else []
        for piece in self.plan:
            if not isinstance(piece, tuple):
                pieces.append(fresh(self.rows[piece]))
                continue
            a, b = piece
            for o in cuts[bisect_left(cuts, a):bisect_left(cuts, b)]:
                if o > a:
                    pieces.append((a, o))
                pieces.append(replaced[o])  # type: ignore[index]
                a = o + 1
            if b > a:
                pieces.append((a, b))
        return pieces

    def _adjacency(self) -> tuple[Adjacency, Adjacency]:
        """Edge lists: those of fresh symbols and of their neighbours (old and new) rebuilt
        from the re-read edges; every other list copied, its targets renumbered."""
        g = self.g
        old_out: Adjacency = g.out  # type: ignore[assignment]
        old_inc: Adjacency = g.inc  # type: ignore[assignment]
        # new position → edges to or from fresh symbols
        new_out, new_inc = edge_lists(self.edges, self.position)
        neighbours = {j for o in self.cut for adj in (old_out, old_inc) for j, _, _ in adj[o]}
        neighbours |= {self.old_position(self.new_ids[p]) for p in (*new_out, *new_inc)}
        neighbours -= self.cut
        neighbours.discard(-1)
        result = []
        for old, new in ((old_out, new_out), (old_inc, new_inc)):
            replaced = {}
            for o in neighbours:
                lst = [(self.remap[j], w, c) for j, w, c in old[o] if j not in self.cut]
                lst += new.get(self.remap[o], [])
                replaced[o] = _columns(sorted(lst, key=edge_order))
            plan = self._pieces(lambda r, new=new: _columns(  # type: ignore[misc]
                sorted(new.get(self.fresh_pos[r[0]], []), key=edge_order)), replaced)
            off, (to, weights, codes) = _splice(old.off, [old.to, old.weights, old.codes], plan,
                                                self.remap if self.shifted else None)
            result.append(Adjacency(off, to, weights, codes))
        return result[0], result[1]


def _columns(edges: list[Edge]) -> list[list[Any]]:
    return [[e[0] for e in edges], [e[1] for e in edges], [e[2] for e in edges]]


def _splice(off: Sequence[int], flats: list[Sequence[Any]], plan: list[Piece],
            remap: list[int] | None) -> tuple[array[int], list[array[Any]]]:
    """A CSR in the plan's order: runs copied from (`off`, `flats`) with their offsets moved
    and, given `remap`, their first flat array's positions renumbered; items appended."""
    codes = [typecode(f) for f in (off, *flats)]
    assert all(codes), "CSR columns are arrays, or memoryviews of a loaded cache"
    new_off = array(codes[0] or U32, [0])
    outs = [array(c or U32) for c in codes[1:]]
    for piece in plan:
        if isinstance(piece, tuple):
            a, b = piece
            lo, hi = off[a], off[b]
            new_off.extend(map((len(outs[0]) - lo).__add__, off[a + 1:b + 1]))
            for k, (o, f) in enumerate(zip(outs, flats, strict=True)):
                if k == 0 and remap:
                    o.extend(map(remap.__getitem__, f[lo:hi]))
                else:
                    extend(o, f[lo:hi])
        else:
            for o, col in zip(outs, piece, strict=True):
                o.extend(col)
            new_off.append(len(outs[0]))
    return new_off, outs
