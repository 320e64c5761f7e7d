"""Files that tend to change together, mined from recent commits.

The state keeps each window commit's file list (not just the counts) so an
update can drop commits that slide out of the window and the result is
exactly what a rebuild would give; it is plain JSON for the index's meta table.
It also keeps each counted commit's subject line: the words a change was described
with are evidence for the files it touched (`history_documents`).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

from graphiq_ci.paths import as_text, storable
from graphiq_ci.vcs.log import iter_commits_with_files
from graphiq_ci.vcs.repo import Repo, git_text, head_commit, open_repo, run_git

MAX_COMMITS = 500
#: Commits touching more files than this are reformatting, renames or vendoring: noise.
MAX_FILES_PER_COMMIT = 50
STATE_VERSION = 2

#: One window commit: (sha, files touched, or None when skipped as noise).
WindowCommit = tuple[str, tuple[str, ...] | None]


@dataclass(frozen=True)
class CoChange:
    """Co-change counts over the last `max_commits` non-merge commits up to `head`.

    `count[a]` is how many counted commits touched a; `support[a][b]` how many
    touched both (symmetric). Build with `cochange`, refresh with
    `cochange_update`, persist with `to_json`/`from_json`.
    """

    head: str | None
    max_commits: int
    max_files: int
    commits: tuple[WindowCommit, ...]  # newest first
    count: Mapping[str, int] = field(compare=False)
    support: Mapping[str, Mapping[str, int]] = field(compare=False)
    subjects: Mapping[str, str] = field(default_factory=dict)  # sha → subject, counted commits

    def confidence(self, a: str, b: str) -> float:
        """P(b changes | a changes) = support(a, b) / count(a)."""
        total = self.count.get(a, 0)
        return self.support.get(a, {}).get(b, 0) / total if total else 0.0

    def history_documents(self) -> dict[str, str]:
        """path → the subjects of the counted commits that touched it, one per line: how
        the changes to a file were described, for matching a task's words against."""
        docs: dict[str, list[str]] = {}
        for sha, files in self.commits:
            subject = self.subjects.get(sha, "")
            if files is None or not subject:
                continue
            for path in files:
                docs.setdefault(path, []).append(subject)
        return {path: "\n".join(lines) for path, lines in docs.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "head": self.head,
            "max_commits": self.max_commits,
            "max_files": self.max_files,
            "commits": [
                [sha, None if files is None else list(files)] for sha, files in self.commits
            ],
            "subjects": dict(self.subjects),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CoChange | None:
        """The stored state, or None if it is from another version or damaged (then rebuild)."""
        try:
            head = data["head"]
            if data["version"] != STATE_VERSION or not isinstance(head, (str, type(None))):
                return None
            commits = tuple(
                (str(sha), None if files is None else tuple(str(f) for f in files))
                for sha, files in data["commits"]
            )
            subjects = {str(sha): str(text) for sha, text in data["subjects"].items()}
            return _from_window(
                head, int(data["max_commits"]), int(data["max_files"]), commits, subjects
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


def _from_window(
    head: str | None, max_commits: int, max_files: int, commits: Sequence[WindowCommit],
    subjects: Mapping[str, str],
) -> CoChange:
    count: Counter[str] = Counter()
    support: dict[str, Counter[str]] = {}
    for _, files in commits:
        if files is None:
            continue
        count.update(files)
        for a, b in combinations(files, 2):
            support.setdefault(a, Counter())[b] += 1
            support.setdefault(b, Counter())[a] += 1
    counted = {sha: subjects.get(sha, "") for sha, files in commits if files is not None}
    return CoChange(head, max_commits, max_files, tuple(commits), dict(count), support, counted)


def _log_args(max_commits: int) -> tuple[str, ...]:
    return ("--no-merges", f"--max-count={max_commits}")


def _file_lists(
    repo: Repo, revisions: Sequence[str], max_files: int, *args: str
) -> tuple[dict[str, tuple[str, ...] | None], dict[str, str]]:
    """sha → its files (None when skipped as noise), and sha → its subject line."""
    lists: dict[str, tuple[str, ...] | None] = {}
    subjects: dict[str, str] = {}
    for header, files in iter_commits_with_files(repo, "%H %s", *args, *revisions):
        sha, _, subject = header.partition(" ")
        subjects[sha] = as_text(subject)  # a message git holds as bytes that are not UTF-8
        unique = tuple(sorted(set(filter(storable, files))))  # as the index lists them
        lists[sha] = None if len(unique) > max_files else unique
    return lists, subjects


def _build(repo: Repo, max_commits: int, max_files: int) -> CoChange:
    head = head_commit(repo)
    if head is None:
        return _from_window(None, max_commits, max_files, (), {})
    lists, subjects = _file_lists(repo, [head], max_files, *_log_args(max_commits))
    return _from_window(head, max_commits, max_files, list(lists.items()), subjects)


def cochange(
    repo_root: str | os.PathLike[str],
    max_commits: int = MAX_COMMITS,
    max_files: int = MAX_FILES_PER_COMMIT,
) -> CoChange:
    """Co-change counts from the last `max_commits` non-merge commits reachable from HEAD."""
    with open_repo(repo_root) as repo:
        return _build(repo, max_commits, max_files)


def _is_ancestor(repo: Repo, old: str, new: str) -> bool:
    status, _, _ = run_git(repo, "merge-base", "--is-ancestor", old, new)
    return status == 0


def cochange_update(previous: CoChange | None, repo_root: str | os.PathLike[str]) -> CoChange:
    """Bring `previous` up to HEAD, reading file lists only for commits it has not seen.

    Rebuilds when there is no usable previous state or HEAD no longer descends
    from the previous head (rebase, branch switch). The window is re-listed
    with one cheap `rev-list`, so the result equals `cochange()` exactly.
    """
    with open_repo(repo_root) as repo:
        head = head_commit(repo)
        if previous is None or previous.head is None or head is None:
            return _build(repo, *_limits(previous))
        if head == previous.head:
            return previous
        if not _is_ancestor(repo, previous.head, head):
            return _build(repo, previous.max_commits, previous.max_files)
        window = git_text(repo, "rev-list", *_log_args(previous.max_commits), head).split()
        known = dict(previous.commits)
        subjects = dict(previous.subjects)
        new = [sha for sha in window if sha not in known]
        if new:
            lists, new_subjects = _file_lists(repo, new, previous.max_files,
                                              "--no-walk=unsorted")
            known.update(lists)
            subjects.update(new_subjects)
        commits = [(sha, known[sha]) for sha in window]
        return _from_window(head, previous.max_commits, previous.max_files, commits, subjects)


def _limits(previous: CoChange | None) -> tuple[int, int]:
    if previous is None:
        return MAX_COMMITS, MAX_FILES_PER_COMMIT
    return previous.max_commits, previous.max_files


class RelatedFile(NamedTuple):
    path: str
    confidence: float
    because_of: str  # the changed file with the strongest link


def related_files(
    state: CoChange,
    changed_paths: Iterable[str],
    min_confidence: float = 0.3,
    top: int = 10,
    *,
    min_support: int = 2,
) -> list[RelatedFile]:
    """Unchanged files that usually change with the changed ones, strongest first.

    `min_support` keeps a single shared commit (confidence 1/1) from counting as a habit.
    """
    changed = set(changed_paths)
    best: dict[str, RelatedFile] = {}
    for a in sorted(changed):
        for b, together in state.support.get(a, {}).items():
            if b in changed or together < min_support:
                continue
            confidence = together / state.count[a]
            if confidence >= min_confidence and (
                b not in best or confidence > best[b].confidence
            ):
                best[b] = RelatedFile(b, confidence, a)
    return sorted(best.values(), key=lambda r: (-r.confidence, r.path))[:top]
