from __future__ import annotations

import os

import pytest

from graphiq_ci.errors import GraphiqError
from graphiq_ci.vcs.repo import (
    git_text,
    has_commits,
    head_commit,
    is_shallow,
    open_repo,
    resolve_commit,
    resolve_commits,
    work_tree,
)


def test_not_a_repository_is_a_one_line_error(tmp_path):
    with pytest.raises(GraphiqError, match="not a git repository"), open_repo(tmp_path):
        pass


def test_missing_directory_is_a_one_line_error(tmp_path):
    with pytest.raises(GraphiqError, match="not a git repository"), open_repo(tmp_path / "nope"):
        pass


def test_bare_repository_is_rejected(new_repo, tmp_path):
    repo = new_repo()
    repo("init", "-q", "--bare", str(tmp_path / "bare.git"))
    with pytest.raises(GraphiqError, match="bare repository"), open_repo(tmp_path / "bare.git"):
        pass


def test_subdirectory_opens_the_enclosing_work_tree(new_repo):
    repo = new_repo()
    repo.commit({"pkg/mod.py": "x = 1\n"})
    with open_repo(repo.path / "pkg") as opened:
        assert work_tree(opened) == str(repo.path)


def test_failing_git_command_becomes_graphiq_error(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    with pytest.raises(GraphiqError, match=r"^git log failed: .*\S$"), open_repo(repo.path) as r:
        git_text(r, "log", "no-such-revision")


def test_git_vars_leaking_from_a_hook_are_ignored_and_left_alone(new_repo, monkeypatch):
    target = new_repo("target")
    head = target.commit({"a": "1\n"})
    decoy = new_repo("decoy")
    decoy.commit({"b": "2\n"})
    decoy.commit({"b": "3\n"})
    # what git exports to a hook running in another repository
    monkeypatch.setenv("GIT_DIR", str(decoy.path / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(decoy.path))
    monkeypatch.setenv("GIT_INDEX_FILE", str(decoy.path / ".git" / "index"))
    with open_repo(target.path) as repo:
        assert head_commit(repo) == head
        assert git_text(repo, "ls-files").split() == ["a"]
    assert os.environ["GIT_DIR"] == str(decoy.path / ".git")


def test_empty_repository_has_no_head(new_repo):
    repo = new_repo()
    with open_repo(repo.path) as opened:
        assert head_commit(opened) is None
        assert not has_commits(opened)
        assert resolve_commit(opened, "main") is None


def test_option_like_revision_is_never_passed_to_git(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    with open_repo(repo.path) as opened:
        assert resolve_commit(opened, "--all") is None


def test_worktree_and_shallow_detection(new_repo, clone):
    origin = new_repo("origin")
    origin.commit({"a": "1\n"})
    origin.commit({"a": "2\n"})
    origin("worktree", "add", "-q", str(origin.path.parent / "wt"), "-b", "side")
    with open_repo(origin.path.parent / "wt") as wt:
        assert head_commit(wt) == origin.sha()
        assert not is_shallow(wt)
    shallow = clone(origin, "shallow", "--depth", "1")
    with open_repo(shallow.path) as opened:
        assert is_shallow(opened)


def test_batch_resolution_answers_as_rev_parse_does(new_repo):
    repo = new_repo()
    first = repo.commit({"a": "1\n"})
    repo.commit({"a": "2\n"})
    repo("tag", "-a", "-m", "annotated", "v1", first)
    repo("tag", "main", first)  # a tag named like the branch: rev-parse prefers the tag
    names = ["HEAD", "main", "v1", "HEAD~1", "HEAD^{tree}", "nope", "--all", "a b", ""]
    with open_repo(repo.path) as opened:
        batch = resolve_commits(opened, names)
        assert batch == {name: resolve_commit(opened, name) for name in names}
    assert batch["main"] == batch["v1"] == first
    assert batch["HEAD^{tree}"] is None and batch["--all"] is None
