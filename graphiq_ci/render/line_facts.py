"""What the packer asks of a source's lines, computed once per render: their token costs, prefix
sums and non-blank lines per source, and per task how many of its words each line uses.

A render packs several times (it repacks when the text around the code overshoots) over the
same source lists, so these are cached by the list's identity and the task's stems.
"""

from __future__ import annotations

from itertools import accumulate, compress, count
from typing import NamedTuple

from graphiq_ci.render.tokens import lines_tokens


class LineFacts(NamedTuple):
    """One source's lines and what the packer asks of them, computed once."""

    lines: list[str]  # kept, so that its id cannot be reused while this is cached
    tokens: list[float]  # per line, its newline included
    by_line: list[float]  # the same, indexed by line number (by_line[0] is 0)
    prefix: list[float]  # prefix[n]: the cost of lines 1..n
    nonblank: frozenset[int]
    nonblank_cost: float


#: per source list (the same object through one render's packs and repacks): its line costs
#: and non-blank lines, computed once
_FACTS: dict[int, LineFacts] = {}
#: per task (its stems): line → how many of the task's words it uses. A render packs up to
#: REPACKS + 1 times (render/output.py) and each pack asks every line of the units it
#: considers, ~40 % of a pack's time when each pack counted them again (issue #14); one
#: task's lines are kept
_MATCHES: dict[frozenset[str], dict[str, int]] = {}
_FACTS_KEPT = 64


def line_facts(lines: list[str]) -> LineFacts:
    """`lines`' facts, from the cache when this very list was seen."""
    hit = _FACTS.get(id(lines))
    if hit is not None and hit.lines is lines:
        return hit
    if len(_FACTS) >= _FACTS_KEPT:
        _FACTS.clear()
    tokens = lines_tokens(lines)
    by_line = [0.0, *tokens]
    nonblank = frozenset(compress(count(1), map(str.strip, lines)))  # in C: ~19k lines a query
    facts = LineFacts(lines, tokens, by_line, list(accumulate(by_line)), nonblank,
                      sum(map(by_line.__getitem__, nonblank)))
    _FACTS[id(lines)] = facts
    return facts


def matches_for(stems: frozenset[str]) -> dict[str, int]:
    """The task's line → matching-word counts, filled by the packer as it asks."""
    if stems not in _MATCHES:
        _MATCHES.clear()
        _MATCHES[stems] = {}
    return _MATCHES[stems]
