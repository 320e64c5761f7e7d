"""Spend the code budget on code: whole definitions, best value per token, merged per file.

The reader (a reviewer, or an LLM) only gets what is rendered, so the budget goes to the units
`context/code.py` ranked, in three passes after the change itself:

0. in PR mode, every changed line (a unit's `focus`) inside its definition's signature, in
   the lead order, before any other code: the change is what a reviewer came for;
1. pieces in order of value per token, `value / cost ** density(budget)`: a unit that fits
   its share of the budget whole is one piece worth its score; a bigger one is two, its core
   (signature, the lines a PR changed, the lines that use the task's words, the closing line,
   `…` where lines are left out: never just its head) and then the rest of it, grown around
   those lines while room lasts. So a dominant long definition gets most of the budget, a
   weak one its core; a unit that no longer fits whole when its turn comes is shown as its
   core;
2. with room left, whatever else fits whole, best first; then every big unit grows further;
3. a file whose remaining lines cost little more than what is already taken is shown whole,
   and gaps of a line or two between shown runs are filled (cheaper to read than a marker).

The result is one `Snippet` per file: files in order of their best unit, lines ascending.

A line costs (characters + 1) / 4 tokens, a multiple of 1/4, so every sum of costs here is
exact in floating point whatever the order: a run's cost is a difference of prefix sums, and a
unit that cannot fit is rejected from a bound (its lines' cost less everything shown in its
file) without building the set of its lines (a pack asks this of every unit, thousands on a
large file, and the sets were most of a render's time).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from graphiq_ci.context.model import CodeCandidates, CodeUnit, Snippet
from graphiq_ci.render.line_facts import LineFacts, line_facts, matches_for
from graphiq_ci.text import stem, stem_probe, terms

#: exponent on a unit's token cost when ordering by value: 1 is pure density (tiny units
#: first), 0 is pure score (the best unit even if it fills the budget alone). DENSITY at
#: DENSITY_BUDGET tokens and below, DENSITY_STEP less per doubling above it (see `density`)
DENSITY = 0.5
DENSITY_BUDGET = 2000
DENSITY_STEP = 0.025
#: tokens a file's block costs beyond its lines: header, fence, blank lines
BLOCK_TOKENS = 18
#: tokens of one `…` line between two runs (and the range it adds to the block's header)
MARKER_TOKENS = 2
MARKER = "…"
#: a file is shown whole when the rest costs at most this share of what is taken (or SLACK)
WHOLE_SHARE = 0.35
WHOLE_SLACK = 40
GAP_LINES = 2
#: one unit takes at most this share of the budget whole; a bigger one is shortened to it
UNIT_SHARE = 0.7
#: a unit too big for its share: what its core (signature, matching lines) is worth of it
CORE_SHARE = 0.5
#: units scoring below this share of the best wait until everything better has been placed
MIN_SCORE = 0.15
SIGNATURE_LINES = 4


class Overhead(NamedTuple):
    """What a format's text around the code costs: per file block, per run after the first.
    Estimated low, the renderer packs again with less room (a whole pack each time)."""

    block: int = BLOCK_TOKENS  # whole tokens: every sum of costs stays exact (module doc)
    marker: int = MARKER_TOKENS


DEFAULT_OVERHEAD = Overhead()


class _File:
    """One file's state during a pack: the lines shown so far, and what they cost."""

    def __init__(self, facts: LineFacts) -> None:
        self.facts = facts  # the source's lines and their costs, shared by every pack of a render
        # plain attributes: the packer reads them per line
        self.lines: list[str] = facts.lines
        self.tokens: list[float] = facts.tokens  # per line, its newline included
        self.nonblank: frozenset[int] = facts.nonblank  # the lines that are not blank
        self.chosen: set[int] = set()
        self.best = 0.0
        self.names: list[str] = []
        self.shortened_units: list[frozenset[int]] = []  # shown in part, once
        self.n_runs = 0  # runs of consecutive lines in `chosen`, kept as lines are added
        self.chosen_cost = 0.0  # cost(chosen), kept as lines are added

    def cost(self, new: Iterable[int]) -> float:
        return sum(map(self.facts.by_line.__getitem__, new))

    def runs_cost(self, runs: list[tuple[int, int]]) -> float | None:
        """cost() of the lines of sorted, disjoint `runs`, from prefix sums; None if they
        are not (then the caller counts the lines)."""
        prefix, end, total = self.facts.prefix, 0, 0.0
        for a, b in runs:
            if a <= end or a < 1 or b < a or b >= len(prefix):
                return None
            total += prefix[b] - prefix[a - 1]
            end = b
        return total

    def runs(self, extra: AbstractSet[int] | None = None) -> int:
        """Runs of consecutive lines once `extra` is shown too. Counted from the new lines
        alone (each one opens a run unless it touches a shown or new line), because the
        packer asks this for every line it considers."""
        new = (extra or set()) - self.chosen
        joins = sum((n - 1 in self.chosen or n - 1 in new) + (n + 1 in self.chosen)
                    for n in new)
        return self.n_runs + len(new) - joins

    def show(self, new: AbstractSet[int]) -> None:
        self.n_runs = self.runs(new)
        self.chosen_cost += self.cost(new - self.chosen)
        self.chosen |= new


class _Packer:
    def __init__(self, cc: CodeCandidates, task_terms: Iterable[str], budget: int,
                 overhead: Overhead) -> None:
        self.cc = cc
        self.block, self.marker = overhead
        self.stems = {stem(t) for t in task_terms}
        self.room: float = budget
        self.files: dict[str, _File] = {}
        self._matches = matches_for(frozenset(self.stems))
        self._probe = stem_probe(frozenset(self.stems))
        self._lines: dict[int, tuple[CodeUnit, frozenset[int]]] = {}

    def file(self, path: str) -> _File:
        if path not in self.files:
            self.files[path] = _File(line_facts(self.cc.sources.get(path, [])))
        return self.files[path]

    def lines_of(self, u: CodeUnit) -> frozenset[int]:
        """The unit's line numbers, built once per pack (the units outlive it: ids are safe)."""
        hit = self._lines.get(id(u))
        if hit is None or hit[0] is not u:
            hit = self._lines[id(u)] = (u, frozenset(_lines_of(u)))
        return hit[1]

    def take_whole(self, u: CodeUnit, f: _File) -> bool:
        """take(u, f, its lines not yet shown): the bound rejects most units without the set."""
        least = f.runs_cost(u.runs)
        if least is not None and least - f.chosen_cost > self.room:
            return False  # what is left of it costs more than the room, as take() would find
        return self.take(u, f, self.lines_of(u) - f.chosen)

    def price(self, f: _File, new: AbstractSet[int]) -> float:
        """Tokens that showing `new` adds: its lines, a header for a new file, new markers."""
        if not new:
            return 0
        header = self.block if not f.chosen else 0
        markers = max(0, f.runs(new) - max(1, f.runs())) * self.marker
        return f.cost(new) + header + markers

    def take(self, u: CodeUnit, f: _File, new: AbstractSet[int],
             shortened: bool = False) -> bool:
        if not new or f.cost(new) > self.room:  # the price is at least the lines' cost
            return False
        price = self.price(f, new)
        if price > self.room:
            return False
        self.room -= price
        f.show(new)
        f.best = max(f.best, u.score)
        if u.kind != "module":
            f.names.append(u.qualified)
        if shortened:
            f.shortened_units.append(self.lines_of(u))
        return True

    def matches(self, line: str) -> int:
        """How many of the task's words the line uses (each line is asked several times)."""
        if line not in self._matches:
            self._matches[line] = len({stem(t) for t in terms(line)} & self.stems) \
                if self._probe.search(line.lower()) else 0
        return self._matches[line]

    def shortened(self, u: CodeUnit, f: _File, room: float, words: bool = True) -> set[int]:
        """The signature, the unit's focus (the lines a PR changed), the lines using task
        words (most words first, unless not `words`), the closing line, within `room` tokens.
        Lines outside every definition have no signature or closing line: only their focus
        and matching lines are kept."""
        lines = self.lines_of(u) - f.chosen
        if not lines:
            return set()
        keep: set[int] = set()
        if u.kind != "module":
            n = first = min(lines)
            keep.add(first)
            while (n in lines and len(keep) < SIGNATURE_LINES
                   and not _opens_body(f.lines[n - 1])):
                n += 1
                if n in lines:
                    keep.add(n)
        if self.price(f, keep) > room:
            return set()
        focus = set(u.focus)
        hits = [n for n in u.focus if n in lines and n not in keep] + sorted(
            (n for n in lines if words and n not in keep and n not in focus
             and self.matches(f.lines[n - 1])),
            key=lambda n: (-self.matches(f.lines[n - 1]), n))
        # price(keep | {n}) for each candidate, kept up to date line by line: pricing the
        # whole set again for every matching line was quadratic in a long definition
        header = 0 if f.chosen else self.block
        before = max(1, f.runs())
        cost, runs = f.cost(keep), f.runs(keep)
        # a matching line that repeats one kept says nothing new: build_server's seven
        # `@server.tool(annotations=READ_ONLY)` lines all use the task's word "server"
        said = {f.lines[k - 1].strip() for k in keep}
        closing = max(lines) if u.kind != "module" else 0
        for n in hits + ([closing] if closing else []):
            if n in keep or (n not in focus and n != closing
                             and f.lines[n - 1].strip() in said):
                continue
            joins = (n - 1 in f.chosen or n - 1 in keep) + (n + 1 in f.chosen or n + 1 in keep)
            price = cost + f.tokens[n - 1] + header + max(0, runs + 1 - joins - before) * \
                self.marker
            if price <= room:
                keep.add(n)
                said.add(f.lines[n - 1].strip())
                cost += f.tokens[n - 1]
                runs += 1 - joins
        return keep

    def widen(self, u: CodeUnit) -> None:
        """Show more of a shortened unit: the lines nearest to its lines that use task words
        first (a change sits near the words that describe it), else nearest to what is shown."""
        f = self.file(u.file)
        shown = f.chosen & self.lines_of(u)
        anchors = ({n for n in u.focus if n in shown}
                   or {n for n in shown if self.matches(f.lines[n - 1])} or shown)
        if not anchors:
            return
        marks = sorted(anchors)

        def distance(n: int) -> int:  # to the nearest anchor, by bisection
            k = bisect_left(marks, n)
            return min(abs(n - marks[j]) for j in (k - 1, k) if 0 <= j < len(marks))

        rest = sorted(self.lines_of(u) - f.chosen, key=lambda n: (distance(n), n))
        for n in rest:
            if self.room < f.tokens[n - 1]:
                break
            self.take(u, f, {n})

    def whole_files(self) -> None:
        for path, f in self.files.items():
            limit = max(WHOLE_SLACK, WHOLE_SHARE * f.chosen_cost)
            shown = [n for n in f.chosen if n in f.nonblank]
            # cost(nonblank - chosen), from the file's total: exact (see the module doc)
            if len(shown) < len(f.nonblank) and \
                    f.facts.nonblank_cost - f.cost(shown) <= limit:
                u = CodeUnit(path, path, path, "module", 1, len(f.lines), [], f.best)
                self.take(u, f, set(f.nonblank - f.chosen))

    def fill_gaps(self) -> None:
        for f in self.files.values():
            shown = sorted(f.chosen)
            for a, b in zip(shown, shown[1:], strict=False):
                gap = set(range(a + 1, b))
                if gap and len(gap) <= GAP_LINES and f.cost(gap) <= self.room + self.marker:
                    self.room -= f.cost(gap) - self.marker
                    f.show(gap)


class _Piece(NamedTuple):
    """What the greedy pass orders: a whole unit, or a big unit's core (signature and matching
    lines) and then the rest of it, each worth its share of the unit's score."""

    unit: CodeUnit
    part: str  # "whole" | "core" | "rest"
    value: float
    cost: float


def _pieces(p: _Packer, units: list[CodeUnit], cap: float, top: float) -> list[_Piece]:
    out = []
    for u in units:
        f = p.file(u.file)
        cost = p.price(f, p.lines_of(u))
        value = u.score / top
        if cost <= cap:
            out.append(_Piece(u, "whole", value, cost))
            continue
        core = p.price(f, p.shortened(u, f, cap))
        out.append(_Piece(u, "core", value * CORE_SHARE, max(1, core)))
        out.append(_Piece(u, "rest", value * (1 - CORE_SHARE), max(1, cost - core)))
    return out


def pack(cc: CodeCandidates, task_terms: Iterable[str], budget: int,
         overhead: Overhead = DEFAULT_OVERHEAD) -> list[Snippet]:
    """The code blocks to render within `budget` tokens, best file first."""
    p = _Packer(cc, task_terms, budget, overhead)
    cap = max(1, int(budget * UNIT_SHARE))
    top = cc.units[0].score if cc.units else 0.0
    wanted = [u for u in cc.units if u.score >= top * MIN_SCORE]

    exponent = density(budget)

    def by_value(piece: _Piece) -> float:
        return float(piece.value / piece.cost ** exponent)

    _show_changes(p)  # the change is what the reviewer came for: the passes below grow it
    pieces = sorted(_pieces(p, wanted, cap, top or 1.0), key=by_value, reverse=True)
    for piece in pieces:
        if p.room <= p.marker + p.block // 2:
            break
        u, f = piece.unit, p.file(piece.unit.file)
        if piece.part == "whole":
            if not p.take_whole(u, f):
                # denser pieces took the room it needed whole: its signature and the lines
                # that use the task's words still fit, and may grow later
                p.take(u, f, p.shortened(u, f, p.room), shortened=True)
        elif piece.part == "core":
            p.take(u, f, p.shortened(u, f, min(p.room, cap)), shortened=True)
        else:  # the rest grows what its core showed; before its core it finds nothing to grow
            p.widen(u)
    for u in cc.units:  # room left: whatever else fits whole, best first
        p.take_whole(u, p.file(u.file))
    for piece in pieces:
        if piece.part == "rest" or (piece.part == "whole" and not p.lines_of(
                piece.unit) <= p.file(piece.unit.file).chosen):
            p.widen(piece.unit)
    p.whole_files()
    p.fill_gaps()
    ranked = sorted((kv for kv in p.files.items() if kv[1].chosen), key=lambda kv: -kv[1].best)
    return [_snippet(path, f, cc.languages.get(path, "")) for path, f in ranked]


def density(budget: int) -> float:
    """The exponent on a piece's cost: the bigger the budget, the less a long unit's length
    counts against it. At 8,000 tokens a tail of 150 accessor methods (value 0.3, 50 tokens
    each) went before bubbletea's `flush` (value 0.7, 1,000 tokens), which then fitted only
    as its core. At 0.45 there (0.5 at 2,000 as before): CodeR at 8,000 on dev 0.852 -> 0.862,
    dev2 0.736 -> 0.739; 0.40 helped dev as much and dev2 less, 0.5 at every budget least."""
    return DENSITY - DENSITY_STEP * max(0.0, math.log2(max(budget, 1) / DENSITY_BUDGET))


def _show_changes(p: _Packer) -> None:
    """Pass 0: a PR's changed lines (each unit's focus) inside their signatures, in lead
    order, while room lasts."""
    for u in p.cc.units:
        if u.focus:
            f = p.file(u.file)
            p.take(u, f, p.shortened(u, f, p.room, words=False), shortened=True)


def change_tokens(cc: CodeCandidates, overhead: Overhead = DEFAULT_OVERHEAD) -> int:
    """What pass 0 costs with room for all of it: the changed lines, their signatures and
    closing lines, file headers and `…` markers. The room the text around the code should
    leave: counting the changed lines alone left too little, and the lists of a comment
    whose tests grew pushed a PR's own changed lines out (google/auto's imports)."""
    unlimited = 1 << 30
    p = _Packer(cc, (), unlimited, overhead)
    _show_changes(p)
    return math.ceil(unlimited - p.room)


def _lines_of(u: CodeUnit) -> set[int]:
    return {n for a, b in u.runs for n in range(a, b + 1)}


def _opens_body(line: str) -> bool:
    text = line.rstrip()
    return text.endswith(("{", ":", "=>", "->", "=")) or text.endswith("do")


def _snippet(path: str, f: _File, language: str) -> Snippet:
    shown = sorted(f.chosen)
    out: list[str] = []
    ranges: list[tuple[int, int]] = []
    for k, n in enumerate(shown):
        if k and shown[k - 1] != n - 1:
            out.append(MARKER)
        if not ranges or ranges[-1][1] != n - 1:
            ranges.append((n, n))
        else:
            ranges[-1] = (ranges[-1][0], n)
        line = f.lines[n - 1]
        if line.strip():
            out.append(line)
        elif out and out[-1].strip():
            out.append("")  # one blank line at a time, none leading
    label = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in ranges)
    return Snippet(symbol_id=0, file=path, line=shown[0], end_line=shown[-1], language=language,
                   code="\n".join(out), shortened=len(ranges) > 1 or any(
                       not lines <= f.chosen for lines in f.shortened_units),
                   ranges=label, symbols=list(dict.fromkeys(f.names)))
