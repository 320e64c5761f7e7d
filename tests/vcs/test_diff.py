from __future__ import annotations

import pytest

from graphiq_ci.errors import GraphiqError
from graphiq_ci.vcs import (
    BranchDiff,
    ChangeOrigin,
    ChangeStatus,
    FileChange,
    branch_changes,
    find_trunk,
    trunk_and_changes,
)


def summary(diff: BranchDiff) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {f.path: (f.status.value, tuple(o.value for o in f.origins)) for f in diff.files}


def test_committed_changes_since_the_merge_base(forked):
    diff = branch_changes(forked.path, trunk="main")
    assert diff.base_ref == "main"
    assert diff.base_commit == forked.sha("main~2")  # the fork point, not main's tip
    assert diff.head_commit == forked.sha()
    assert diff.files == (
        FileChange("base.py", ChangeStatus.MODIFIED, (ChangeOrigin.COMMITTED,)),
        FileChange("f.py", ChangeStatus.ADDED, (ChangeOrigin.COMMITTED,)),
    )
    assert diff.notes == ()


def test_explicit_base_overrides_trunk(forked):
    diff = branch_changes(forked.path, base="main~3", trunk="main")
    assert diff.base_ref == "main~3"
    assert diff.paths == ("base.py", "f.py", "util.py")


def test_staged_unstaged_untracked_deleted_renamed(forked):
    forked.write({
        ".gitignore": "*.log\n",
        "staged.py": "s = 1\n",
        "README": "changed\n",
        "scratch.py": "tmp = 1\n",
        "debug.log": "ignored\n",
    })
    forked("add", "staged.py", ".gitignore")
    forked("mv", "util.py", "tools.py")
    forked.write({"base.py": None})
    diff = branch_changes(forked.path, trunk="main")
    assert summary(diff) == {
        ".gitignore": ("added", ("staged",)),
        "README": ("modified", ("unstaged",)),
        "base.py": ("deleted", ("committed", "unstaged")),
        "f.py": ("added", ("committed",)),
        "scratch.py": ("added", ("untracked",)),
        "staged.py": ("added", ("staged",)),
        "tools.py": ("renamed", ("staged",)),
    }
    renamed = next(f for f in diff.files if f.path == "tools.py")
    assert renamed.old_path == "util.py"


def test_committed_rename_keeps_the_old_path(forked):
    forked("mv", "f.py", "g.py")
    forked.commit(message="rename")
    diff = branch_changes(forked.path, trunk="main~2")
    assert [(f.path, f.status, f.old_path) for f in diff.files] == [
        ("base.py", ChangeStatus.MODIFIED, None),
        ("g.py", ChangeStatus.ADDED, None),  # f.py never existed at the fork point
    ]
    diff = branch_changes(forked.path, base="HEAD~1")
    assert [(f.path, f.status, f.old_path) for f in diff.files] == [
        ("g.py", ChangeStatus.RENAMED, "f.py")
    ]


def test_on_trunk_itself_only_uncommitted_work_counts(forked):
    forked("checkout", "-q", "main")
    assert branch_changes(forked.path, trunk="main").files == ()
    forked.write({"m.py": "M = 4\n"})
    diff = branch_changes(forked.path, trunk="main")
    assert diff.base_commit == forked.sha()
    assert summary(diff) == {"m.py": ("modified", ("unstaged",))}


def test_detached_head_diffs_like_the_branch(forked):
    on_branch = branch_changes(forked.path, trunk="main")
    forked("checkout", "-q", forked.sha())
    assert branch_changes(forked.path, trunk="main") == on_branch


def test_worktree(forked):
    forked("worktree", "add", "-q", str(forked.path.parent / "wt"), "main~2")
    wt = forked.path.parent / "wt"
    (wt / "new.py").write_text("n = 1\n")
    diff = branch_changes(wt, trunk="main")
    assert summary(diff) == {"new.py": ("added", ("untracked",))}


def test_empty_repository_gives_empty_diff_and_a_note(new_repo):
    repo = new_repo()
    repo.write({"a.py": "x = 1\n"})
    repo("add", "a.py")
    diff = branch_changes(repo.path, trunk="main")
    note = "repository has no commits yet: nothing to diff"
    assert diff == BranchDiff(None, None, None, (), (note,))


def test_no_trunk_reports_uncommitted_changes_only(forked):
    forked.write({"f.py": "def f():\n    return 3\n"})
    diff = branch_changes(forked.path)
    assert diff.base_ref is None
    assert diff.base_commit == forked.sha()
    assert diff.paths == ("f.py",)
    assert diff.notes == (
        "no trunk found: only uncommitted changes are reported (pass a base ref)",
    )


def test_unknown_base_is_a_one_line_error(forked):
    with pytest.raises(GraphiqError, match="^base 'nope' is not a branch, tag or commit here$"):
        branch_changes(forked.path, base="nope")
    with pytest.raises(GraphiqError, match="^trunk 'gone' is not"):
        branch_changes(forked.path, trunk="gone")


def test_unusual_file_names_round_trip(forked):
    names = ["with space.py", "ünïcode.py", 'quote".py', "tab\tname.py"]
    forked.commit(dict.fromkeys(names, "x = 1\n"))
    diff = branch_changes(forked.path, trunk="main")
    assert set(names) <= set(diff.paths)


def test_trunk_and_changes_answers_as_its_two_steps_do(forked):
    forked.write({"base.py": "x = 3\n", "new.py": "n = 1\n"})  # unstaged and untracked too
    forked("tag", "main", "main~3")  # a tag named like the trunk: `main` then means the tag
    for base, trunk in ((None, None), ("feature~1", None), (None, "main"), ("HEAD~1", "main")):
        expected = branch_changes(forked.path, base, find_trunk(forked.path, trunk))
        assert trunk_and_changes(forked.path, base, trunk) == expected, (base, trunk)
    with pytest.raises(GraphiqError, match="configured trunk 'nope'"):
        trunk_and_changes(forked.path, None, "nope")
