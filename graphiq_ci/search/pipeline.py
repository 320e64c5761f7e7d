"""The search pipeline, top to bottom: family → seeds → walk → score → lock → diversity."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from graphiq_ci.search.graph import GraphIndex
from graphiq_ci.search.graph_cache import load_graph
from graphiq_ci.search.query import Query, parse_query
from graphiq_ci.search.score import Boosts, Scored, score_all
from graphiq_ci.search.seeds import Seeds, collect
from graphiq_ci.search.walk import walk
from graphiq_ci.search.weights import FEATURES, Family
from graphiq_ci.store import Store
from graphiq_ci.text import common_words_as_code

LOCK_BONUS = 1_000_000.0


class Hit(NamedTuple):
    """One ranked symbol, with the features that put it there."""

    id: int
    name: str
    qualified: str
    kind: str
    path: str
    line: int
    end_line: int
    score: float
    sources: tuple[str, ...]
    features: dict[str, float]


class SearchResult(NamedTuple):
    """The ranked hits with the parsed query, which says how they were ranked."""

    query: Query
    hits: list[Hit]
    #: nothing matched the query's other words, so its common words were searched as names
    as_names: bool = False


def _confidence_lock(scored: list[Scored], seeds: Seeds, g: GraphIndex, q: Query) -> None:
    """A clear BM25 winner whose name carries a query term stays first (GraphIQ)."""
    ranked = sorted(seeds.bm25.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[1][1] <= 0:
        return
    (top, s1), (_, s2) = ranked[0], ranked[1]
    if s1 / s2 > FEATURES["lock_gap"] and g.name_terms[top] & q.stem_set:
        for item in scored:
            if item.pos == top:
                item.score += LOCK_BONUS
                item.features["confidence_lock"] = LOCK_BONUS


def _promote_exact(scored: list[Scored], g: GraphIndex, q: Query) -> None:
    """SymbolExact: a symbol named exactly as asked goes to the top."""
    want = q.text.strip().replace("::", ".").replace("#", ".")
    for item in scored:
        if g.names[item.pos] == want or g.qualified[item.pos] == want:
            item.score += 2 * LOCK_BONUS
            item.features["exact_promotion"] = 2 * LOCK_BONUS


def _definitions_first(scored: list[Scored], g: GraphIndex) -> list[Scored]:
    """A declaration's definition ranks just above it (index/pairs.py): `int parse(…);` in a
    header is where a reader finds the name, the body is what a task changes."""
    by_pos = {s.pos: s for s in scored}
    for item in list(scored):
        j = g.definition_of(item.pos)
        if j is None:
            continue
        target = by_pos.get(j)
        if target is None:
            target = by_pos[j] = Scored(j, 0.0, {}, set(item.sources))
            scored.append(target)
        if target.score <= item.score:
            target.features["declared_by"] = item.score - target.score
            target.score = item.score * (1 + 1e-9) + 1e-9
    return scored


def _diverse(scored: list[Scored], g: GraphIndex, per_file: int, top: int) -> list[Scored]:
    kept: list[Scored] = []
    per: dict[int, int] = {}
    for item in scored:
        f = g.file_of[item.pos]
        if per.get(f, 0) >= per_file:
            continue
        per[f] = per.get(f, 0) + 1
        kept.append(item)
        if len(kept) >= top:
            break
    return kept


def rank(store: Store, g: GraphIndex, text: str, *, top: int = 10,
         boosts: Boosts | None = None, weights: dict[str, float] | None = None,
         family: Family | None = None, diversity: bool = True) -> SearchResult:
    """Rank symbols for `text`. The library entry point the context builder also uses."""
    w = {**FEATURES, **(weights or {})}
    q = parse_query(text, family)
    seeds = collect(store, g, q)
    walked: dict[int, float] = {}
    if q.policy.walk:
        order = sorted(seeds.bm25, key=lambda i: -seeds.bm25[i])
        walked = walk(g, q, order)
    scored = score_all(g, q, seeds, walked, w, boosts)
    if not seeds.near_misses_only:  # a BM25 winner must not be locked above a near miss
        _confidence_lock(scored, seeds, g, q)
    if q.family is Family.SYMBOL_EXACT:
        _promote_exact(scored, g, q)
    scored = _definitions_first([s for s in scored if s.score > 0], g)
    scored.sort(key=lambda s: (-s.score, g.ids[s.pos]))
    kept = _diverse(scored, g, q.policy.per_file, top) if diversity else scored[:top]
    hits = [
        Hit(g.ids[s.pos], g.names[s.pos], g.qualified[s.pos], g.kinds[s.pos], g.path(s.pos),
            g.lines[s.pos], g.end_lines[s.pos], s.score, tuple(sorted(s.sources)),
            {k: round(v, 4) for k, v in s.features.items() if v})
        for s in kept
    ]
    return SearchResult(q, hits)


def rank_or_names(store: Store, g: GraphIndex, text: str, *, top: int = 10) -> SearchResult:
    """`rank`, and when that finds nothing, `rank` of the text with its common words written as
    code: "the add function" is about `add`, a word a query's prose is searched without."""
    result = rank(store, g, text, top=top)
    if result.hits or (as_names := common_words_as_code(text)) == text:
        return result
    retried = rank(store, g, as_names, top=top)
    return retried._replace(as_names=True) if retried.hits else result


def search(root: Path, text: str, top: int = 10, *, refresh: bool = True) -> SearchResult:
    """Index what is stale (unless `refresh` is off), then rank. Opens and closes the store."""
    from graphiq_ci.index import find_root, run_index
    from graphiq_ci.store import open_store

    root = find_root(root)
    store = open_store(root)  # one connection: closing the last one to a WAL file costs
    try:
        if refresh:
            run_index(root, store=store)
        return rank_or_names(store, load_graph(store, root), text, top=top)
    finally:
        store.close()
