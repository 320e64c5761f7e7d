"""Which files a branch changes: committed since the fork point, staged, unstaged, untracked.

The result is the *net* change from the fork point to the work tree (what a
reviewer would see if everything were committed now), with each file also
labelled by where its change lives.
"""

from __future__ import annotations

import os
from enum import Enum
from typing import NamedTuple

from graphiq_ci.errors import GraphiqError
from graphiq_ci.paths import storable
from graphiq_ci.vcs.merge_base import fork_point, resolve_base
from graphiq_ci.vcs.repo import REMOTE, Repo, git_text, is_shallow, open_repo, resolve_commits
from graphiq_ci.vcs.trunk import Resolved, trunk_in


class ChangeStatus(str, Enum):
    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"


class ChangeOrigin(str, Enum):
    """Where a change lives; a file can have several."""

    COMMITTED = "committed"  # in a commit between the fork point and HEAD
    STAGED = "staged"
    UNSTAGED = "unstaged"
    UNTRACKED = "untracked"


class FileChange(NamedTuple):
    """One file the branch changed, with where each part of its change lives."""

    path: str  # repo-relative, '/'-separated; the new path for renames
    status: ChangeStatus
    origins: tuple[ChangeOrigin, ...]
    old_path: str | None = None  # set for renames only


class BranchDiff(NamedTuple):
    """Files changed on this branch, plus how the comparison was made.

    `base_commit` is what the work tree was compared with: the merge base, the
    base commit itself after a two-dot fallback, or HEAD when there is no
    trunk (then only uncommitted work counts). None only in an empty repo.
    """

    base_ref: str | None
    base_commit: str | None
    head_commit: str | None
    files: tuple[FileChange, ...]
    notes: tuple[str, ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(change.path for change in self.files)


_STATUS_BY_LETTER = {
    "A": ChangeStatus.ADDED,
    "C": ChangeStatus.ADDED,  # a copy is a new file
    "M": ChangeStatus.MODIFIED,
    "T": ChangeStatus.MODIFIED,  # type change, e.g. file -> symlink
    "U": ChangeStatus.MODIFIED,  # unmerged, mid-conflict
    "D": ChangeStatus.DELETED,
    "R": ChangeStatus.RENAMED,
}


def _name_status(repo: Repo, *args: str) -> list[tuple[ChangeStatus, str, str | None]]:
    """Parse `git diff --name-status -z -M`: (status, path, old path for renames)."""
    tokens = git_text(repo, "diff", "--name-status", "-z", "-M", "--no-ext-diff", *args).split("\0")
    result: list[tuple[ChangeStatus, str, str | None]] = []
    i = 0
    while i < len(tokens) and tokens[i]:
        letter = tokens[i][0]
        status = _STATUS_BY_LETTER.get(letter, ChangeStatus.MODIFIED)
        if letter in "RC":
            old, new = tokens[i + 1], tokens[i + 2]
            result.append((status, new, old if letter == "R" else None))
            i += 3
        else:
            result.append((status, tokens[i + 1], None))
            i += 2
    return result


def _changed_names(repo: Repo, *args: str) -> set[str]:
    return {path for _, path, _ in _name_status(repo, *args)}


def untracked_files(repo: Repo) -> list[str]:
    """Untracked files that are not ignored, repo-relative."""
    out = git_text(repo, "ls-files", "-z", "--others", "--exclude-standard", "--full-name")
    return [path for path in out.split("\0") if path]


def _branch_changes(
    repo: Repo, base: str | None, trunk: str | None, looked_up: Resolved | None = None
) -> BranchDiff:
    wanted = base or trunk
    # HEAD and the base's candidate names in one git process, unless the trunk lookup has them
    revs = ["HEAD", *([wanted, f"{REMOTE}/{wanted}"] if wanted else [])]
    known = looked_up if looked_up and all(r in looked_up for r in revs) else resolve_commits(
        repo, revs)
    head = known["HEAD"]
    if head is None:
        return BranchDiff(None, None, None, (), ("repository has no commits yet: nothing to diff",))

    notes: list[str] = []
    ref: str | None = None
    compare_with = head
    if wanted:
        resolved = resolve_base(repo, wanted, notes, known)
        if resolved is None:
            what = "base" if base else "trunk"
            hint = (" (this is a shallow clone: fetch more history, e.g. `fetch-depth: 0` in "
                    "actions/checkout, or pass --base origin/<branch>)" if is_shallow(repo)
                    else "")
            raise GraphiqError(f"{what} '{wanted}' is not a branch, tag or commit here{hint}")
        ref, base_sha = resolved
        point = fork_point(repo, ref, base_sha, head)
        compare_with = point.commit
        notes.extend(point.notes)
    else:
        notes.append("no trunk found: only uncommitted changes are reported (pass a base ref)")

    net = _name_status(repo, compare_with)
    untracked = untracked_files(repo)
    # where each change lives: asked only when something changed (a clean tree, the usual
    # task-mode call, spends no three more git processes on it)
    committed, staged, unstaged = (
        (_changed_names(repo, compare_with, head) if compare_with != head else set(),
         _changed_names(repo, "--cached", head), _changed_names(repo))
        if net else (set(), set(), set()))

    files: dict[str, FileChange] = {}
    for status, path, old in net:
        origins = tuple(
            origin
            for origin, paths in (
                (ChangeOrigin.COMMITTED, committed),
                (ChangeOrigin.STAGED, staged),
                (ChangeOrigin.UNSTAGED, unstaged),
            )
            if path in paths or (old is not None and old in paths)
        )
        files[path] = FileChange(path, status, origins, old)
    for path in untracked:
        files.setdefault(path, FileChange(path, ChangeStatus.ADDED, (ChangeOrigin.UNTRACKED,)))

    unstorable = [path for path in files if not storable(path)]
    if unstorable:  # left out of the index too (paths.storable): said, as there
        notes.append(f"{len(unstorable)} changed files left out: their names are not UTF-8")
    ordered = tuple(files[path] for path in sorted(files) if storable(path))
    return BranchDiff(ref, compare_with, head, ordered, tuple(notes))


def branch_changes(
    repo_root: str | os.PathLike[str], base: str | None = None, trunk: str | None = None
) -> BranchDiff:
    """Files changed since merge-base(base or trunk, HEAD), committed or not (`base...HEAD`).

    An explicit `base` wins over `trunk`. How the comparison had to be made
    (shallow clone, no trunk, empty repo) is reported in `BranchDiff.notes`.
    """
    with open_repo(repo_root) as repo:
        return _branch_changes(repo, base, trunk)


def trunk_and_changes(
    repo_root: str | os.PathLike[str], base: str | None = None, trunk: str | None = None
) -> BranchDiff:
    """`branch_changes(repo_root, base, find_trunk(repo_root, trunk))` in one opened repository,
    the trunk lookup's revisions reused: every `context` call asks both (two processes fewer)."""
    with open_repo(repo_root) as repo:
        found, looked_up = trunk_in(repo, repo_root, trunk)
        return _branch_changes(repo, base, found, looked_up)
