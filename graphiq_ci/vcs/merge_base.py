"""Finding the commit a branch forked from, also in shallow CI clones.

CI checkouts are usually `--depth 1`: the base branch may be missing and the
fork point is below the shallow boundary. We fetch and deepen in steps rather
than unshallowing (which can download years of history), and fall back to
comparing with the base commit itself (two-dot) when that fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from graphiq_ci.vcs.repo import REMOTE, Repo, has_remote, is_shallow, resolve_commit, run_git

#: `git fetch --deepen` steps tried in turn before giving up on a merge base.
DEEPEN_STEPS = (50, 200, 1000)
#: How much of a missing base branch to fetch at first.
FETCH_DEPTH = 50


class ForkPoint(NamedTuple):
    """What the work tree is compared with, and how that was decided."""

    ref: str
    commit: str  # the merge base, or the base commit itself when two_dot
    two_dot: bool
    notes: tuple[str, ...]


def _remote_branch(ref: str) -> str:
    """'origin/main' or 'refs/remotes/origin/main' or 'main' -> 'main'."""
    for prefix in ("refs/remotes/", "refs/heads/"):
        ref = ref.removeprefix(prefix)
    return ref.removeprefix(f"{REMOTE}/")


def _refspec(ref: str) -> str:
    branch = _remote_branch(ref)
    return f"+refs/heads/{branch}:refs/remotes/{REMOTE}/{branch}"


def _deepen_args(ref: str) -> tuple[str, ...]:
    """Fetch the base's own remote branch if it has one; else origin's default refspec.

    Either way `--deepen` moves every shallow boundary, HEAD's included.
    """
    if ref.startswith((f"{REMOTE}/", f"refs/remotes/{REMOTE}/")):
        return (REMOTE, _refspec(ref))
    return (REMOTE,)


def resolve_base(repo: Repo, ref: str, notes: list[str],
                 known: Mapping[str, str | None] | None = None) -> tuple[str, str] | None:
    """(ref name, sha) for `ref`, trying origin/<ref>, then fetching it into a shallow clone.

    `known`: names the caller has resolved already (`resolve_commits`)."""
    for name in (ref, f"{REMOTE}/{ref}"):
        sha = known[name] if known is not None and name in known else resolve_commit(repo, name)
        if sha:
            return name, sha
    if not (is_shallow(repo) and has_remote(repo, REMOTE)):
        return None
    status, _, _ = run_git(repo, "fetch", "--quiet", "--no-tags", f"--depth={FETCH_DEPTH}",
                           REMOTE, _refspec(ref), network=True)
    name = f"{REMOTE}/{_remote_branch(ref)}"
    sha = resolve_commit(repo, name) if status == 0 else None
    if sha:
        notes.append(f"fetched {name}, which this shallow clone did not have")
        return name, sha
    return None


def _merge_base(repo: Repo, base: str, head: str) -> str | None:
    status, out, _ = run_git(repo, "merge-base", base, head)
    return out.strip() if status == 0 and out.strip() else None


def fork_point(repo: Repo, ref: str, base_sha: str, head_sha: str) -> ForkPoint:
    """merge-base(ref, HEAD), deepening a shallow clone if needed; two-dot as last resort."""
    notes: list[str] = []
    # on the trunk itself (every `context` call there) the fork point is HEAD: no process
    found = head_sha if base_sha == head_sha else _merge_base(repo, base_sha, head_sha)
    if found:
        return ForkPoint(ref, found, False, ())
    if not is_shallow(repo):
        notes.append(f"{ref} and HEAD share no history; compared with {ref} directly (two-dot)")
        return ForkPoint(ref, base_sha, True, tuple(notes))
    reason = f"no remote '{REMOTE}'"
    if has_remote(repo, REMOTE):
        deepened = 0
        for step in DEEPEN_STEPS:
            status, _, err = run_git(repo, "fetch", "--quiet", "--no-tags", f"--deepen={step}",
                                     *_deepen_args(ref), network=True)
            if status != 0:
                reason = f"fetch failed: {err.strip().splitlines()[-1] if err.strip() else status}"
                break
            deepened += step
            # the fetch may have moved the remote-tracking ref; follow it
            base_sha = resolve_commit(repo, ref) or base_sha
            found = _merge_base(repo, base_sha, head_sha)
            if found:
                notes.append(f"shallow clone: deepened history by up to {deepened} commits "
                             f"to find the merge base with {ref}")
                return ForkPoint(ref, found, False, tuple(notes))
            if not is_shallow(repo):
                reason = "full history has no common commit"
                break
        else:
            reason = f"not within {deepened} more commits"
    notes.append(f"shallow clone: no merge base with {ref} ({reason}); "
                 f"compared with {ref} directly (two-dot)")
    return ForkPoint(ref, base_sha, True, tuple(notes))
