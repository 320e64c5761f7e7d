"""How recently each file changed, for the scorer's recency boost."""

from __future__ import annotations

import os
from collections.abc import Iterable
from contextlib import closing

from graphiq_ci.vcs.log import iter_commits_with_files
from graphiq_ci.vcs.repo import git_text, head_commit, open_repo, work_tree

#: Stop walking history after this many commits; files not reached by then
#: get the oldest time walked, which is already far past any useful half-life.
MAX_COMMITS = 20_000


def recency_boost(age_seconds: float, half_life_days: float = 14.0) -> float:
    """1.0 for a change right now, halving every `half_life_days`; future times count as now."""
    age_days = max(age_seconds, 0.0) / 86_400.0
    return float(0.5 ** (age_days / half_life_days))


def _dirty_paths(out: str) -> set[str]:
    """Paths `git status --porcelain -z` reports as changed or untracked."""
    dirty: set[str] = set()
    tokens = out.split("\0")
    i = 0
    while i < len(tokens) and tokens[i]:
        entry = tokens[i]
        dirty.add(entry[3:])
        i += 2 if entry[0] in "RC" else 1  # renames carry their old path next
    return dirty


def file_recency(
    repo_root: str | os.PathLike[str], paths: Iterable[str], max_commits: int = MAX_COMMITS
) -> dict[str, float]:
    """Unix time each path last changed: its last commit, or its mtime if it has uncommitted edits.

    mtime is only trusted for files that differ from HEAD: in a fresh CI
    checkout every file's mtime is the checkout time, which would make the
    whole repository look just-edited. History is read in one `git log` pass
    that stops as soon as every tracked path has been seen. Paths that exist
    neither on disk nor in history are left out.
    """
    wanted = set(paths)
    if not wanted:
        return {}
    with open_repo(repo_root) as repo:
        root = work_tree(repo)
        times: dict[str, float] = {}
        if head_commit(repo) is not None:
            tracked = set(git_text(repo, "ls-tree", "-r", "-z", "--name-only", "--full-tree",
                                   "HEAD").split("\0"))
            missing = wanted & tracked
            oldest: float | None = None
            walked = 0
            log = iter_commits_with_files(
                repo, "%ct", "-m", "--first-parent", f"--max-count={max_commits}", "HEAD"
            )
            with closing(log):  # stops git as soon as every path is dated
                for header, files in log:
                    walked += 1
                    oldest = float(header)
                    for path in files:
                        if path in wanted and path not in times:
                            times[path] = oldest
                            missing.discard(path)
                    if not missing:
                        break
            if missing and oldest is not None and walked >= max_commits:
                times.update(dict.fromkeys(missing, oldest))
            dirty = _dirty_paths(git_text(repo, "status", "--porcelain=v1", "-z",
                                          "--untracked-files=all"))
        else:
            dirty = wanted
        for path in wanted & dirty:
            try:
                mtime = os.stat(os.path.join(root, path)).st_mtime
            except OSError:  # deleted in the work tree: keep the commit time
                continue
            times[path] = max(times.get(path, 0.0), mtime)
        return times
