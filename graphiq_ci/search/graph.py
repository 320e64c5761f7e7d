"""The in-memory graph index the query path runs on (GraphIQ's CruncherIndex).

Adjacency lists with weights, per-symbol term sets, global IDF, a name index, neighbour terms
and normalised degree: everything the walk and the scorer read, so a query touches SQLite only
for FTS. `build` derives it from the index in one read; `graph_cache.load_graph` keeps it next
to the database and rebuilds it only when the index generation changes.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphiq_ci.model import EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.search.graph_views import (
    DEEP_CODES,
    EDGE_CODES,
    EDGE_KINDS,
    STRUCTURAL_CODES,
    Edge,
    LazyDict,
    NameIndex,
    TermSets,
    neighbor_terms_of,
)
from graphiq_ci.store import Store

DECLARES_CODE = EDGE_CODES[EdgeKind.DECLARES.value]

__all__ = ["DEEP_CODES", "EDGE_KINDS", "STRUCTURAL_CODES", "Edge", "GraphIndex", "build",
           "edge_order", "idf_weight", "lazy_lookups", "name_terms_of"]


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
    # a loaded graph's `terms` vocabulary: how many symbols hold each term (0: a name term
    # only), which is what `graph_update` patches to recompute IDF without reading all terms
    term_df: Sequence[int] = field(default_factory=list, repr=False, compare=False)
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
    idf = {t: idf_weight(c, len(ids)) for t, c in df.items()}
    values = sorted(idf.values())
    name_terms = [name_terms_of(name) for name in names]
    out: list[list[Edge]] = [[] for _ in ids]
    inc: list[list[Edge]] = [[] for _ in ids]
    for src, dst, kind, weight in conn.execute("SELECT src_id, dst_id, kind, weight FROM edges"):
        a, b = pos_of_id.get(src), pos_of_id.get(dst)
        if a is None or b is None:
            continue
        code = EDGE_CODES[kind]
        out[a].append((b, weight, code))
        inc[b].append((a, weight, code))
        if code in DEEP_CODES:  # deep edges are symmetric: stored once, walked both ways
            out[b].append((a, weight, code))
            inc[a].append((b, weight, code))
    for adj in (out, inc):
        for lst in adj:
            lst.sort(key=edge_order)
    neighbor_terms = [neighbor_terms_of(name_terms, out[i], inc[i]) for i in range(len(ids))]
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


def idf_weight(count: int, symbols: int) -> float:
    """The IDF of a term `count` of `symbols` symbols hold (BM25's, kept positive)."""
    n = max(symbols, 1)
    return math.log(1 + (n - count + 0.5) / (count + 0.5))


def lazy_lookups(ids: Sequence[int], names: Sequence[str], vocab: Sequence[str],
                 df: Sequence[int]) -> dict[str, LazyDict[Any, Any]]:
    """`idf`, `by_name` and `pos_of_id` of a graph held in arrays (loaded or patched), built
    on first use: a query reads a few of them, and building all three costs ~0.1 s at 200k."""
    n = len(ids)

    def by_name() -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, lower in enumerate(map(str.lower, names)):
            found.setdefault(lower, []).append(i)
        return found

    return {"idf": LazyDict(lambda: {t: idf_weight(c, n)
                                     for t, c in zip(vocab, df, strict=True) if c}),
            "by_name": LazyDict(by_name),
            "pos_of_id": LazyDict(lambda: dict(zip(ids, range(n), strict=True)))}


def edge_order(e: Edge) -> tuple[float, int, int]:
    """Heaviest first; ties by neighbour position, then kind. Positions follow symbol ids, so
    the order is a function of the edges alone, not of the order SQLite returns them in:
    `graph_update` patches a list and must get the list `build` would have made."""
    return (-e[1], e[0], e[2])


def name_terms_of(name: str) -> frozenset[str]:
    from graphiq_ci.text import split_identifier, stem

    return frozenset(stem(p) for p in split_identifier(name))

