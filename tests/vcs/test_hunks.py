from __future__ import annotations

from graphiq_ci.vcs import Hunk, branch_changes, changed_hunks
from graphiq_ci.vcs.hunks import parse_unified_zero

LINES = "".join(f"line{i}\n" for i in range(1, 11))


def edit(text: str, line: int, new: list[str] | None = None, drop: int = 0) -> str:
    """Replace `drop` lines starting at 1-based `line` with `new`."""
    lines = text.splitlines(keepends=True)
    lines[line - 1 : line - 1 + drop] = [f"{n}\n" for n in (new or [])]
    return "".join(lines)


def three_edits(repo) -> tuple[str, str]:
    """f.txt committed, then committed again with line 2 modified, two lines inserted before
    line 5 and lines 8-9 deleted: (the first commit, the new text)."""
    base = repo.commit({"f.txt": LINES})
    text = edit(LINES, 2, ["two"], drop=1)  # modify line 2
    text = edit(text, 5, ["new-a", "new-b"])  # insert before old line 5
    text = edit(text, 10, drop=2)  # delete old lines 8-9 (now 10-11)
    repo.commit({"f.txt": text})
    return base, text


def test_modified_inserted_and_deleted_lines(new_repo):
    repo = new_repo()
    base, _ = three_edits(repo)
    assert changed_hunks(repo.path, base) == {
        "f.txt": [Hunk(2, 1, 2, 1), Hunk(4, 0, 5, 2), Hunk(8, 2, 9, 0)]
    }


def test_staged_unstaged_and_untracked_are_included(forked):
    base = branch_changes(forked.path, trunk="main").base_commit
    forked.write({"README": "hi\nthere\n", "new.py": "a = 1\nb = 2\nc = 3"})
    forked("add", "README")
    forked.write({"f.py": "def f():\n    return 3\n"})
    hunks = changed_hunks(forked.path, base)
    assert hunks == {
        "README": [Hunk(1, 0, 2, 1)],
        "base.py": [Hunk(1, 1, 1, 1)],
        "f.py": [Hunk(0, 0, 1, 2)],  # added on the branch: whole file
        "new.py": [Hunk(0, 0, 1, 3)],  # untracked, no final newline
    }
    assert changed_hunks(forked.path, base, ["f.py", "new.py"]).keys() == {"f.py", "new.py"}
    assert changed_hunks(forked.path, base, []) == {}


def test_renamed_file_is_keyed_by_new_path_with_old_side_numbers(new_repo):
    repo = new_repo()
    base = repo.commit({"old.txt": LINES})
    repo("mv", "old.txt", "new.txt")
    repo.commit({"new.txt": edit(LINES, 3, ["three"], drop=1)})
    assert changed_hunks(repo.path, base) == {"new.txt": [Hunk(3, 1, 3, 1)]}


def test_deleted_file_is_keyed_by_old_path_and_binary_files_are_skipped(new_repo):
    repo = new_repo()
    (repo.path / "blob.bin").write_bytes(b"\0\1\2")
    base = repo.commit({"gone.txt": "a\nb\n"})
    (repo.path / "blob.bin").write_bytes(b"\0\1\3")
    (repo.path / "new.bin").write_bytes(b"\0\0")
    repo.commit({"gone.txt": None})
    assert changed_hunks(repo.path, base) == {"gone.txt": [Hunk(1, 2, 0, 0)]}


def test_no_base_commit_means_no_hunks(new_repo):
    repo = new_repo()
    repo.write({"a.txt": "x\n"})
    assert changed_hunks(repo.path, None) == {}


def test_unusual_names_are_unquoted(new_repo):
    repo = new_repo()
    base = repo.commit({"README": "x\n"})
    names = ["with space.txt", "ünï.txt", 'q"uote.txt', "tab\there.txt"]
    repo.commit(dict.fromkeys(names, "x\n"))
    assert set(changed_hunks(repo.path, base)) == set(names)


def test_content_lines_that_look_like_headers_are_not_headers():
    patch = (
        "diff --git a/q.sql b/q.sql\n"
        "index 1..2 100644\n"
        "--- a/q.sql\n"
        "+++ b/q.sql\n"
        "@@ -3 +3 @@\n"
        "--- old comment\n"
        "+++ new comment\n"
        "@@ -7,0 +8,2 @@\n"
        "+x\n"
        "+y\n"
    )
    assert parse_unified_zero(patch) == {"q.sql": [Hunk(3, 1, 3, 1), Hunk(7, 0, 8, 2)]}



def test_blank_lines_are_recorded_on_each_side(new_repo):
    """A hunk knows which of its lines are blank on either side, by number, so that
    attributing it to definitions can leave them out (test_symbols.py)."""
    repo = new_repo()
    base = repo.commit({"f.txt": LINES})
    # a blank line, a text line and a line of spaces inserted after line 2; line 7 blanked
    text = edit(edit(LINES, 7, [""], drop=1), 3, ["", "new", "   "])
    repo.commit({"f.txt": text})
    assert changed_hunks(repo.path, base) == {"f.txt": [
        Hunk(2, 0, 3, 3, blank_new=frozenset({3, 5})),
        Hunk(7, 1, 10, 1, blank_new=frozenset({10}))]}
    head = repo.sha()
    repo.write({"f.txt": edit(text, 3, drop=3)})  # the three inserted lines removed again
    assert changed_hunks(repo.path, head) == {"f.txt": [
        Hunk(3, 3, 2, 0, blank_old=frozenset({3, 5}))]}
