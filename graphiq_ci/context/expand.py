"""BFS from the entry points under budgets, then edge recovery among what was kept (CodeGraph).

Budgets: `max_nodes` in all; one file at most ~20 % of them; test files ~15 % unless the task
is about tests; class and interface entry points bring their type hierarchy within max_nodes/4.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from graphiq_ci.model import EdgeKind
from graphiq_ci.search import GraphIndex
from graphiq_ci.search.graph import EDGE_KINDS, STRUCTURAL_CODES

FILE_SHARE = 0.2
TEST_SHARE = 0.15
HIERARCHY_SHARE = 0.25
_HIERARCHY = frozenset(
    i for i, k in enumerate(EDGE_KINDS) if k in (EdgeKind.EXTENDS, EdgeKind.IMPLEMENTS)
)
_TYPES = frozenset({"class", "interface", "struct", "trait", "enum"})


class Budget(NamedTuple):
    """How many symbols the BFS may keep: in all, per file, and tests."""

    max_nodes: int
    per_file: int
    tests: int

    @classmethod
    def for_task(cls, max_nodes: int, about_tests: bool) -> Budget:
        return cls(
            max_nodes=max_nodes,
            per_file=max(2, math.ceil(max_nodes * FILE_SHARE)),
            tests=max_nodes if about_tests else max(1, math.floor(max_nodes * TEST_SHARE)),
        )


class Kept:
    """Positions kept so far, in order, under a `Budget` (all, per file, tests)."""

    def __init__(self, g: GraphIndex, budget: Budget) -> None:
        self.g = g
        self.budget = budget
        self.order: list[int] = []
        self.per_file: dict[int, int] = {}
        self.tests = 0

    def full(self) -> bool:
        return len(self.order) >= self.budget.max_nodes

    def add(self, i: int, spread: bool = True) -> bool:
        """Keep `i` if the budget allows; `spread=False` waives the per-file cap (it still
        counts), for definitions ranked on their own evidence rather than reached by the walk."""
        g, b = self.g, self.budget
        if i in self.order or self.full() or g.kinds[i] == "file":
            return False
        f = g.file_of[i]
        if spread and self.per_file.get(f, 0) >= b.per_file:
            return False
        if g.is_test(i) and self.tests >= b.tests:
            return False
        self.order.append(i)
        self.per_file[f] = self.per_file.get(f, 0) + 1
        self.tests += g.is_test(i)
        return True


def expand(g: GraphIndex, entries: list[int], budget: Budget, depth: int,
           priority: dict[int, float], also: Sequence[int] = ()) -> list[int]:
    """Kept positions: entry points, then `also` (strong candidates BFS might not reach), then
    the entries' type hierarchy, then BFS by closeness and score."""
    kept = Kept(g, budget)
    for i in entries:
        kept.add(i)
    for i in also:
        kept.add(i)
    hierarchy_room = max(1, int(budget.max_nodes * HIERARCHY_SHARE))
    for i in entries:
        if g.kinds[i] in _TYPES:
            for j, _, code in g.out[i] + g.inc[i]:
                if code in _HIERARCHY and hierarchy_room > 0 and kept.add(j):
                    hierarchy_room -= 1
    per_entry = max(2, (budget.max_nodes - len(kept.order)) // max(1, len(entries)))
    for entry in entries:
        added = 0
        queue: deque[tuple[int, int]] = deque([(entry, 0)])
        seen = {entry}
        while queue and added < per_entry and not kept.full():
            i, d = queue.popleft()
            if d >= depth:
                continue
            nbrs = [(j, w) for j, w, code in g.out[i] + g.inc[i]
                    if code in STRUCTURAL_CODES and j not in seen]
            nbrs.sort(key=lambda jw: -(jw[1] + priority.get(jw[0], 0.0)))
            for j, _ in nbrs:
                seen.add(j)
                if kept.add(j):
                    added += 1
                queue.append((j, d + 1))
                if added >= per_entry:
                    break
    return kept.order


def recover_edges(g: GraphIndex, kept: list[int]) -> list[tuple[int, int, str]]:
    """Every structural edge whose two ends were both kept (ids, not positions)."""
    keep = set(kept)
    out = []
    for i in kept:
        for j, _, code in g.out[i]:
            if j in keep and code in STRUCTURAL_CODES:
                out.append((g.ids[i], g.ids[j], EDGE_KINDS[code].value))
    return out
