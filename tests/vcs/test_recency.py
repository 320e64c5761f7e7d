from __future__ import annotations

import os
import time

import pytest

from graphiq_ci.vcs import file_recency, recency_boost
from tests.vcs.conftest import EPOCH


def test_recency_boost_halves_every_half_life():
    day = 86_400
    assert recency_boost(0) == 1.0
    assert recency_boost(-5 * day) == 1.0  # clock skew: treat as now
    assert recency_boost(14 * day) == pytest.approx(0.5)
    assert recency_boost(28 * day) == pytest.approx(0.25)
    assert recency_boost(7 * day, half_life_days=7) == pytest.approx(0.5)


def test_clean_files_get_their_last_commit_time_not_their_mtime(new_repo):
    repo = new_repo()
    repo.commit({"a.py": "1\n", "b.py": "1\n"}, when=EPOCH + 100)
    repo.commit({"a.py": "2\n"}, when=EPOCH + 200)
    repo.commit({"c.py": "3\n"}, when=EPOCH + 300)
    # every file's mtime is "now", as in a fresh CI checkout
    assert file_recency(repo.path, ["a.py", "b.py", "c.py"]) == {
        "a.py": EPOCH + 200,
        "b.py": EPOCH + 100,
        "c.py": EPOCH + 300,
    }


def test_uncommitted_and_untracked_files_use_mtime(new_repo):
    repo = new_repo()
    repo.commit({"a.py": "1\n", "b.py": "1\n", "gone.py": "1\n"}, when=EPOCH)
    repo.write({"a.py": "edited\n", "new.py": "n\n", "gone.py": None})
    os.utime(repo.path / "new.py", (EPOCH + 500, EPOCH + 500))
    before = time.time()
    times = file_recency(repo.path, ["a.py", "b.py", "new.py", "gone.py", "never.py"])
    assert times["a.py"] >= before - 5
    assert times["b.py"] == EPOCH
    assert times["new.py"] == EPOCH + 500
    assert times["gone.py"] == EPOCH  # deleted in the work tree: last commit still counts
    assert "never.py" not in times


def test_merged_files_count_from_the_merge(new_repo):
    repo = new_repo()
    repo.commit({"a.py": "1\n"}, when=EPOCH)
    repo("checkout", "-q", "-b", "side")
    repo.commit({"side.py": "s\n"}, when=EPOCH + 100)
    repo("checkout", "-q", "main")
    repo.commit({"a.py": "2\n"}, when=EPOCH + 200)
    repo("merge", "-q", "--no-ff", "-m", "merge", "side", when=EPOCH + 300)
    assert file_recency(repo.path, ["side.py", "a.py"]) == {
        "side.py": EPOCH + 300,
        "a.py": EPOCH + 200,
    }


def test_history_walk_is_capped(new_repo):
    repo = new_repo()
    repo.commit({"old.py": "1\n"}, when=EPOCH)
    for step in range(1, 4):
        repo.commit({"hot.py": f"{step}\n"}, when=EPOCH + step * 100)
    times = file_recency(repo.path, ["old.py", "hot.py"], max_commits=2)
    assert times == {"hot.py": EPOCH + 300, "old.py": EPOCH + 200}  # oldest walked, as a bound


def test_empty_repository_uses_mtime(new_repo):
    repo = new_repo()
    repo.write({"a.py": "1\n"})
    os.utime(repo.path / "a.py", (EPOCH, EPOCH))
    assert file_recency(repo.path, ["a.py", "b.py"]) == {"a.py": EPOCH}
    assert file_recency(repo.path, []) == {}
