"""The graph walk: BFS from the best seeds to symbols BM25 missed but the graph connects.

Two gates keep it honest (GraphIQ): a reached symbol must share at least one query term with
above-median IDF, and must match some query term in its own text. Evidence is
coverage × 0.5^depth × edge weight, accumulated over every path that reaches it.
"""

from __future__ import annotations

from collections import defaultdict

from graphiq_ci.search.graph import STRUCTURAL_CODES, GraphIndex
from graphiq_ci.search.query import Query
from graphiq_ci.search.weights import (
    WALK_DEPTH,
    WALK_EDGES_PER_DIRECTION,
    WALK_EXPANSIONS_PER_SEED,
    WALK_SEEDS,
)


def coverage(g: GraphIndex, i: int, q: Query) -> tuple[float, float]:
    """(IDF-weighted share of query stems in the symbol's terms, plain share)."""
    if not q.stems:
        return 0.0, 0.0
    have = g.terms[i]
    total = matched = 0.0
    count = 0
    for s in q.stems:
        w = g.idf_of(s)
        total += w
        if s in have:
            matched += w
            count += 1
    return (matched / total if total else 0.0), count / len(q.stems)


def walk(g: GraphIndex, q: Query, seed_order: list[int]) -> dict[int, float]:
    """Walk evidence for symbols reached from the top seeds (seeds themselves excluded)."""
    rare = frozenset(s for s in q.stems if g.idf_of(s) >= g.median_idf)
    evidence: dict[int, float] = defaultdict(float)
    seeds = set(seed_order)
    for seed in seed_order[:WALK_SEEDS]:
        frontier = [seed]
        expansions = 0
        seen = {seed}
        for depth in range(1, WALK_DEPTH + 1):
            nxt: list[int] = []
            for i in frontier:
                for adj in (g.out[i], g.inc[i]):
                    for j, weight, code in adj[:WALK_EDGES_PER_DIRECTION]:
                        if j in seen or code not in STRUCTURAL_CODES:
                            continue
                        seen.add(j)
                        terms = g.terms[j]
                        if not (rare & terms):  # IDF gate
                            continue
                        cov, _ = coverage(g, j, q)
                        if cov <= 0:  # coverage gate
                            continue
                        if j not in seeds:
                            evidence[j] += cov * 0.5**depth * weight
                        nxt.append(j)
                        expansions += 1
                        if expansions >= WALK_EXPANSIONS_PER_SEED:
                            break
                    if expansions >= WALK_EXPANSIONS_PER_SEED:
                        break
                if expansions >= WALK_EXPANSIONS_PER_SEED:
                    break
            frontier = nxt
    return dict(evidence)
