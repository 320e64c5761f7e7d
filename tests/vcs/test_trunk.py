from __future__ import annotations

import pytest

from graphiq_ci.errors import GraphiqError
from graphiq_ci.vcs import find_trunk


def test_empty_repository_has_no_trunk(new_repo):
    repo = new_repo()
    assert find_trunk(repo.path) is None
    assert find_trunk(repo.path, "main") is None


def test_initial_commit_on_main(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    assert find_trunk(repo.path) == "main"


@pytest.mark.parametrize(
    ("branches", "expected"),
    [
        (["master"], "master"),
        (["trunk"], "trunk"),
        (["develop"], "develop"),
        (["develop", "master"], "master"),
        (["develop", "trunk"], "trunk"),
        (["topic"], None),
    ],
)
def test_conventional_names_in_order_without_a_remote(new_repo, branches, expected):
    repo = new_repo()
    repo("checkout", "-q", "-b", branches[0])
    repo.commit({"a": "1\n"})
    for name in branches[1:]:
        repo("branch", name)
    assert find_trunk(repo.path) == expected


def test_configured_trunk_wins(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    repo("branch", "release")
    assert find_trunk(repo.path, "release") == "release"


def test_configured_trunk_found_on_origin(new_repo, clone):
    origin = new_repo("origin")
    origin.commit({"a": "1\n"})
    origin("branch", "release")
    work = clone(origin, "work")
    assert find_trunk(work.path, "release") == "origin/release"


def test_configured_trunk_that_does_not_exist_is_an_error(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    with pytest.raises(GraphiqError, match="configured trunk 'nope' is not a branch"):
        find_trunk(repo.path, "nope")


def test_remote_head_beats_conventional_names(new_repo, clone):
    origin = new_repo("origin")
    origin.commit({"a": "1\n"})
    origin("checkout", "-q", "-b", "stable")
    work = clone(origin, "work", "--no-single-branch")
    assert "origin/main" in work("branch", "-r")
    assert find_trunk(work.path) == "origin/stable"


def test_origin_branch_when_there_is_no_local_one(new_repo, clone):
    origin = new_repo("origin")
    origin("checkout", "-q", "-b", "master")
    origin.commit({"a": "1\n"})
    work = clone(origin, "work")
    work("checkout", "-q", "-b", "topic")
    work("branch", "-D", "master")
    work("remote", "set-head", "origin", "-d")
    assert find_trunk(work.path) == "origin/master"


def test_detached_head(new_repo):
    repo = new_repo()
    first = repo.commit({"a": "1\n"})
    repo.commit({"a": "2\n"})
    repo("checkout", "-q", first)
    assert find_trunk(repo.path) == "main"


def test_worktree_sees_the_shared_branches(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    repo("worktree", "add", "-q", str(repo.path.parent / "wt"), "-b", "topic")
    assert find_trunk(repo.path.parent / "wt") == "main"


def test_unborn_orphan_branch_still_finds_trunk(new_repo):
    repo = new_repo()
    repo.commit({"a": "1\n"})
    repo("checkout", "-q", "--orphan", "fresh")
    assert find_trunk(repo.path) == "main"


def test_the_remembered_trunk_follows_the_refs(new_repo):
    """A long-lived process asks before every question; the answer is remembered only while
    the refs it depends on are unchanged, loose or packed."""
    repo = new_repo()
    repo("checkout", "-q", "-b", "master")
    repo.commit({"a": "1\n"})
    assert find_trunk(repo.path) == "master"
    repo("branch", "main")
    assert find_trunk(repo.path) == "main"  # main now exists, and wins over master
    repo("pack-refs", "--all")
    assert find_trunk(repo.path) == "main"
    repo("branch", "-D", "main")  # deleted from packed-refs only
    assert find_trunk(repo.path) == "master"
    repo("branch", "trunk")
    assert find_trunk(repo.path, "trunk") == "trunk"
    repo("branch", "-D", "trunk")
    with pytest.raises(GraphiqError):
        find_trunk(repo.path, "trunk")
