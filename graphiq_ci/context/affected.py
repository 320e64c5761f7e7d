"""The tests that reach a branch's change: what `graphiq-ci affected` and the MCP tool report.

The changed symbols come from the branch's hunks (as in PR mode); the tests are found by
walking callers backwards from them (`relations.reaching_tests`), then by name: test files
named after a changed file or definition (`test_parse.py`, `res.send.js`) or a folder holding
the change (`relations.named_after`), then from history: test files edited in the commits that
last wrote the changed definitions (`vcs/blame.py`), and test files that change together with
the branch's source files (co-change, with its evidence). A test file the branch changed is
affected by its own change, whatever else links it.

Each file's evidence is then weighed (`strength`) and only the strongest files are listed;
the others are kept apart as `weaker` (`--all` lists them too). A change to a widely used
definition reaches dozens of test files in one hop (jsoup's `Document`: 40), and history pairs
a busy file with most of the suite: listed whole, the few tests written for the changed code
drowned (on the PR benchmark, the test files a PR itself changed were 31 % of what `affected`
named on dev and 21 % on dev2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphiq_ci.context.api import branch_of
from graphiq_ci.context.git_signals import (
    CoChanged,
    WrittenWith,
    cochange_evidence,
    written_with,
)
from graphiq_ci.context.pr_mode import branch_change
from graphiq_ci.context.relations import (
    Place,
    ReachingTest,
    case_id,
    is_test_case,
    named_after,
    place,
    reaching_tests,
)
from graphiq_ci.context.removed import Removal, references_left
from graphiq_ci.context.workspace import Workspace
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index.walk import inside
from graphiq_ci.paths import is_test_path, repo_relative
from graphiq_ci.vcs import Hunk

#: test files added from co-change history alone
MAX_COCHANGED_TESTS = 5
#: what each kind of evidence is worth (see `strength`)
NAMED_WEIGHT = 1.0
REACH_WEIGHT = 1.5  # a test calling the changed symbol itself; halved per further hop
COCHANGE_WEIGHT = 1.5  # a test changing in FULL_SHARE of its partner's commits, or more
FULL_SHARE = 0.5
#: a test edited in WRITTEN_FULL or more of the commits that last wrote the changed
#: definitions (git_signals.written_with: two at least)
WRITTEN_WEIGHT = 3.0
WRITTEN_FULL = 3
#: listed: the files whose strength is at least this share of the strongest file's
KEEP_SHARE = 0.8


@dataclass
class AffectedFile:
    """One test file to run, with the test cases in it and why each one is in."""

    path: str
    cases: list[ReachingTest] = field(default_factory=list)
    changed: bool = False  # the branch changed this file itself
    named_after: str = ""  # the changed file or definition its name follows
    cochanged: CoChanged | None = None  # history: it changes with a file the branch changed
    written_with: WrittenWith | None = None  # history: edited with the changed definitions

    @property
    def strength(self) -> float:
        """How sure the evidence makes it that this file tests the change. Each kind adds:
        being named after it; reaching it by calls (less per hop: a test calling the changed
        function is about it, one calling a caller of a caller rarely is); and history, by
        the share of the partner's commits that changed this file too (lift alone ranks a
        rarely changed file paired three times above a test changed in most of its
        partner's commits). A file the branch changed itself outranks everything."""
        if self.changed:
            return float("inf")
        score = NAMED_WEIGHT if self.named_after else 0.0
        if self.cases:
            hops = min(len(t.via) for t in self.cases) - 1
            score += REACH_WEIGHT / 2 ** (hops - 1)
        if self.cochanged:
            share = self.cochanged.together / self.cochanged.partner_commits
            score += COCHANGE_WEIGHT * min(1.0, share / FULL_SHARE)
        if self.written_with:
            score += WRITTEN_WEIGHT * min(1.0, self.written_with.together / WRITTEN_FULL)
        return score


@dataclass
class Affected:
    compared_with: dict[str, Any]
    changed: list[Place]
    files: list[AffectedFile]
    notes: list[str] = field(default_factory=list)
    weaker: list[AffectedFile] = field(default_factory=list)  # reached, with less evidence

    @property
    def case_ids(self) -> list[str]:
        return [t.case_id for f in self.files for t in f.cases if t.case_id]


def affected(ws: Workspace, base: str | None = None,
             paths: list[str] | None = None, everything: bool = False) -> Affected:
    """The tests reaching what the branch changed compared with `base` (default: the trunk's
    fork point), or, given `paths`, every definition in those files (a CI step that already
    knows what changed), strongest evidence first: only the strongest unless `everything`.
    The index must be fresh: the caller refreshes it."""
    g = ws.graph()
    notes: list[str] = []
    hunks: dict[str, list[Hunk]] | None = None
    removals: list[Removal] = []
    if paths is None:
        changed, paths, compared_with, notes, hunks, removals = _branch_change(ws, base)
    else:
        paths = [repo_relative(p) for p in paths]  # one line for a path outside the repo
        wanted = {g.paths.index(p) for p in set(paths) & set(g.paths)}
        changed = [i for i in range(len(g.ids)) if g.file_of[i] in wanted
                   and g.kinds[i] != "file"]
        compared_with = {"ref": None, "commit": None}
    files: dict[str, AffectedFile] = {}
    for path in paths:
        if is_test_path(path) and inside(ws.root, ws.root / path) and (ws.root / path).is_file():
            files[path] = AffectedFile(path, changed=True)
    for test in reaching_tests(g, changed):
        files.setdefault(test.place.file, AffectedFile(test.place.file)).cases.append(test)
    # a test still calling a definition the branch removed fails: it calls the change itself
    for r in removals:
        for path, _, i in references_left(ws.store, g, ws.root, r) or ():
            if i is not None and g.is_test(i) and g.kinds[i] != "file":
                files.setdefault(path, AffectedFile(path)).cases.append(ReachingTest(
                    place(g, i), case_id(g, i) if is_test_case(g, i) else "",
                    (g.qualified[i], f"{r.qualified} (removed)"), i))
    # Tests the call graph cannot see (a CLI runner, a package import, an HTTP client) are
    # still named after what they test, and change with it: that evidence, marked as such.
    for path, subject in named_after(g, changed, paths).items():
        files.setdefault(path, AffectedFile(path)).named_after = subject
    if hunks is not None and compared_with["commit"]:
        for path, written in written_with(ws.root, g, changed, hunks, compared_with["commit"],
                                          paths).items():
            if is_test_path(path):
                files.setdefault(path, AffectedFile(path)).written_with = written
    source = {p for p in paths if not is_test_path(p)}
    for c in cochange_evidence(ws.store, source, MAX_COCHANGED_TESTS, is_test_path):
        files.setdefault(c.path, AffectedFile(c.path)).cochanged = c
    listed, weaker = strongest(list(files.values()))
    if everything:
        listed, weaker = listed + weaker, []
    return Affected(compared_with, [place(g, i) for i in changed], listed, notes, weaker)


def strongest(files: list[AffectedFile]) -> tuple[list[AffectedFile], list[AffectedFile]]:
    """The files by strength, best first, split into those within KEEP_SHARE of the best
    (and every file the branch changed) and the rest."""
    ranked = sorted(files, key=lambda f: -f.strength)  # stable: equal strength keeps order
    best = max((f.strength for f in ranked if not f.changed), default=0.0)
    keep: list[AffectedFile] = []
    rest: list[AffectedFile] = []
    for f in ranked:
        (keep if f.changed or f.strength >= best * KEEP_SHARE else rest).append(f)
    return keep, rest


def _branch_change(ws: Workspace, base: str | None
                   ) -> tuple[list[int], list[str], dict[str, Any], list[str],
                              dict[str, list[Hunk]], list[Removal]]:
    if not (ws.root / ".git").exists():
        raise GraphiqError(f"{ws.root} is not a git repository: there is no branch to compare")
    config, notes = ws.config()
    branch, note = branch_of(ws.root, base, config.trunk)
    if branch is None or branch.head_commit is None:
        why = note or "; ".join(branch.notes if branch else ())
        raise GraphiqError(f"no branch to compare: {why or 'the repository has no commit'}")
    g = ws.graph()
    change = branch_change(g, ws.root, branch)
    indexed = set(g.paths)
    hunks = {p: h for p, h in change.hunks.items() if p in indexed}
    changed, removals = change.changed, change.removals
    # A removed member changes its type: a test reaching the type may have used it (through
    # dispatch, a subclass, reflection), though the comment lists no such type as changed.
    owners = {(r.file, r.owner) for r in removals if r.owner}
    changed += [i for i in range(len(g.ids))
                if (g.path(i), g.qualified[i]) in owners and i not in changed]
    return (changed, list(branch.paths), {"ref": branch.base_ref, "commit": branch.base_commit},
            notes + list(branch.notes), hunks, removals)
