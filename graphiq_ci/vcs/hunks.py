"""Changed line ranges per file, from the fork point to the work tree (`git diff -U0`).

Zero context lines make every hunk exactly the lines that changed, which is
what mapping changes onto symbol spans needs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import NamedTuple

from graphiq_ci.vcs.diff import untracked_files
from graphiq_ci.vcs.repo import Repo, git_text, open_repo, work_tree


class Hunk(NamedTuple):
    """One run of changed lines; `*_start` are 1-based line numbers.

    A pure insertion has old_count 0 and old_start = the old line it follows;
    a pure deletion has new_count 0 and new_start = the new line it follows
    (0 = top of file), as in git's unified diff.

    `blank_new` and `blank_old` (each side's blank lines, by number) are known where the
    patch text was read (`parse_unified_zero`; a hunk made from line counts alone has none):
    a blank line added or removed between two methods changes neither, nor the class around
    them.
    """

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    blank_new: frozenset[int] = frozenset()  # the new side's blank lines, by line number
    blank_old: frozenset[int] = frozenset()  # the old side's blank lines, by line number

    @property
    def new_lines(self) -> range:
        return range(self.new_start, self.new_start + self.new_count)


_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def _unquote(path: str) -> str:
    """Undo git's C-style quoting of unusual file names in patch headers."""
    if not (path.startswith('"') and path.endswith('"')):
        return path
    body, out, i = path[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in "01234567":
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, ord(nxt)))
            i += 2
            continue
        out.extend(char.encode("utf-8", "surrogateescape"))
        i += 1
    return out.decode("utf-8", "surrogateescape")


def _side_path(line: str, prefix: str) -> str | None:
    """Path from a '--- a/x' or '+++ b/x' line; None for /dev/null."""
    raw = _unquote(line[4:].rstrip("\t"))  # git appends a tab to names with spaces
    if raw == "/dev/null":
        return None
    return raw.removeprefix(prefix)


def parse_unified_zero(patch: str) -> dict[str, list[Hunk]]:
    """Hunks per path (new path; old path for deletions) from `git diff -U0` output, each
    with its blank lines on either side (see `Hunk`)."""
    result: dict[str, list[Hunk]] = {}
    old_path: str | None = None
    current: list[Hunk] | None = None
    added = removed = -1  # the open hunk's `+` and `-` lines so far; -1: before its hunks
    blank_new: list[int] = []  # the open hunk's blank lines, given to it once it is read
    blank_old: list[int] = []
    for line in patch.split("\n") + ["diff --git "]:  # the sentinel closes the last hunk
        header = _HUNK_HEADER.match(line) if current is not None else None
        if (header or line.startswith("diff --git ")) and current and (blank_new or blank_old):
            current[-1] = current[-1]._replace(blank_new=frozenset(blank_new),
                                               blank_old=frozenset(blank_old))
        if header or line.startswith("diff --git "):
            blank_new, blank_old = [], []
        if line.startswith("diff --git "):
            old_path, current, added, removed = None, None, -1, -1
        elif line.startswith("--- ") and current is None:
            old_path = _side_path(line, "a/")
        elif line.startswith("+++ ") and current is None:
            path = _side_path(line, "b/") or old_path
            if path is not None:
                current = result.setdefault(path, [])
        elif current is not None and header:
            old_start, old_count, new_start, new_count = header.groups()
            current.append(
                Hunk(
                    int(old_start),
                    1 if old_count is None else int(old_count),
                    int(new_start),
                    1 if new_count is None else int(new_count),
                )
            )
            added = removed = 0
        elif current and added >= 0 and line[:1] in ("+", "-"):
            blank = not line[1:].strip()
            if line[0] == "+":
                if blank:
                    blank_new.append(current[-1].new_start + added)
                added += 1
            else:
                if blank:
                    blank_old.append(current[-1].old_start + removed)
                removed += 1
    return result


def _is_text(data: bytes) -> bool:
    return b"\0" not in data[:8192]


def _untracked_hunks(repo: Repo, wanted: set[str] | None) -> dict[str, list[Hunk]]:
    """A new, untracked text file is one all-added hunk."""
    root = work_tree(repo)
    result: dict[str, list[Hunk]] = {}
    for path in untracked_files(repo):
        if wanted is not None and path not in wanted:
            continue
        try:
            with open(os.path.join(root, path), "rb") as handle:
                data = handle.read()
        except OSError:  # vanished or unreadable since ls-files: nothing to attribute
            continue
        if not data or not _is_text(data):
            continue
        lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        result[path] = [Hunk(0, 0, 1, lines)]
    return result


def changed_hunks(
    repo_root: str | os.PathLike[str],
    base_commit: str | None,
    paths: Iterable[str] | None = None,
) -> dict[str, list[Hunk]]:
    """Changed hunks from `base_commit` to the work tree (staged, unstaged and untracked).

    Pass `BranchDiff.base_commit`. Binary files have no hunks and are left out;
    renamed files are keyed by their new path with old-side numbers from the old one.
    """
    if base_commit is None:  # empty repository: BranchDiff has nothing either
        return {}
    wanted = None if paths is None else set(paths)
    if wanted is not None and not wanted:
        return {}
    with open_repo(repo_root) as repo:
        args = ["diff", "-U0", "-M", "--no-color", "--no-ext-diff", "--no-textconv",
                "--src-prefix=a/", "--dst-prefix=b/", base_commit]
        # no pathspec: limiting paths would hide a rename's old side from -M
        result = parse_unified_zero(git_text(repo, *args))
        if wanted is not None:
            result = {path: hunks for path, hunks in result.items() if path in wanted}
        for path, hunks in _untracked_hunks(repo, wanted).items():
            result.setdefault(path, hunks)
        return result
