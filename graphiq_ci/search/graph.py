"""The in-memory graph index the query path runs on (GraphIQ's CruncherIndex).

Adjacency lists with weights, per-symbol term sets, global IDF, a name index, neighbour terms
and normalised degree: everything the walk and the scorer read, so a query touches SQLite only
for FTS. `build` derives it from the index in one read; `graph_cache.load_graph` keeps it next
to the database and, when the index generation changes, reads it through a delta of what
changed (`graph_delta`) or patches or rebuilds it.
"""

from __future__ import annotations

import gc
import math
import operator
import sqlite3
import sys
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import accumulate, chain, compress, islice, repeat
from typing import Any

from graphiq_ci.model import EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.search.graph_lookups import Idf, LazyDict, NameIndex, PositionOfId
from graphiq_ci.search.graph_views import (
    DEEP_CODES,
    EDGE_CODES,
    EDGE_KINDS,
    I32,
    STRUCTURAL_CODES,
    U32,
    Adjacency,
    Edge,
    NeighborTerms,
    TermSets,
    VocabLookup,
)
from graphiq_ci.store import Store
from graphiq_ci.text import split_identifier, stem, tokens

DECLARES_CODE = EDGE_CODES[EdgeKind.DECLARES.value]

__all__ = ["DEEP_CODES", "EDGE_KINDS", "STRUCTURAL_CODES", "Edge", "GraphIndex", "build",
           "edge_order", "idf_weight", "lazy_lookups", "name_terms_of", "path_words_of"]


class GraphIndex:
    """Parallel arrays indexed by a symbol's position `i` (not its database id).

    A built, loaded or patched graph holds arrays and the lazy sequences and mappings of
    `graph_views` (tests may build one of plain lists and dicts); all read the same through
    these types. Every field is a keyword argument, empty unless given.
    """

    def __init__(self, *, generation: int = 0, ids: Sequence[int] | None = None,
                 names: Sequence[str] | None = None, qualified: Sequence[str] | None = None,
                 kinds: Sequence[str] | None = None, file_of: Sequence[int] | None = None,
                 lines: Sequence[int] | None = None, end_lines: Sequence[int] | None = None,
                 visibility: Sequence[str] | None = None, parent: Sequence[int] | None = None,
                 terms: Sequence[frozenset[str]] | None = None,
                 name_terms: Sequence[frozenset[str]] | None = None,
                 neighbor_terms: Sequence[frozenset[str]] | None = None,
                 degree: Sequence[float] | None = None, out: Sequence[list[Edge]] | None = None,
                 inc: Sequence[list[Edge]] | None = None, idf: Mapping[str, float] | None = None,
                 median_idf: float = 0.0, paths: Sequence[str] | None = None,
                 path_is_test: Sequence[bool] | None = None,
                 file_symbol: Sequence[int] | None = None,
                 by_name: Mapping[str, list[int]] | None = None,
                 pos_of_id: Mapping[int, int] | None = None,
                 term_df: Sequence[int] | None = None) -> None:
        self.generation = generation
        self.ids: Sequence[int] = ids if ids is not None else []
        self.names: Sequence[str] = names if names is not None else []
        self.qualified: Sequence[str] = qualified if qualified is not None else []
        self.kinds: Sequence[str] = kinds if kinds is not None else []
        self.file_of: Sequence[int] = file_of if file_of is not None else []  # in `paths`
        self.lines: Sequence[int] = lines if lines is not None else []
        self.end_lines: Sequence[int] = end_lines if end_lines is not None else []
        self.visibility: Sequence[str] = visibility if visibility is not None else []
        self.parent: Sequence[int] = parent if parent is not None else []  # -1: none
        self.terms: Sequence[frozenset[str]] = terms if terms is not None else []
        self.name_terms: Sequence[frozenset[str]] = name_terms if name_terms is not None else []
        self.neighbor_terms: Sequence[frozenset[str]] = (
            neighbor_terms if neighbor_terms is not None else [])
        self.degree: Sequence[float] = degree if degree is not None else []
        # sorted by weight, heaviest first
        self.out: Sequence[list[Edge]] = out if out is not None else []
        self.inc: Sequence[list[Edge]] = inc if inc is not None else []
        self.idf: Mapping[str, float] = idf if idf is not None else {}
        self.median_idf = median_idf
        self.paths: Sequence[str] = paths if paths is not None else []
        self.path_is_test: Sequence[bool] = path_is_test if path_is_test is not None else []
        # per path: its file symbol's position
        self.file_symbol: Sequence[int] = file_symbol if file_symbol is not None else []
        # lower-case name → positions
        self.by_name: Mapping[str, list[int]] = by_name if by_name is not None else {}
        self.pos_of_id: Mapping[int, int] = pos_of_id if pos_of_id is not None else {}
        # a loaded graph's `terms` vocabulary: how many symbols hold each term (0: a name
        # term only), which is what `graph_update` patches to recompute IDF without reading
        # all terms
        self.term_df: Sequence[int] = term_df if term_df is not None else []
        # derived on first use and kept for the process: never stored
        self._names: NameIndex | None = None
        # how a graph read through a delta makes its name index (`graph_overlay`), when asked
        self._names_make: Callable[[], NameIndex] | None = None
        self._postings: dict[str, list[int]] = {}
        self._path_words: tuple[list[set[str]], dict[str, int]] | None = None
        # term → idf_of(term): a query asks its few stems thousands of times, and a loaded
        # graph answers each by a bisection in its vocabulary
        self._idf_memo: dict[str, float] = {}
        # FTS term → whether FTS5 weighs it nothing here (`fts.informative`'s memo)
        self.fts_common: dict[str, bool] = {}

    def name_index(self) -> NameIndex:
        if self._names is None:
            self._names = self._names_make() if self._names_make else NameIndex(self.names)
        return self._names

    def with_name_term(self, term: str) -> list[int]:
        """Positions whose `name_terms` hold `term`, ascending."""
        found = self._postings.get(term)
        if found is None:
            having = getattr(self.name_terms, "having", None)  # a CSR's or an overlay's
            found = (having(term) if having is not None
                     else [i for i, s in enumerate(self.name_terms) if term in s])
            self._postings[term] = found
        return found

    def path_words(self) -> tuple[list[set[str]], dict[str, int]]:
        """Each path's stemmed words, and in how many paths each word occurs (a loaded or
        patched graph has them from the cache or the graph it patched)."""
        if self._path_words is None:
            self._path_words = path_words_of(self.paths)
        return self._path_words

    def idf_of(self, term: str) -> float:
        """The term's IDF; a term no symbol holds weighs as the rarest would."""
        w = self._idf_memo.get(term)
        if w is None:
            w = self._idf_memo[term] = self.idf.get(term, self.max_idf)
        return w

    @property
    def max_idf(self) -> float:
        return math.log(1 + len(self.ids))

    def definition_of(self, i: int) -> int | None:
        """The definition a declaration at `i` declares (a `declares` edge), if one is known."""
        for j, _, code in self.out[i]:
            if code == DECLARES_CODE:
                return j
        return None

    def is_test(self, i: int) -> bool:
        return self.path_is_test[self.file_of[i]]

    def path(self, i: int) -> str:
        return self.paths[self.file_of[i]]


def build(store: Store) -> GraphIndex:
    """Read symbols and edges once and derive every query-time structure, in the arrays a
    graph loaded from the cache holds (`graph_cache._decode`).

    Per-symbol Python objects (a frozenset and two edge lists each) made the first query at
    1M symbols take 88 s and 6.1 GiB (issue #14); here SQLite numbers the symbols and sorts
    the edges, and columns go into `array`s a batch at a time. Everything is read in one read
    transaction, so the generation the graph is stamped with matches its rows.
    """
    conn = store.conn
    own = not conn.in_transaction
    with _collector_paused():
        if own:
            conn.execute("BEGIN")
        try:
            return _build(store)
        finally:
            conn.execute("DROP TABLE IF EXISTS temp.graph_pos")
            conn.execute("DROP TABLE IF EXISTS temp.graph_edge")
            if own:
                conn.execute("COMMIT")


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the duration: a batch's row tuples and term sets
    die with it and make no cycles, yet the collector's passes over them were a third of
    the build at 200k symbols."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class _Vocabulary(dict[str, int]):
    """Term → vocabulary id, a new term taking the next id: `map(v.__getitem__, terms)` runs
    in C except for a term seen for the first time."""

    def __missing__(self, term: str) -> int:
        self[term] = k = len(self)
        return k


def _build(store: Store) -> GraphIndex:
    conn = store.conn
    generation = store.generation
    paths: list[str] = []
    file_pos: dict[int, int] = {}
    for fid, path in conn.execute("SELECT id, path FROM files WHERE skip_reason = '' ORDER BY id"):
        file_pos[fid] = len(paths)
        paths.append(path)
    # positions follow symbol ids; SQLite numbers them so parents and edges join to positions
    conn.execute("CREATE TEMP TABLE graph_pos (id INTEGER PRIMARY KEY, pos INTEGER NOT NULL)")
    conn.execute("INSERT INTO graph_pos SELECT id, row_number() OVER (ORDER BY id) - 1 "
                 "FROM symbols")
    ids, file_of = array("q"), array(U32)
    lines, end_lines, parent = array("q"), array("q"), array(I32)
    names: list[str] = []
    qualified: list[str] = []
    kinds: list[str] = []
    visibility: list[str] = []
    file_symbol = array(I32, [-1]) * len(paths)
    vocab = _Vocabulary()
    terms_off, terms_ids = array(U32, [0]), array(U32)
    names_off, names_ids = array(U32, [0]), array(U32)
    cur = conn.execute(  # a parent id of 0 is none, as `if parent_id` read it before
        "SELECT s.id, s.file_id, s.name, s.qualified, s.kind, s.line, s.end_line, s.visibility, "
        "coalesce(CASE WHEN s.parent_id THEN p.pos END, -1), s.terms "
        "FROM symbols s LEFT JOIN graph_pos p ON p.id = s.parent_id ORDER BY s.id")
    while batch := cur.fetchmany(_BATCH):
        sid, fid, name, qual, kind, line, end, vis, par, text = zip(*batch, strict=True)
        at = len(ids)
        ids.extend(sid)
        file_of.extend(map(file_pos.get, fid, repeat(0)))
        names.extend(name)
        qualified.extend(qual)
        kinds.extend(map(sys.intern, kind))
        lines.extend(line)
        end_lines.extend(end)
        visibility.extend(map(sys.intern, vis))
        parent.extend(par)
        _add_sets(vocab, terms_off, terms_ids, map(frozenset, map(str.split, text)))
        _add_sets(vocab, names_off, names_ids, map(name_terms_of, name))
        for i in compress(range(at, len(ids)), map("file".__eq__, kind)):
            file_symbol[file_of[i]] = i  # the last file symbol of a path wins, as before
    n = len(ids)
    counts = Counter(terms_ids)  # a symbol's terms are distinct: how many symbols hold each
    df = array(U32, map(counts.get, range(len(vocab)), repeat(0)))
    del counts
    words = list(vocab)
    del vocab
    lookup = VocabLookup(words)
    name_terms = TermSets(words, names_off, names_ids, lookup)
    out, inc = _adjacency(store, n)
    held = sorted(filter(None, df), reverse=True)  # IDF falls as the count rises
    return GraphIndex(
        generation=generation, ids=ids, names=names, qualified=qualified, kinds=kinds,
        file_of=file_of, lines=lines, end_lines=end_lines, visibility=visibility,
        parent=parent, terms=TermSets(words, terms_off, terms_ids, lookup), name_terms=name_terms,
        neighbor_terms=NeighborTerms(name_terms, out, inc),
        degree=degrees(out, inc), out=out, inc=inc,
        median_idf=idf_weight(held[len(held) // 2], n) if held else 0.0,
        paths=paths, path_is_test=[is_test_path(p) for p in paths], file_symbol=file_symbol,
        term_df=df, **lazy_lookups(ids, names, lookup, df),
    )


_BATCH = 1 << 15  # rows fetched at a time: a batch's tuples are all that is held per row


def _add_sets(vocab: _Vocabulary, off: array[int], flat: array[int],
              sets: Iterable[frozenset[str]]) -> None:
    """Append term sets to a CSR (offsets, flat vocabulary ids)."""
    batch = list(sets)
    flat.extend(map(vocab.__getitem__, chain.from_iterable(batch)))
    off.extend(islice(accumulate(map(len, batch), initial=off[-1]), 1, None))


def _adjacency(store: Store, n: int) -> tuple[Adjacency, Adjacency]:
    """`out` and `inc` in CSR form, each list in `edge_order`, sorted by SQLite.

    `graph_edge` holds every `out` entry (owner, neighbour, weight, code): each edge from its
    source, and a deep edge also from its target, since deep edges are symmetric (stored
    once, walked both ways). `inc` holds the same entries seen from the neighbour. Positions
    follow ids, so ordering by position is `edge_order`'s tie-break. An edge at a symbol that
    does not exist is no edge (the joins drop it).
    """
    conn = store.conn
    kinds = list(EDGE_CODES.items())
    code = "CASE e.kind " + "WHEN ? THEN ? " * len(kinds) + "END"
    deep = [kind for kind, c in kinds if c in DEEP_CODES]
    conn.execute("CREATE TEMP TABLE graph_edge (a INTEGER, b INTEGER, w REAL, k INTEGER)")
    conn.execute(  # CROSS JOIN: one scan of `edges` in table order, positions looked up
        f"WITH e AS (SELECT s.pos AS a, d.pos AS b, e.weight AS w, {code} AS k, "
        f"e.kind IN ({', '.join('?' * len(deep))}) AS deep "
        "FROM edges e CROSS JOIN graph_pos s CROSS JOIN graph_pos d "
        "WHERE s.id = e.src_id AND d.id = e.dst_id) "
        "INSERT INTO graph_edge SELECT a, b, w, k FROM e "
        "UNION ALL SELECT b, a, w, k FROM e WHERE deep",
        [*(x for kc in kinds for x in kc), *deep])
    conn.execute("DROP TABLE graph_pos")
    out = _csr(conn.execute("SELECT a, b, w, k FROM graph_edge ORDER BY a, w DESC, b, k"), n)
    inc = _csr(conn.execute("SELECT b, a, w, k FROM graph_edge ORDER BY b, w DESC, a, k"), n)
    return out, inc


def _csr(rows: sqlite3.Cursor, n: int) -> Adjacency:
    """Rows (owner, neighbour, weight, code) sorted by owner as one CSR of `n` lists."""
    owners, to, weights, codes = array(U32), array(U32), array("d"), array("B")
    while batch := rows.fetchmany(_BATCH):
        a, b, w, k = zip(*batch, strict=True)
        owners.extend(a)
        to.extend(b)
        weights.extend(w)
        codes.extend(k)
    off = array(U32, map(bisect_left, repeat(owners), range(n + 1)))
    return Adjacency(off, to, weights, codes)


def idf_weight(count: int, symbols: int) -> float:
    """The IDF of a term `count` of `symbols` symbols hold (BM25's, kept positive)."""
    n = max(symbols, 1)
    return math.log(1 + (n - count + 0.5) / (count + 0.5))


def degrees(out: Adjacency, inc: Adjacency) -> array[float]:
    """Each symbol's edge count (both directions) as log1p(count) / log1p(the largest), every
    step in C: a Python loop over the symbols was a tenth of a graph patch at 200k."""
    counts = list(map(operator.add, map(operator.sub, out.off[1:], out.off[:-1]),
                      map(operator.sub, inc.off[1:], inc.off[:-1])))
    most = math.log1p(max(counts, default=1) or 1)
    return array("d", map(operator.truediv, map(math.log1p, counts), repeat(most)))


def lazy_lookups(ids: Sequence[int], names: Sequence[str], lookup: VocabLookup,
                 df: Sequence[int]) -> dict[str, Mapping[Any, Any]]:
    """`idf`, `by_name` and `pos_of_id` of a graph held in arrays (built, loaded or patched),
    none of them a dict of the whole graph unless asked for: a query reads a few entries.
    `idf` computes a term's IDF when it is asked for (computing all of them was 0.37 s of a
    query at 200k symbols), `pos_of_id` bisects the ids (positions follow ids), and `by_name`
    (the fallback scan's and `relations`' dict) is built on first use."""

    def by_name() -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, lower in enumerate(map(str.lower, names)):
            found.setdefault(lower, []).append(i)
        return found

    return {"idf": Idf(lookup, df, len(ids), idf_weight), "by_name": LazyDict(by_name),
            "pos_of_id": PositionOfId(ids)}


def path_words_of(paths: Iterable[str], known: Mapping[str, set[str]] | None = None,
                  ) -> tuple[list[set[str]], dict[str, int]]:
    """`GraphIndex.path_words` for `paths`, taking a path's words from `known` when it is
    there: tokenising and stemming every path was ~0.25 s of each query at 10,000 files."""
    known = known or {}
    words = [known[p] if p in known else {stem(t) for t in tokens(p.replace("/", " "))}
             for p in paths]
    return words, Counter(chain.from_iterable(words))


def edge_order(e: Edge) -> tuple[float, int, int]:
    """Heaviest first; ties by neighbour position, then kind. Positions follow symbol ids, so
    the order is a function of the edges alone, not of the order SQLite returns them in:
    `graph_update` patches a list and must get the list `build` would have made."""
    return (-e[1], e[0], e[2])


def name_terms_of(name: str) -> frozenset[str]:
    return frozenset(map(stem, split_identifier(name)))  # called per symbol by `build`

