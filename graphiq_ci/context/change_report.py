"""What a reviewer asks of each change: how big, who calls it, and which callers the PR left.

`changed_file_lines` counts each changed file's added and removed lines (code or not: a
CHANGELOG edit counts too). `symbol_changes` reports, per changed definition, whether the
branch added it or moved its signature, how many callers it has in the repository, and each
call site with whether this PR touched the caller; after the resolved call sites come the
calls that may reach a changed method by dispatch (context/dispatch.py), marked as possible.
A signature change whose callers the PR did not update is the warning no peer gives: those
are the places that may now be wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from graphiq_ci.context.code import read_lines
from graphiq_ci.context.dispatch import possible_callers
from graphiq_ci.context.model import CallSite, ChangedFile, SymbolChange
from graphiq_ci.context.relations import USES, Place, incoming, relations
from graphiq_ci.model import CALLABLE_KINDS
from graphiq_ci.search import GraphIndex
from graphiq_ci.store import Store
from graphiq_ci.vcs import BranchDiff, Hunk

if TYPE_CHECKING:  # opened in PR mode only
    from graphiq_ci.vcs.repo import TextAt

#: call sites listed per changed symbol (the count says how many there are in all)
MAX_CALL_SITES = 8
#: a signature ends where its body opens; no signature runs longer than this
MAX_SIGNATURE_LINES = 15
_CALLABLES = frozenset(k.value for k in CALLABLE_KINDS)
_BODY_OPENERS = (":", "{", "=>", "=", "->")
#: modifiers whose addition asks nothing of a definition's callers: a wider visibility
#: (`public`, `export`, `pub`, `open`) or a promise about the body (`const`, `final`, …)
_ASKS_NOTHING = frozenset({"public", "export", "pub", "open", "const", "final",
                           "synchronized", "inline", "override"})
_TOKEN = re.compile(r"\w+|[^\w\s]")


def changed_file_lines(diff: BranchDiff, hunks: dict[str, list[Hunk]]) -> list[ChangedFile]:
    """Every file the branch changed, with its +/- line counts (None: binary, no hunks)."""
    out = []
    for change in diff.files:
        hs = hunks.get(change.path)
        out.append(ChangedFile(change.path, change.status.value,
                               sum(h.new_count for h in hs) if hs else None,
                               sum(h.old_count for h in hs) if hs else None))
    return out


def signature_lines(lines: list[str], line: int, end_line: int) -> range:
    """The lines of a definition's signature: from its first line to the one opening its body."""
    last = min(end_line, line + MAX_SIGNATURE_LINES - 1, len(lines))
    for n in range(line, last + 1):
        if lines[n - 1].rstrip().endswith(_BODY_OPENERS) or "{" in lines[n - 1]:
            return range(line, n + 1)
    return range(line, line + 1)


def symbol_changes(store: Store, g: GraphIndex, root: Path, changed: list[int],
                   hunks: dict[str, list[Hunk]], changed_lines: dict[str, set[int]],
                   sources: dict[str, list[str]], base: TextAt) -> list[SymbolChange]:
    """`sources`: files already read (the code units'), added to as more are needed;
    `base`: the files as the branch's base has them, to read a changed signature's old text."""
    out = []
    for i in changed:
        path = g.path(i)
        touched = changed_lines.get(path, set())
        if path not in sources:
            sources[path] = read_lines(root, path)
        added = _inserted(hunks.get(path, []), g.lines[i], g.end_lines[i])
        sig = signature_lines(sources[path], g.lines[i], g.end_lines[i])
        signature = (not added and g.kinds[i] in _CALLABLES and bool(touched & set(sig))
                     and _asks_callers(_old_signature(base, path, hunks.get(path, []), sig),
                                       sources[path][sig.start - 1:sig.stop - 1]))
        callers = {j for j, _, code in incoming(g, i) if code in USES and g.kinds[j] != "file"}
        rel = relations(store, g, i, limit=MAX_CALL_SITES)
        resolved = rel.callers
        room = MAX_CALL_SITES - len(resolved)  # possible sites only where resolved ones leave room
        shown = {r.qualified for r in resolved}
        possible = [p for p in possible_callers(store, g, i, MAX_CALL_SITES)
                    if p.qualified not in shown][:room] if room > 0 else []
        sites = [CallSite(p.qualified, p.file, p.at or p.line,
                          updated_by_branch(p.file, p.line, p.end_line, changed_lines),
                          k >= len(resolved))
                 for k, p in enumerate([*resolved, *possible])]
        if signature:  # a test calling the old signature breaks as any caller does
            sites += _test_sites(g, i, rel.tests, changed_lines)  # MAX_CALL_SITES at most
        out.append(SymbolChange(g.ids[i], signature, len(callers), sites, added))
    return out


def _test_sites(g: GraphIndex, i: int, tests: list[Place], changed_lines: dict[str, set[int]]
                ) -> list[CallSite]:
    """The tests among `tests` (relations' list) that call `i` themselves, not those linked to
    it by name or by a test path alone."""
    calling = {(g.path(j), g.lines[j]) for j, _, code in incoming(g, i)
               if code in USES and g.is_test(j)}
    return [CallSite(t.qualified, t.file, t.at or t.line,
                     updated_by_branch(t.file, t.line, t.end_line, changed_lines), test=True)
            for t in tests if (t.file, t.line) in calling]


def _inserted(hunks: list[Hunk], line: int, end_line: int) -> bool:
    """The definition lies inside lines the branch inserted (a hunk that removed nothing): it
    is new, so its signature did not change and no caller was left behind. Every line of its
    signature is a changed line, which read as "signature changed" before."""
    return any(h.old_count == 0 and h.new_start <= line and end_line < h.new_start + h.new_count
               for h in hunks)


def updated_by_branch(path: str, line: int, end_line: int,
                      changed_lines: dict[str, set[int]]) -> bool:
    """The branch changed a line of the definition at `path`, `line`..`end_line`."""
    return any(line <= n <= end_line for n in changed_lines.get(path, ()))


def _old_signature(base: TextAt, path: str, hunks: list[Hunk], sig: range) -> list[str] | None:
    """The base's lines of the signature now at `sig`, None when they cannot be read."""
    from graphiq_ci.vcs.blame import old_span  # PR mode only

    span = old_span(hunks, sig.start, sig.stop - 1)
    lines = base.lines(path) if span is not None else None
    if span is None or lines is None or span[0] > len(lines):
        return None
    old = signature_lines(lines, span[0], len(lines))
    return lines[old.start - 1:old.stop - 1]


def _asks_callers(old: list[str] | None, new: list[str]) -> bool:
    """Whether a signature's change may ask something of its callers: not when the branch only
    reformatted it or added a modifier that asks nothing (`And(...)` -> `public And(...)`,
    axum's `pub fn max` -> `pub const fn max`); a parameter, a default, a type or a modifier
    taken away (a narrower visibility, `const` a caller relied on) does. True when the old
    text is unknown."""
    if old is None:
        return True
    before, after = _TOKEN.findall(" ".join(old)), _TOKEN.findall(" ".join(new))
    if [t for t in before if t not in _ASKS_NOTHING] != \
            [t for t in after if t not in _ASKS_NOTHING]:
        return True
    return bool(_ASKS_NOTHING.intersection(before) - set(after))
