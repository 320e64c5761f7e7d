from __future__ import annotations

import json

import pytest

from graphiq_ci.vcs import CoChange, RelatedFile, cochange, cochange_update, related_files


@pytest.fixture
def scripted(new_repo):
    """Six commits with known co-changes; one of them is a 51-file reformat (noise)."""
    repo = new_repo()
    repo.commit({"a": "1", "b": "1"})  # a b
    repo.commit({"a": "2", "b": "2", "c": "2"})  # a b c
    repo.commit({"a": "3", "c": "3"})  # a c
    repo.commit({"d": "4"})  # d
    repo.commit({"a": "5", "b": "5", **{f"gen/{i}": "x" for i in range(49)}})  # 51 files: noise
    repo.commit({"b": "6", "c": "6"})  # b c
    return repo


def as_data(state: CoChange) -> tuple[dict, dict]:
    return dict(state.count), {a: dict(bs) for a, bs in state.support.items() if bs}


def test_counts_and_confidence_on_a_scripted_history(scripted):
    state = cochange(scripted.path)
    assert state.head == scripted.sha()
    assert len(state.commits) == 6
    assert sum(files is None for _, files in state.commits) == 1
    assert dict(state.count) == {"a": 3, "b": 3, "c": 3, "d": 1}
    assert {a: dict(bs) for a, bs in state.support.items()} == {
        "a": {"b": 2, "c": 2},
        "b": {"a": 2, "c": 2},
        "c": {"a": 2, "b": 2},
    }
    assert state.confidence("a", "b") == pytest.approx(2 / 3)
    assert state.confidence("d", "a") == 0.0
    assert state.confidence("zzz", "a") == 0.0


def test_window_and_noise_limits(scripted):
    last_two = cochange(scripted.path, max_commits=2)
    assert as_data(last_two) == ({"b": 1, "c": 1}, {"b": {"c": 1}, "c": {"b": 1}})
    roomy = cochange(scripted.path, max_files=60)
    assert roomy.count["a"] == 4
    assert roomy.count["gen/0"] == 1


def test_merges_are_not_counted(scripted):
    scripted("checkout", "-q", "-b", "side")
    scripted.commit({"s": "1", "a": "side"})
    scripted("checkout", "-q", "main")
    scripted.commit({"d": "main"})
    scripted("merge", "-q", "--no-ff", "-m", "merge", "side")
    state = cochange(scripted.path)
    assert state.count["s"] == 1 and state.support["s"] == {"a": 1}
    assert len(state.commits) == 8


def test_state_round_trips_through_json(scripted):
    state = cochange(scripted.path)
    restored = CoChange.from_json(json.loads(json.dumps(state.to_json())))
    assert restored == state
    assert as_data(restored) == as_data(state)
    assert CoChange.from_json({"version": 999}) is None
    assert CoChange.from_json({"version": 1, "commits": 3}) is None


def test_incremental_update_equals_full_rebuild(scripted):
    old = cochange(scripted.path, max_commits=4)
    scripted.commit({"a": "7", "d": "7"})
    scripted.commit({"c": "8", "d": "8"})
    updated = cochange_update(CoChange.from_json(json.loads(json.dumps(old.to_json()))),
                              scripted.path)
    full = cochange(scripted.path, max_commits=4)
    assert updated == full
    assert as_data(updated) == as_data(full)
    assert updated.head == scripted.sha()


def test_update_reads_only_commits_it_has_not_seen(scripted):
    old = cochange(scripted.path)
    # tamper with a commit already in the state: an update must not re-read it
    sha, _ = old.commits[-1]
    doctored = old.to_json()
    doctored["commits"][-1] = [sha, ["x", "y"]]
    scripted.commit({"e": "1"})
    updated = cochange_update(CoChange.from_json(doctored), scripted.path)
    assert updated.support["x"] == {"y": 1}
    assert updated.count["e"] == 1
    assert cochange_update(updated, scripted.path) is updated  # nothing new


def test_rewritten_history_is_rebuilt(scripted):
    old = cochange(scripted.path)
    scripted("reset", "-q", "--hard", "HEAD~2")
    scripted.commit({"a": "new", "d": "new"})
    updated = cochange_update(old, scripted.path)
    assert updated == cochange(scripted.path)
    assert updated.support["a"]["d"] == 1


def test_empty_repository_then_first_commits(new_repo):
    repo = new_repo()
    empty = cochange(repo.path)
    assert (empty.head, empty.commits, dict(empty.count)) == (None, (), {})
    repo.commit({"a": "1", "b": "1"})
    updated = cochange_update(empty, repo.path)
    assert updated == cochange(repo.path)
    assert cochange_update(None, repo.path) == updated


def test_related_files(scripted):
    state = cochange(scripted.path)
    assert related_files(state, ["a"], min_confidence=0.5, top=10) == [
        RelatedFile("b", pytest.approx(2 / 3), "a"),
        RelatedFile("c", pytest.approx(2 / 3), "a"),
    ]
    assert related_files(state, ["a", "b"], min_confidence=0.5, top=10) == [
        RelatedFile("c", pytest.approx(2 / 3), "a"),
    ]
    assert related_files(state, ["a"], min_confidence=0.7, top=10) == []
    assert related_files(state, ["a"], min_confidence=0.1, top=1) == [
        RelatedFile("b", pytest.approx(2 / 3), "a")
    ]
    assert related_files(state, ["d"], min_confidence=0.0, top=10) == []
    # one shared commit is not a habit unless asked for
    scripted.commit({"d": "9", "e": "9"})
    state = cochange(scripted.path)
    assert related_files(state, ["e"], 0.5, 10) == []
    assert related_files(state, ["e"], 0.5, 10, min_support=1) == [RelatedFile("d", 1.0, "e")]


def test_subjects_of_counted_commits_make_each_files_history(new_repo):
    repo = new_repo()
    repo.commit({"a": "1", "b": "1"}, message="Cache the parsed config")
    repo.commit({"a": "2", **{f"gen/{i}": "x" for i in range(51)}}, message="Reformat all")
    repo.commit({"b": "3"}, message="Retry on timeout")
    state = cochange(repo.path)
    assert sorted(state.subjects.values()) == ["Cache the parsed config", "Retry on timeout"]
    assert state.history_documents() == {  # the 52-file reformat is noise: no words from it
        "a": "Cache the parsed config",
        "b": "Retry on timeout\nCache the parsed config",  # newest first
    }
    repo.commit({"a": "4"}, message="Bound the config cache")
    updated = cochange_update(CoChange.from_json(json.loads(json.dumps(state.to_json()))),
                              repo.path)
    assert updated == cochange(repo.path)  # subjects included
    assert updated.history_documents()["a"] == "Bound the config cache\nCache the parsed config"
