"""rq's symbol matching: exact > prefix > camel-hump abbreviation > subsequence, then typos.

`refundproc` → `RefundProcessor`, `sleect` → `Select`; a scoped query (`Foo.bar`, `Foo::bar`,
`Foo#bar`) matches its leaf and requires the parent chain.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from graphiq_ci.search.graph import GraphIndex
from graphiq_ci.text import split_identifier

_SCOPE = re.compile(r"::|#|\.")
_JOINERS = re.compile(r"[_\-.]")


class NameMatch(NamedTuple):
    """How a symbol's name matches the query, best quality first in the ranking."""

    quality: str  # exact | prefix | abbreviation | subsequence | typo
    strength: float  # 0..1 within its quality, for ties (contiguity, brevity)
    case_match: bool


def _abbreviation(q: str, parts: list[str]) -> bool:
    """Greedy: query chunks are prefixes of the words in order (refundproc → refund|proc)."""
    i = 0
    for part in parts:
        if i >= len(q):
            break
        k = 0
        while k < len(part) and i + k < len(q) and q[i + k] == part[k]:
            k += 1
        i += k
    return i >= len(q) and len(parts) > 1


def _subsequence(q: str, name: str) -> bool:
    it = iter(name)
    return all(ch in it for ch in q)


def match_name(query: str, name: str) -> NameMatch | None:
    q = query.lower()
    n = name.lower()
    cased = query != q and query == name[: len(query)]
    if n == q:
        return NameMatch("exact", 1.0, query == name)
    if _JOINERS.sub("", n) == _JOINERS.sub("", q):
        return NameMatch("exact", 0.9, cased)
    if n.startswith(q):
        return NameMatch("prefix", len(q) / len(n), cased)
    if len(q) >= 3 and _abbreviation(q, split_identifier(name)):
        return NameMatch("abbreviation", len(q) / len(n), False)
    if len(q) >= 4 and _subsequence(q, n) and len(n) <= 3 * len(q):
        return NameMatch("subsequence", len(q) / len(n), False)
    return None


def _typo(q: str, name: str) -> NameMatch | None:
    if len(q) < 4:
        return None
    from rapidfuzz.distance import Levenshtein  # ~8 ms to import: typos are the last resort

    limit = 1 if len(q) < 7 else 2
    d = Levenshtein.distance(q, name.lower(), score_cutoff=limit)
    if d <= limit:
        return NameMatch("typo", 1.0 - d / (limit + 1), False)
    return None


def find_names(g: GraphIndex, query: str) -> dict[int, NameMatch]:
    """Positions of symbols the (possibly scoped) query names, with how well each matched.

    Only names that can match are tested: the exact name and prefixes by bisection in the
    graph's sorted names; joiner-free equals, abbreviations and subsequences (each implies the
    query's letters occur in order in the lower-case name) by one C-level regex scan; typos by
    rapidfuzz over the distinct names. Same result, in the same order, as `find_names_scan`.
    """
    parts = [p for p in _SCOPE.split(query.strip()) if p]
    if not parts:
        return {}
    leaf, scope = parts[-1], [p.lower() for p in parts[:-1]]
    index = g.name_index()
    q = leaf.lower()
    if index.blob is None:  # a name with a NUL: the blob can't separate names
        return find_names_scan(g, query)
    keys = set(index.starting_with(q))  # exact and prefix
    if "\0" not in q:  # no name holds a NUL, so a NUL in the query matches none of these
        bare = _JOINERS.sub("", q)
        if bare != q or len(q) < 3:  # else a joiner-free equal holds q in order: scanned next
            keys.update(index.matching(_joined_pattern(bare)))
        if len(q) >= 3:
            keys.update(index.matching(_subsequence_pattern(q)))
    found: dict[int, NameMatch] = {}
    for positions in sorted(filter(None, map(index.positions, keys))):
        m = match_name(leaf, g.names[positions[0]])
        if m is None:
            continue
        for i in positions:
            if scope and not _in_scope(g, i, scope):
                continue
            found[i] = NameMatch(m.quality, m.strength, leaf == g.names[i])
    if not any(m.quality in ("exact", "prefix") for m in found.values()) and len(q) >= 4:
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        limit = 1 if len(q) < 7 else 2
        close = process.extract(q, index.listed(), scorer=Levenshtein.distance, processor=None,
                                score_cutoff=limit, limit=None)
        typos = sorted((index.positions(name), int(d)) for name, d, _ in close)
        for positions, d in typos:
            t = NameMatch("typo", 1.0 - d / (limit + 1), False)
            for i in positions:
                if not scope or _in_scope(g, i, scope):
                    found.setdefault(i, t)
    return found


_GAP = r"[_\-.]*+"


def _joined_pattern(bare: str) -> re.Pattern[str]:
    """Whole names that are `bare` with joiners (_ - .) anywhere, NUL-separated."""
    return re.compile(r"\0(" + _GAP + "".join(re.escape(c) + _GAP for c in bare) + r")(?=\0)")


def _subsequence_pattern(q: str) -> re.Pattern[str]:
    """Whole names holding the letters of `q` in order (possessive gaps: no backtracking)."""
    body = "".join(f"[^{re.escape(c)}\\0]*+{re.escape(c)}" for c in q)
    return re.compile(r"\0(" + body + r"[^\0]*)")


def find_names_scan(g: GraphIndex, query: str) -> dict[int, NameMatch]:
    """`find_names` by testing every distinct name: the reference the fast path must equal."""
    parts = [p for p in _SCOPE.split(query.strip()) if p]
    if not parts:
        return {}
    leaf, scope = parts[-1], [p.lower() for p in parts[:-1]]
    found: dict[int, NameMatch] = {}
    for positions in g.by_name.values():
        m = match_name(leaf, g.names[positions[0]])
        if m is None:
            continue
        for i in positions:
            if scope and not _in_scope(g, i, scope):
                continue
            found[i] = NameMatch(m.quality, m.strength, leaf == g.names[i])
    if not any(m.quality in ("exact", "prefix") for m in found.values()):
        for lower, positions in g.by_name.items():
            t = _typo(leaf.lower(), lower)
            if t is not None:
                for i in positions:
                    if not scope or _in_scope(g, i, scope):
                        found.setdefault(i, t)
    return found


def _in_scope(g: GraphIndex, i: int, scope: list[str]) -> bool:
    chain = [p.lower() for p in g.qualified[i].split(".")[:-1]]
    return chain[-len(scope):] == scope
