"""Which branch a change is measured against when the user doesn't say."""

from __future__ import annotations

import os

from graphiq_ci.errors import GraphiqError
from graphiq_ci.vcs.repo import has_commits, open_repo, resolve_commit, run_git

#: Conventional trunk names, most common first.
TRUNK_CANDIDATES = ("main", "master", "trunk", "develop")
REMOTE = "origin"


def find_trunk(repo_root: str | os.PathLike[str], configured: str | None = None) -> str | None:
    """The ref that names the trunk, or None when there is none (e.g. no commits yet).

    Order: the configured name (as given, else on origin), origin's HEAD, then the
    first of TRUNK_CANDIDATES that exists locally or on origin. A configured name
    that exists nowhere is a user error rather than a silent fallback, because
    it would quietly change which files count as "changed".
    """
    with open_repo(repo_root) as repo:
        if not has_commits(repo):
            return None
        if configured:
            for name in (configured, f"{REMOTE}/{configured}"):
                if resolve_commit(repo, name):
                    return name
            raise GraphiqError(f"configured trunk '{configured}' is not a branch or ref here")
        status, out, _ = run_git(repo, "symbolic-ref", "-q", f"refs/remotes/{REMOTE}/HEAD")
        if status == 0 and out.strip():
            name = out.strip().removeprefix("refs/remotes/")
            if resolve_commit(repo, name):
                return name
        for candidate in TRUNK_CANDIDATES:
            for name in (f"refs/heads/{candidate}", f"refs/remotes/{REMOTE}/{candidate}"):
                if resolve_commit(repo, name):
                    return name.removeprefix("refs/heads/").removeprefix("refs/remotes/")
        return None
