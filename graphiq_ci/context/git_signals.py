"""Git-derived boosts for one run: branch, recency, churn and co-change, as per-file features;
and the history evidence PR mode and `affected` report (co-change, `written_with`).

Computed once here (the search layer owns the clock and the branch state) and handed to the
scorer as `Boosts`, so a new git signal is a new key, never a new parameter.
"""

from __future__ import annotations

import json
import math
import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from graphiq_ci.search import Boosts, GraphIndex
from graphiq_ci.store import Store
from graphiq_ci.vcs import BranchDiff, Hunk, recency_boost

MIN_RECENCY = 0.05
COCHANGE_MIN_CONFIDENCE = 0.3


def git_boosts(store: Store, weights: dict[str, float], branch: BranchDiff | None) -> Boosts:
    per_file: dict[str, dict[str, float]] = defaultdict(dict)
    rows = store.conn.execute("SELECT path, recency, churn FROM files WHERE skip_reason = ''"
                              ).fetchall()
    # Age is measured from the newest change in the repository, not the wall clock, so a
    # dormant repository (or an old checkout) still knows which files moved last.
    newest = max((r[1] for r in rows), default=0.0)
    most = max((r[2] for r in rows), default=0)
    for path, changed_at, churn in rows:
        boost = recency_boost(newest - changed_at) if changed_at > 0 else 0.0
        if boost >= MIN_RECENCY:
            per_file[path]["recency"] = round(weights["recency"] * boost, 4)
        if churn and most:
            share = math.log1p(churn) / math.log1p(most)
            per_file[path]["churn"] = round(weights["churn"] * share, 4)
    if branch is not None and branch.files:
        changed = set(branch.paths)
        dirs = {posixpath.dirname(p) for p in changed} - {""}  # the root is no neighbourhood
        for (path,) in store.conn.execute("SELECT path FROM files"):
            if path in changed:
                per_file[path]["branch"] = weights["branch"]
            elif posixpath.dirname(path) in dirs:
                per_file[path]["branch_dir"] = weights["branch_dir"]
        for path, confidence in cochanged_with(store, changed).items():
            per_file[path]["cochange"] = round(weights["cochange"] * confidence, 4)
    return Boosts(per_file=dict(per_file))


def cochanged_with(store: Store, changed: set[str]) -> dict[str, float]:
    """Unchanged files that usually change with `changed`, by their best confidence."""
    out: dict[str, float] = {}
    marks = ",".join("?" * len(changed))
    for b, confidence in store.conn.execute(
        f"SELECT b, max(confidence) FROM cochange WHERE a IN ({marks}) AND confidence >= ? "
        f"GROUP BY b", [*sorted(changed), COCHANGE_MIN_CONFIDENCE],
    ):
        if b not in changed:
            out[b] = float(confidence)
    return out


#: a pairing needs this many commits behind it before a reviewer is told about it
EVIDENCE_SUPPORT = 3
#: and must be this many times likelier than the file's own rate of change (lift): a version
#: file or a changelog that changes in most commits pairs with everything, and says nothing
EVIDENCE_LIFT = 1.5
EVIDENCE_LIMIT = 8


class CoChanged(NamedTuple):
    """An unchanged file that usually changes with a changed one, with the evidence."""

    path: str  # changes with `partner`, which this branch changed
    partner: str
    together: int  # commits that changed both
    partner_commits: int  # commits that changed `partner`
    lift: float  # P(path | partner) / P(path)


def cochange_evidence(store: Store, changed: set[str], limit: int = EVIDENCE_LIMIT,
                      keep: Callable[[str], bool] | None = None) -> list[CoChanged]:
    """Unchanged files (those `keep` accepts) that change with the branch's files, each with
    its evidence: at least EVIDENCE_SUPPORT commits together, ranked by lift, not raw share."""
    window, churn = _churn(store)
    if not changed or not window:
        return []
    marks = ",".join("?" * len(changed))
    best: dict[str, CoChanged] = {}
    for a, b, support in store.conn.execute(
        f"SELECT a, b, support FROM cochange WHERE a IN ({marks}) AND support >= ?",
        [*sorted(changed), EVIDENCE_SUPPORT],
    ):
        if b in changed or not churn.get(a) or not churn.get(b) or (keep and not keep(b)):
            continue
        lift = (support / churn[a]) / (churn[b] / window)
        if lift >= EVIDENCE_LIFT and (b not in best or lift > best[b].lift):
            best[b] = CoChanged(b, a, int(support), int(churn[a]), round(lift, 2))
    return sorted(best.values(), key=lambda c: (-c.lift, c.path))[:limit]


#: a file edited in fewer of the commits that last wrote the changed definitions is not linked
#: to them: once is a sweep across the suite, a shared fixture, a coincidence
WRITTEN_MIN = 2


class WrittenWith(NamedTuple):
    """A file edited in `together` of the `commits` that last wrote the changed definitions'
    lines (commits of at most `vcs.blame.MAX_FILES` files)."""

    together: int
    commits: int


def written_with(root: Path, g: GraphIndex, changed: list[int], hunks: dict[str, list[Hunk]],
                 base_commit: str, paths: Iterable[str]) -> dict[str, WrittenWith]:
    """The files (tests or not) edited in at least WRITTEN_MIN of the commits that last wrote
    the changed definitions, as the base had them (`vcs/blame.py`), the branch's own and those
    gone since left out. Only the innermost definitions count: a class's span would blame
    every method in it."""
    # imported here: a task's context imports this module and never blames
    from graphiq_ci.vcs.blame import changed_with, last_writers, old_span
    from graphiq_ci.vcs.repo import open_repo

    spans: dict[str, list[tuple[int, int]]] = {}
    for i in changed:
        inner = [j for j in changed if j != i and g.file_of[j] == g.file_of[i]
                 and g.lines[i] <= g.lines[j] and g.end_lines[j] <= g.end_lines[i]
                 and (g.lines[j], g.end_lines[j]) != (g.lines[i], g.end_lines[i])]
        span = old_span(hunks.get(g.path(i), []), g.lines[i], g.end_lines[i])
        if not inner and span is not None:
            spans.setdefault(g.path(i), []).append(span)
    if not spans:
        return {}
    with open_repo(root) as repo:
        counts, commits = changed_with(repo, last_writers(repo, base_commit, spans), paths)
    return {path: WrittenWith(n, commits) for path, n in counts.items()
            if n >= WRITTEN_MIN and (root / path).is_file()}


def usual_rates(store: Store) -> dict[str, float]:
    """path → the share of the co-change window's counted commits that changed it: what a
    pairing's share is compared with (lift)."""
    window, churn = _churn(store)
    return {path: n / window for path, n in churn.items()}  # empty when there is no window


def _churn(store: Store) -> tuple[int, dict[str, int]]:
    """The co-change window's counted commits, and path → how many of them changed it (the
    files it never changed left out): both sides of a lift."""
    window = _counted_commits(store)
    if not window:
        return 0, {}
    return window, dict(store.conn.execute("SELECT path, churn FROM files WHERE churn > 0"))


def _counted_commits(store: Store) -> int:
    """Commits in the co-change window that were counted (not skipped as too large)."""
    state = json.loads(store.get_meta("cochange_state") or "null") or {}
    return sum(1 for _, files in state.get("commits", []) if files is not None)
