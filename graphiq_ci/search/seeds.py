"""Seed generation: BM25, per-term expansion, numeric bridges, source scan, deep-edge seeds.

Each strategy is gated by the query family's policy (GraphIQ: source scan only for ErrorDebug,
per-term and graph seeds only for natural language).
"""

from __future__ import annotations

from collections import defaultdict

from graphiq_ci.search.fts import informative, relaxed_bm25, symbol_bm25
from graphiq_ci.search.graph import EDGE_KINDS, GraphIndex
from graphiq_ci.search.match import NameMatch, find_names
from graphiq_ci.search.query import Query
from graphiq_ci.search.vocabulary import SYNONYMS
from graphiq_ci.search.weights import FTS_LIMIT, PER_TERM_LIMIT, Family
from graphiq_ci.store import Store
from graphiq_ci.text import stem

GRAPH_SEED_FROM = 30
GRAPH_SEED_EDGES = 30
GRAPH_SEED_KEEP = 50


class Seeds:
    """What the first-stage channels found, per symbol position, before any scoring."""

    def __init__(self) -> None:
        self.bm25: dict[int, float] = {}  # position → raw BM25
        self.per_term: dict[int, float] = {}  # position → coverage-normalised
        self.names: dict[int, NameMatch] = {}
        self.sources: dict[int, set[str]] = defaultdict(set)

    def add(self, i: int, source: str) -> None:
        self.sources[i].add(source)

    @property
    def near_misses_only(self) -> bool:
        """Names matched, but none literally (exact or prefix): rq's rule is that near misses
        then compete with the text matches instead of trailing them. A typo'd class name
        otherwise loses to every symbol whose name holds one of its words."""
        return bool(self.names) and not any(m.quality in ("exact", "prefix")
                                             for m in self.names.values())


def _positions(g: GraphIndex, scores: dict[int, float]) -> dict[int, float]:
    return {g.pos_of_id[sid]: s for sid, s in scores.items() if sid in g.pos_of_id}


def collect(store: Store, g: GraphIndex, q: Query) -> Seeds:
    pol = q.policy
    seeds = Seeds()
    symbolish = q.family in (Family.SYMBOL_EXACT, Family.SYMBOL_PARTIAL)
    # AND-matching (symbol-like queries) keeps every term, since each narrows the match;
    # OR-matching leaves out those FTS5 weighs nothing (fts.informative)
    bm = {} if pol.relaxed_fts else symbol_bm25(store, list(q.terms), False, FTS_LIMIT)
    if not bm:
        bm = relaxed_bm25(store, q.terms, len(g.ids), g.fts_common, FTS_LIMIT)
    seeds.bm25 = _positions(g, bm)
    for i in seeds.bm25:
        seeds.add(i, "bm25")
    if symbolish or q.family is Family.FILE_PATH or len(q.terms) <= 3:
        seeds.names = find_names(g, q.text) if symbolish else {}
        for i in seeds.names:
            seeds.add(i, "name")
    if pol.per_term:
        _per_term(store, g, q, seeds)
    if pol.numeric and q.numbers:
        _numeric(store, g, q, seeds)
    if pol.source_scan and q.phrases:
        _source_scan(store, g, q, seeds)
    if pol.graph_seeds:
        _graph_seeds(g, pol.graph_seeds, seeds)
    return seeds


def _per_term(store: Store, g: GraphIndex, q: Query, seeds: Seeds) -> None:
    """Each term (and its stem and synonyms) searched alone; a symbol matching many terms wins."""
    terms = [t for t in q.terms if len(t) >= 3]
    if not terms:
        return
    acc: dict[int, float] = defaultdict(float)
    for term in terms:
        variants = dict.fromkeys([term, stem(term), *SYNONYMS.get(term, ())[:3]])
        best: dict[int, float] = {}
        for v in informative(store, list(variants), len(g.ids), g.fts_common):
            for i, s in _positions(g, symbol_bm25(store, [v], True, PER_TERM_LIMIT)).items():
                best[i] = max(best.get(i, 0.0), s)
        top = max(best.values(), default=0.0) or 1.0
        for i, s in best.items():
            acc[i] += s / top
    for i, s in acc.items():
        seeds.per_term[i] = s / len(terms)
        seeds.add(i, "per_term")


def _numeric(store: Store, g: GraphIndex, q: Query, seeds: Seeds) -> None:
    for number in q.numbers:
        for src, dst in store.conn.execute(
            "SELECT src_id, dst_id FROM edges WHERE kind = 'shares_constant' AND meta = ? LIMIT 50",
            (number,),
        ):
            for sid in (src, dst):
                if sid in g.pos_of_id:
                    seeds.add(g.pos_of_id[sid], "numeric")


def _source_scan(store: Store, g: GraphIndex, q: Query, seeds: Seeds) -> None:
    """Literal error phrases found in source bypass BM25 entirely (ErrorDebug only)."""
    for phrase in q.phrases:
        escaped = phrase.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        for (sid,) in store.conn.execute(
            "SELECT id FROM symbols WHERE source LIKE ? ESCAPE '\\' AND kind != 'file' LIMIT 50",
            (f"%{escaped}%",),
        ):
            if sid in g.pos_of_id:
                seeds.add(g.pos_of_id[sid], "source_scan")


def _graph_seeds(g: GraphIndex, kinds: tuple[str, ...], seeds: Seeds) -> None:
    wanted = {i for i, k in enumerate(EDGE_KINDS) if k.value in kinds}
    ranked = sorted(seeds.bm25, key=lambda i: -seeds.bm25[i])[:GRAPH_SEED_FROM]
    acc: dict[int, float] = defaultdict(float)
    for i in ranked:
        taken = 0
        for j, w, code in g.out[i]:
            if code in wanted and j not in seeds.bm25:
                acc[j] += w
                taken += 1
                if taken >= GRAPH_SEED_EDGES:
                    break
    for j in sorted(acc, key=lambda j: -acc[j])[:GRAPH_SEED_KEEP]:
        seeds.add(j, "graph")
