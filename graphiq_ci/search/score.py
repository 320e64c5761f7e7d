"""Gated additive scoring (GraphIQ), with rq's name matching and git boosts as named features.

score = (base + gated additive boosts) × coverage^0.3 × seed bonus × kind × test × visibility.
Every term lands in `features` under the name `weights.FEATURES` uses, so `--explain` shows
exactly why a symbol ranked where it did.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from graphiq_ci.search.graph import GraphIndex
from graphiq_ci.search.query import Query
from graphiq_ci.search.seeds import Seeds
from graphiq_ci.search.walk import coverage

_CALLABLE = frozenset({"function", "method", "constructor"})
_TYPES = frozenset({"class", "interface", "struct", "enum", "trait", "type"})
_MEMBERS = frozenset({"field", "variable", "constant"})


class Boosts(NamedTuple):
    """Signals the caller computes (git, context) and the scorer adds per file, by feature name."""

    per_file: dict[str, dict[str, float]]


class Scored:
    """A ranked symbol: its score, the features summed into it, the channels that found it
    (the pipeline raises the score of a locked or promoted one in place)."""

    __slots__ = ("features", "pos", "score", "sources")

    def __init__(self, pos: int, score: float, features: dict[str, float],
                 sources: set[str]) -> None:
        self.pos = pos
        self.score = score
        self.features = features
        self.sources = sources


def _specificity(g: GraphIndex, q: Query) -> float:
    """Share of query terms that are rare in this codebase (idf above the median)."""
    if not q.stems:
        return 0.0
    return sum(1 for s in q.stems if g.idf_of(s) > g.median_idf) / len(q.stems)


def _kind_factor(kind: str, w: dict[str, float]) -> tuple[str, float]:
    if kind in _CALLABLE:
        return "kind_callable", w["kind_callable"]
    if kind in _TYPES:
        return "kind_type", w["kind_type"]
    if kind in _MEMBERS:
        return "kind_member", w["kind_member"]
    if kind == "file":
        return "kind_file", w["kind_file"]
    if kind == "import":
        return "kind_import", w["kind_import"]
    return "kind_other", 1.0


def closeness(query: str, name: str) -> float:
    """How near a miss is, 0..1: one minus the edit distance over the longer length, case
    and joiners (_ - .) ignored. `AsyncClinet` is 0.82 from `AsyncClient`; a long name that
    merely holds the query's letters in order scores low."""
    from rapidfuzz.distance import Levenshtein  # ~8 ms to import: only near misses need it

    a, b = (re.sub(r"[_\-.]", "", s.lower()) for s in (query.strip(), name))
    return float(Levenshtein.normalized_similarity(a, b))


def score_all(g: GraphIndex, q: Query, seeds: Seeds, walked: dict[int, float],
              w: dict[str, float], boosts: Boosts | None = None) -> list[Scored]:
    pol = q.policy
    spec = _specificity(g, q) if pol.specificity else 0.0
    bm25_w = pol.bm25_w * (1 - 0.3 * spec)
    cov_w = pol.cov_w * (1 + 0.5 * spec)
    top_bm25 = max(seeds.bm25.values(), default=0.0) or 1.0
    top_walk = max(walked.values(), default=0.0) or 1.0
    qset = q.stem_set
    near_misses = seeds.near_misses_only
    leaf = re.split(r"::|#|\.", q.text.strip())[-1]  # `Foo.bar` is near `bar`'s misses
    out: list[Scored] = []
    for i in set(seeds.sources) | set(walked):
        f: dict[str, float] = {}
        cov, frac = coverage(g, i, q)
        names = g.name_terms[i]
        name_norm = len(qset & names) / len(names) if names else 0.0
        is_seed = i in seeds.sources
        if is_seed:
            f["bm25"] = bm25_w * seeds.bm25.get(i, 0.0) / top_bm25
            f["coverage"] = cov_w * min(cov, 0.4)
            f["name"] = pol.name_w * min(name_norm, 0.5)
            if i in seeds.per_term:
                f["per_term"] = cov_w * 0.5 * seeds.per_term[i]
        if i in walked:
            f["walk_coverage"] = w["walk_coverage"] * cov if not is_seed else 0.0
            f["walk_name"] = w["walk_name"] * name_norm if not is_seed else 0.0
            f["walk"] = pol.walk_w * walked[i] / top_walk
        if pol.overlap and names and qset:
            overlap = len(qset & names) / min(len(qset), len(names))
            if overlap >= pol.overlap_gate:
                f["overlap"] = w["overlap_weight"] * overlap * (spec if pol.specificity else 1.0)
        if qset and g.neighbor_terms[i]:
            nf = len(qset & g.neighbor_terms[i]) / len(qset)
            if nf >= w["neighbor_gate"]:
                f["neighbor"] = w["neighbor_weight"] * nf
        match = seeds.names.get(i)
        if match is not None:
            f[f"match_{match.quality}"] = w[f"match_{match.quality}"] * (0.5 + 0.5 * match.strength)
            if near_misses:
                f["near_miss"] = w["near_miss"] * closeness(leaf, g.names[i])
            if match.case_match:
                f["case_match"] = w["case_match"]
        if boosts is not None:
            for name, value in boosts.per_file.get(g.path(i), {}).items():
                f[name] = value
        base = sum(f.values())
        mult = max(frac, 0.05) ** w["coverage_exponent"]
        f["x_coverage"] = mult
        if is_seed:
            mult *= w["seed_bonus"]
            f["x_seed_bonus"] = w["seed_bonus"]
        kind_name, kind_mult = _kind_factor(g.kinds[i], w)
        mult *= kind_mult
        f["x_" + kind_name] = kind_mult
        if g.is_test(i) and not q.about_tests:
            mult *= w["test_penalty"]
            f["x_test_penalty"] = w["test_penalty"]
        if g.visibility[i] == "private":
            mult *= w["visibility_private"]
            f["x_visibility_private"] = w["visibility_private"]
        out.append(Scored(i, base * mult, f, set(seeds.sources.get(i, ())) |
                          ({"walk"} if i in walked else set())))
    return out
