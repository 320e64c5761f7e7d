"""HEAD and origin's HEAD read from `.git`'s files must say what git says, or defer to it."""

from __future__ import annotations

import subprocess

from graphiq_ci.vcs.refs import head_commit_from_files, symbolic_target_from_files

ORIGIN_HEAD = "refs/remotes/origin/HEAD"


def _git_head(repo) -> str:
    return subprocess.run(["git", "rev-parse", "-q", "--verify", "HEAD"], cwd=repo.path,
                          capture_output=True, text=True).stdout.strip()


def _git_symref(repo, ref: str) -> str:
    done = subprocess.run(["git", "symbolic-ref", "-q", ref], cwd=repo.path,
                          capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else ""


def test_head_as_git_reads_it(new_repo):
    repo = new_repo()
    assert head_commit_from_files(repo.path) == _git_head(repo) == ""  # unborn
    first = repo.commit({"a": "1\n"})
    assert head_commit_from_files(repo.path) == _git_head(repo) == first  # loose ref
    repo("pack-refs", "--all")
    assert not (repo.path / ".git/refs/heads/main").exists()
    assert head_commit_from_files(repo.path) == _git_head(repo) == first  # packed ref
    second = repo.commit({"a": "2\n"})
    repo("checkout", "-q", first)
    assert head_commit_from_files(repo.path) == _git_head(repo) == first  # detached
    repo("checkout", "-q", "-b", "topic", second)
    assert head_commit_from_files(repo.path) == _git_head(repo) == second
    repo("checkout", "-q", "--orphan", "fresh")
    assert head_commit_from_files(repo.path) == _git_head(repo) == ""


def test_origin_head_as_git_reads_it(new_repo, clone):
    origin = new_repo("origin")
    origin.commit({"a": "1\n"})
    work = clone(origin, "work")
    assert symbolic_target_from_files(work.path, ORIGIN_HEAD) == _git_symref(
        work, ORIGIN_HEAD) == "refs/remotes/origin/main"
    work("remote", "set-head", "origin", "-d")
    assert symbolic_target_from_files(work.path, ORIGIN_HEAD) == _git_symref(
        work, ORIGIN_HEAD) == ""


def test_a_linked_worktree_is_left_to_git(new_repo, tmp_path):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    repo("worktree", "add", "-q", str(tmp_path / "linked"))
    assert head_commit_from_files(tmp_path / "linked") is None
    assert symbolic_target_from_files(tmp_path / "linked", ORIGIN_HEAD) is None
    assert head_commit_from_files(tmp_path / "plain-directory") is None
