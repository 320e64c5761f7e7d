"""Which branch a change is measured against when the user doesn't say."""

from __future__ import annotations

import os

from graphiq_ci.errors import GraphiqError
from graphiq_ci.vcs.refs import symbolic_target_from_files
from graphiq_ci.vcs.repo import REMOTE, Repo, has_commits, open_repo, resolve_commits, run_git

#: Conventional trunk names, most common first.
TRUNK_CANDIDATES = ("main", "master", "trunk", "develop")


#: (root, configured) -> (the refs' fingerprint, the answer): a long-lived caller (the MCP
#: server) asks before every question, and the answer only moves when these refs do
_ANSWERS: dict[tuple[str, str | None], tuple[tuple[object, ...], str | None]] = {}


#: what a trunk lookup resolved on the way: rev -> sha (None: names no commit)
Resolved = dict[str, "str | None"]


def find_trunk(repo_root: str | os.PathLike[str], configured: str | None = None) -> str | None:
    """`resolve_trunk`, remembered while the refs it reads are unchanged on disk."""
    return trunk_in(None, repo_root, configured)[0]


def trunk_in(repo: Repo | None, repo_root: str | os.PathLike[str],
             configured: str | None) -> tuple[str | None, Resolved]:
    """`find_trunk` in an opened `repo` (None: open it), and the revisions it resolved: HEAD
    and, when the answer was looked up now, the answer and origin/<answer>, which is what
    `branch_changes` resolves next (so it needs no git process of its own for them)."""
    key = (os.fspath(repo_root), configured)
    seen = _refs_fingerprint(repo_root, configured)
    if seen is not None:
        known = _ANSWERS.get(key)
        if known is not None and known[0] == seen:
            return known[1], {}
    if repo is None:
        with open_repo(repo_root) as opened:
            answer, resolved = _resolve_in(opened, configured)
    else:
        answer, resolved = _resolve_in(repo, configured)
    if seen is not None:
        _ANSWERS[key] = (seen, answer)
    return answer, resolved


def _refs_fingerprint(repo_root: str | os.PathLike[str],
                      configured: str | None) -> tuple[object, ...] | None:
    """Size and mtime of every file `resolve_trunk`'s answer depends on; None when the git
    directory is not a plain `.git` folder (a worktree, a submodule): then nothing is kept."""
    git_dir = os.path.join(os.fspath(repo_root), ".git")
    if not os.path.isdir(git_dir):
        return None
    names = [configured] if configured else list(TRUNK_CANDIDATES)
    paths = ["HEAD", "packed-refs", "reftable", f"refs/remotes/{REMOTE}/HEAD",
             *(f"refs/heads/{n}" for n in names), *(f"refs/remotes/{REMOTE}/{n}" for n in names),
             *(f"refs/tags/{n}" for n in names), *(f"refs/remotes/{n}" for n in names),
             *(f"refs/{n}" for n in names)]
    out: list[object] = []
    for rel in paths:
        try:
            st = os.stat(os.path.join(git_dir, rel))
            out.append((rel, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((rel, None))
    return tuple(out)


def resolve_trunk(repo_root: str | os.PathLike[str], configured: str | None = None) -> str | None:
    """The ref that names the trunk, or None when there is none (e.g. no commits yet).

    Order: the configured name (as given, else on origin), origin's HEAD, then the
    first of TRUNK_CANDIDATES that exists locally or on origin. A configured name
    that exists nowhere is a user error rather than a silent fallback, because
    it would quietly change which files count as "changed".
    """
    with open_repo(repo_root) as repo:
        return _resolve_in(repo, configured)[0]


def _resolve_in(repo: Repo, configured: str | None) -> tuple[str | None, Resolved]:
    # (name looked up, name answered), in the order they are preferred
    names: list[tuple[str, str]] = []
    if configured:
        on_remote = f"{REMOTE}/{configured}"
        names = [(configured, configured), (on_remote, on_remote)]
    else:
        target = symbolic_target_from_files(repo.work_tree, f"refs/remotes/{REMOTE}/HEAD")
        if target is None:
            status, out, _ = run_git(repo, "symbolic-ref", "-q", f"refs/remotes/{REMOTE}/HEAD")
            target = out.strip() if status == 0 else ""
        if target:
            remote_head = target.removeprefix("refs/remotes/")
            names.append((remote_head, remote_head))
        names += [(ref, ref.removeprefix("refs/heads/").removeprefix("refs/remotes/"))
                  for candidate in TRUNK_CANDIDATES
                  for ref in (f"refs/heads/{candidate}", f"refs/remotes/{REMOTE}/{candidate}")]
    # HEAD, every name, and each answer as `branch_changes` will look it up, in one process
    then = [name for _, answer in names for name in (answer, f"{REMOTE}/{answer}")]
    commits = resolve_commits(repo, ["HEAD", *(ref for ref, _ in names), *then])
    if not has_commits(repo, commits["HEAD"]):
        return None, {"HEAD": commits["HEAD"]}
    for ref, answer in names:
        if commits[ref]:
            return answer, commits
    if configured:
        raise GraphiqError(f"configured trunk '{configured}' is not a branch or ref here")
    return None, commits
