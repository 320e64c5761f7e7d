"""Which symbols a diff touches, given the symbols' current line spans.

Spans come from the index (new-side line numbers), so a symbol that only
shifted because lines were inserted above it is not reported, and a symbol
that moved is reported at its new place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from graphiq_ci.vcs.hunks import Hunk

#: (path, qualified name, first line, last line), 1-based and inclusive.
Span = tuple[str, str, int, int]


@dataclass(frozen=True)
class ChangedSymbol:
    """Line counts a symbol gained, lost, or had rewritten in place."""

    path: str
    qualified: str
    line: int
    end_line: int
    added: int
    removed: int
    modified: int

    @property
    def changed_lines(self) -> int:
        return self.added + self.removed + self.modified


def _by_size(spans: Iterable[Span]) -> list[Span]:
    """Smallest first, later start first on ties: the first span containing a line is innermost."""
    return sorted(spans, key=lambda s: (s[3] - s[2], -s[2], s[1]))


def _innermost(spans: Sequence[Span], line: int) -> Span | None:
    for span in spans:
        if span[2] <= line <= span[3]:
            return span
    return None


def _deletion_owner(spans: Sequence[Span], after: int) -> Span | None:
    """Lines removed between new lines `after` and `after + 1`.

    Inside a span -> that span; at a span's last line -> that span (its tail was
    cut). Otherwise they sat between symbols, e.g. a whole symbol that moved
    away, and belong to no surviving symbol.
    """
    for span in spans:
        if span[2] <= after and after + 1 <= span[3]:
            return span
    for span in spans:
        if span[3] == after:
            return span
    return None


def changed_symbols(
    hunks: Mapping[str, Sequence[Hunk]], spans: Iterable[Span],
    gone: Mapping[str, set[int]] | None = None,
) -> list[ChangedSymbol]:
    """Attribute each changed line to the innermost symbol span containing it.

    Within a hunk the first min(old, new) lines that are not blank count as modified, the
    surplus as added or removed; blank lines count for nothing, nor do the old lines in
    `gone` (per path: the lines of definitions the branch removed, which no surviving
    definition lost). Lines outside every span (imports, module code) are not reported.
    Result is ordered by path, then line.
    """
    spans_by_path: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        if span[0] in hunks:
            spans_by_path[span[0]].append(span)

    # span -> [added, removed, modified]
    counts: dict[Span, list[int]] = {}

    def charge(span: Span | None, slot: int, amount: int = 1) -> None:
        if span is not None and amount:
            counts.setdefault(span, [0, 0, 0])[slot] += amount

    for path, file_hunks in hunks.items():
        file_spans = spans_by_path.get(path)
        if not file_spans:
            continue
        removed_whole = (gone or {}).get(path, set())
        for hunk in file_hunks:
            lo, hi = hunk.new_start, hunk.new_start + max(hunk.new_count, 1)
            nearby = _by_size(s for s in file_spans if s[2] <= hi and s[3] >= lo)
            # blank lines change no definition: the one a method added after its closing
            # brace reported the whole class as changed, and its callers as the PR's reach
            written = [n for n in hunk.new_lines if n not in hunk.blank_new]
            lost = [n for n in range(hunk.old_start, hunk.old_start + hunk.old_count)
                    if n not in hunk.blank_old and n not in removed_whole]
            rewritten = min(len(lost), len(written))
            for offset, line in enumerate(written):
                charge(_innermost(nearby, line), 2 if offset < rewritten else 0)
            surplus_removed = len(lost) - rewritten
            if surplus_removed:
                owner = (
                    _innermost(nearby, (written or hunk.new_lines)[-1])
                    if hunk.new_count
                    else _deletion_owner(nearby, hunk.new_start)
                )
                charge(owner, 1, surplus_removed)

    return [
        ChangedSymbol(span[0], span[1], span[2], span[3], added, removed, modified)
        for span, (added, removed, modified) in sorted(
            counts.items(), key=lambda item: (item[0][0], item[0][2], item[0][3], item[0][1])
        )
    ]
