"""The commits that last wrote a changed definition's lines (`git blame`), and their files.

A test that was edited in the same commits as a function's current lines was written or fixed
for that function, even where no call links them: a CLI runner, an HTTP client or a fixture
file stands between them. This is co-change at the level of one definition, which the
file-level pairs (`cochange.py`) blur: a busy file changes with most of the suite.

The definitions are read where the branch forked (`old_span` maps a line range of the work
tree back through the branch's hunks), so the lines the branch rewrote still name the commits
that wrote them before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from graphiq_ci.vcs.hunks import Hunk
from graphiq_ci.vcs.log import iter_commits_with_files
from graphiq_ci.vcs.repo import Repo, run_git

#: a commit touching more files than this is a sweep (a rename, a reformat, a release), not
#: a change to one definition with its tests
MAX_FILES = 10
_HEADER = re.compile(r"^([0-9a-f]{40}) \d+ \d+", re.MULTILINE)


def old_span(hunks: Iterable[Hunk], first: int, last: int) -> tuple[int, int] | None:
    """Lines `first`..`last` of the work tree's file as lines of the base's, or None when the
    branch added all of them. A bound inside a hunk moves to that hunk's old lines."""
    start, end = first, last
    for h in sorted(hunks, key=lambda h: h.new_start):
        new_end = h.new_start + h.new_count - 1 if h.new_count else h.new_start
        shift = h.old_count - h.new_count
        if new_end < first:
            start += shift
        elif h.new_count and h.new_start <= first:  # `first` is a line the branch wrote
            start = h.old_start if h.old_count else h.old_start + 1
        if new_end < last:
            end += shift
        elif h.new_count and h.new_start <= last:
            end = h.old_start + h.old_count - 1 if h.old_count else h.old_start
    return (start, end) if 1 <= start <= end else None


def last_writers(repo: Repo, commit: str, spans: Mapping[str, list[tuple[int, int]]]
                 ) -> set[str]:
    """The commits that last wrote `spans` (path → line ranges) as of `commit`: one blame per
    file. A file the base does not have (new or renamed on the branch) names none."""
    shas: set[str] = set()
    for path, ranges in spans.items():
        args = [arg for a, b in _merged(ranges) for arg in ("-L", f"{a},{b}")]
        status, out, _ = run_git(repo, "blame", "--porcelain", *args, commit, "--", path)
        if status == 0:
            shas.update(_HEADER.findall(out))
    return shas


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges with overlapping ones joined: blame's -L takes each line once."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def changed_with(repo: Repo, shas: set[str], exclude: Iterable[str] = ()
                 ) -> tuple[Counter[str], int]:
    """How many of `shas` (at most MAX_FILES files each) changed each file, and how many such
    commits there were; files in `exclude` are not counted (the branch's own)."""
    if not shas:
        return Counter(), 0
    skip = set(exclude)
    counts: Counter[str] = Counter()
    commits = 0
    for _, files in iter_commits_with_files(repo, "%H", "--no-walk=unsorted", *sorted(shas)):
        if len(files) > MAX_FILES:
            continue
        commits += 1
        counts.update(f for f in set(files) if f not in skip)
    return counts, commits
