"""vcs/blame.py on real commits: a work-tree span read back at the fork point, the commits
that last wrote it, and the other files those commits changed."""

from __future__ import annotations

from graphiq_ci.vcs import changed_hunks
from graphiq_ci.vcs.blame import MAX_FILES, changed_with, last_writers, old_span
from graphiq_ci.vcs.repo import open_repo

from .test_hunks import LINES, edit, three_edits


def test_a_span_maps_back_through_modified_inserted_and_deleted_lines(new_repo):
    repo = new_repo()
    base, text = three_edits(repo)  # line 2 modified, 2 lines in before 5, 8-9 deleted
    hunks = changed_hunks(repo.path, base)["f.txt"]
    lines = text.splitlines()
    assert lines[7 - 1] == "line5" and lines[10 - 1] == "line10"
    assert old_span(hunks, 7, 10) == (5, 10)  # after the insertion, across the deletion
    assert old_span(hunks, 1, 4) == (1, 4)  # the modified line 2 is a line of the base
    assert old_span(hunks, 5, 8) == (5, 6)  # starts on an added line: the base's next one
    assert old_span(hunks, 5, 7) == (5, 5)
    assert old_span(hunks, 5, 6) is None  # every line of it is new on the branch


def test_the_last_writers_and_what_else_they_changed(new_repo):
    repo = new_repo()
    first = repo.commit({"f.txt": LINES, "a_test.txt": "a\n"}, "first")
    second = repo.commit({"f.txt": edit(LINES, 3, ["three"], drop=1), "a_test.txt": "a2\n",
                          "other.txt": "o\n"}, "second")
    sweep = {f"doc{n}.txt": "d\n" for n in range(MAX_FILES)}
    repo.commit({"f.txt": edit(edit(LINES, 3, ["three"], drop=1), 4, ["FOUR"], drop=1),
                 **sweep}, "a sweep of eleven files")
    with open_repo(repo.path) as git:
        shas = last_writers(git, repo.sha(), {"f.txt": [(2, 4), (3, 3)]})
        counts, commits = changed_with(git, shas, ["f.txt"])
    assert first in shas and second in shas and len(shas) == 3  # line 4: the sweep
    assert commits == 2  # the sweep touched more than MAX_FILES files: not counted
    assert counts == {"a_test.txt": 2, "other.txt": 1}
    with open_repo(repo.path) as git:  # a file the base does not have names no commit
        assert last_writers(git, first, {"new.txt": [(1, 2)]}) == set()
