"""Shallow clones, as CI checks them out."""

from __future__ import annotations

from graphiq_ci.vcs import branch_changes, find_trunk


def test_shallow_clone_is_deepened_until_the_merge_base_appears(forked, clone):
    forked("checkout", "-q", "main")  # origin/HEAD follows the origin's checkout
    work = clone(forked, "work", "--depth", "1", "--no-single-branch", "--branch", "feature")
    assert work("rev-parse", "--is-shallow-repository") == "true"
    diff = branch_changes(work.path, trunk=find_trunk(work.path))
    assert diff.base_ref == "origin/main"
    assert diff.base_commit == forked.sha("main~2")
    assert diff.paths == ("base.py", "f.py")
    assert len(diff.notes) == 1
    assert diff.notes[0].startswith("shallow clone: deepened history")


def test_missing_base_branch_is_fetched_into_a_single_branch_clone(forked, clone):
    forked("checkout", "-q", "main")
    work = clone(forked, "work", "--depth", "1", "--branch", "feature")
    assert work("branch", "-r").split() == ["origin/feature"]
    diff = branch_changes(work.path, base="main")
    assert diff.base_ref == "origin/main"
    assert diff.base_commit == forked.sha("main~2")
    assert diff.paths == ("base.py", "f.py")
    assert diff.notes[0] == "fetched origin/main, which this shallow clone did not have"
    assert diff.notes[1].startswith("shallow clone: deepened history")


def test_shallow_clone_without_remote_falls_back_to_two_dot(forked, clone):
    forked("checkout", "-q", "main")
    work = clone(forked, "work", "--depth", "1", "--no-single-branch", "--branch", "feature")
    work("branch", "main", "origin/main")
    work("remote", "remove", "origin")
    diff = branch_changes(work.path, base="main")
    assert diff.base_commit == forked.sha("main")  # the base itself: two-dot
    # two-dot also shows main's own progress, reversed: m.py missing, util.py older
    assert diff.paths == ("base.py", "f.py", "m.py", "util.py")
    assert diff.notes == (
        "shallow clone: no merge base with main (no remote 'origin'); "
        "compared with main directly (two-dot)",
    )


def test_unrelated_histories_fall_back_to_two_dot(forked):
    forked("checkout", "-q", "--orphan", "other")
    forked("rm", "-r", "-q", "-f", ".")
    forked.commit({"o.py": "o = 1\n"}, "unrelated")
    diff = branch_changes(forked.path, trunk="main")
    assert diff.base_commit == forked.sha("main")
    assert diff.notes == (
        "main and HEAD share no history; compared with main directly (two-dot)",
    )


def test_unreachable_remote_falls_back_to_two_dot(forked, clone, tmp_path):
    forked("checkout", "-q", "main")
    work = clone(forked, "work", "--depth", "1", "--no-single-branch", "--branch", "feature")
    work("remote", "set-url", "origin", f"file://{tmp_path}/gone")
    diff = branch_changes(work.path, trunk="origin/main")
    assert diff.base_commit == forked.sha("main")
    assert len(diff.notes) == 1
    assert diff.notes[0].startswith("shallow clone: no merge base with origin/main (fetch failed: ")
    assert diff.notes[0].endswith("); compared with origin/main directly (two-dot)")


def test_a_base_missing_from_a_shallow_clone_names_the_fix(forked, clone):
    """#13: `--base master` in a shallow clone with no reachable remote said only 'not a
    branch, tag or commit here'."""
    import pytest

    from graphiq_ci.errors import GraphiqError

    forked("checkout", "-q", "main")
    work = clone(forked, "work", "--depth", "1", "--branch", "feature")
    work("remote", "remove", "origin")
    with pytest.raises(GraphiqError) as err:
        branch_changes(work.path, base="main")
    assert str(err.value) == (
        "base 'main' is not a branch, tag or commit here (this is a shallow clone: fetch more "
        "history, e.g. `fetch-depth: 0` in actions/checkout, or pass --base origin/<branch>)")
    with pytest.raises(GraphiqError) as full:
        branch_changes(forked.path, base="no-such-branch")
    assert str(full.value) == "base 'no-such-branch' is not a branch, tag or commit here"
