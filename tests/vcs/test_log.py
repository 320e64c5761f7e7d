from __future__ import annotations

import pytest

from graphiq_ci.errors import GraphiqError
from graphiq_ci.vcs.log import iter_commits_with_files
from graphiq_ci.vcs.repo import open_repo


def test_names_empty_commits_and_early_stop(new_repo):
    repo = new_repo()
    odd = ["new\nline.py", "sp ace.py", "ü.py", "\nleading.py"]
    repo.commit({"a.py": "1"})
    repo.commit(dict.fromkeys(odd, "x"))
    repo("commit", "-q", "--allow-empty", "-m", "empty")
    with open_repo(repo.path) as opened:
        records = list(iter_commits_with_files(opened, "%H", "HEAD"))
        assert [(sha, sorted(files)) for sha, files in records] == [
            (repo.sha(), []),
            (repo.sha("HEAD~1"), sorted(odd)),
            (repo.sha("HEAD~2"), ["a.py"]),
        ]
        first = next(iter(iter_commits_with_files(opened, "%H", "HEAD")))
        assert first == (repo.sha(), [])


def test_output_larger_than_a_read_chunk(new_repo):
    repo = new_repo()
    names = [f"d/{'x' * 200}{i}.py" for i in range(400)]  # ~80 KB of names, > one 64 KB read
    repo.commit({"first": "1"})
    repo.commit(dict.fromkeys(names, "1"))
    repo.commit({"last": "1"})
    with open_repo(repo.path) as opened:
        records = list(iter_commits_with_files(opened, "%H", "HEAD"))
    assert [files for _, files in records] == [["last"], sorted(names), ["first"]]


def test_git_failure_surfaces_as_a_one_line_error(new_repo):
    repo = new_repo()
    repo.commit({"a.py": "1"})
    error = pytest.raises(GraphiqError, match="^git log failed: fatal: .*no-such-rev")
    with error, open_repo(repo.path) as opened:
        list(iter_commits_with_files(opened, "%H", "no-such-rev"))
