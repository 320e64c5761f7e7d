"""A graph read through a delta over an untouched cache equals a fresh build; the delta
accumulates over successive edits, is folded into a new cache past its share, and a damaged
delta file is set aside and rebuilt."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from graphiq_ci.index import run_index
from graphiq_ci.search import graph_delta, load_graph, overlay_columns
from graphiq_ci.search.graph import GraphIndex, build
from graphiq_ci.search.graph_cache import CACHE_NAME
from graphiq_ci.search.graph_files import DELTA_NAME
from graphiq_ci.store import index_dir, open_store
from tests.search.test_graph_cache import _observable
from tests.search.test_graph_update import (
    EXTRA,
    FILES,
    SERVICE,
    UTIL,
    _assert_same,
    _refresh,
    _spread,
    phase_log,
    random_edits,
    real_edits,
)

__all__ = ["phase_log"]  # the fixture, used by name


@pytest.fixture
def never_compact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph_delta, "COMPACT_SHARE", 1.0)
    monkeypatch.setattr(graph_delta, "COMPACT_BYTES", float("inf"))


COLUMNS = ("ids", "names", "qualified", "kinds", "file_of", "lines", "end_lines", "visibility",
           "parent", "degree")


def _assert_item_by_item(g: GraphIndex, want: dict[str, object]) -> None:
    """Each id looked up (a gone one is absent), then each column read an item at a time
    (as a query reads it), then a slice, from the end, and past the end, before anything
    reads it whole."""
    n = len(g.ids)
    ids = want["ids"]
    assert isinstance(ids, list)
    assert [g.pos_of_id.get(sid) for sid in ids] == list(range(n))
    gone = set(range(max(ids) + 2)) - set(ids)  # deleted and re-read symbols' old ids
    assert not any(sid in g.pos_of_id or g.pos_of_id.get(sid) is not None for sid in gone)
    for name in COLUMNS:
        column, expected = getattr(g, name), want[name]
        assert [column[i] for i in range(n)] == expected, name
        assert column[1:4] == expected[1:4] and column[-1] == expected[-1], name
        with pytest.raises(IndexError):
            column[n]


def test_a_column_read_past_its_share_item_by_item_is_made_one_list(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path, never_compact: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A scan of every symbol makes a column one list after `FLAT_AFTER` reads (here 0:
    at the first); it reads the same."""
    monkeypatch.setattr(overlay_columns, "FLAT_AFTER", 0)
    repo = make_repo(FILES)
    _refresh(repo, phase_log)
    (repo / "pkg/extra.py").write_text(EXTRA)
    (repo / "pkg/base.py").unlink()
    _, want, log = _refresh(repo, phase_log)
    assert "graph-delta" in log
    store = open_store(repo)
    try:
        g = load_graph(store, repo)
        _assert_item_by_item(g, want)
        assert all(getattr(g, name)._flat is not None for name in COLUMNS if name != "degree")
        _assert_same(_observable(g), want)
    finally:
        store.close()


def _files(repo: Path) -> tuple[bytes, Path]:
    return (index_dir(repo) / CACHE_NAME).read_bytes(), index_dir(repo) / DELTA_NAME


def test_successive_edits_read_through_a_delta_and_never_rewrite_the_cache(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path,
        never_compact: None) -> None:
    repo = make_repo(FILES)
    _refresh(repo, phase_log)
    base, delta = _files(repo)
    assert not delta.exists()
    edits = real_edits(repo) + [
        ("delete a file", lambda: (repo / "pkg/extra.py").unlink()),
        ("the binary file is text again", lambda: (repo / "pkg/util.py").write_text(UTIL)),
        ("delete the base module", lambda: (repo / "pkg/base.py").unlink()),
    ]
    for what, edit in edits:
        edit()
        got, want, log = _refresh(repo, phase_log)
        assert "graph-delta" in log and "graph-cache" not in log, (what, log)
        _assert_same(got, want)
        assert _files(repo)[0] == base, what  # the cache file is never rewritten
        # a second process reads the delta file as it is: nothing patched, nothing written
        phase_log.write_text("")
        store = open_store(repo)
        try:
            again = load_graph(store, repo)
            assert phase_log.read_text() == "", what
            _assert_item_by_item(again, want)
            _assert_same(_observable(again), want)
        finally:
            store.close()


def test_a_delta_past_its_share_is_folded_into_a_new_cache(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo({**FILES, "pkg/extra.py": EXTRA})
    _refresh(repo, phase_log)
    monkeypatch.setattr(graph_delta, "COMPACT_SHARE", 1.0)
    monkeypatch.setattr(graph_delta, "COMPACT_BYTES", float("inf"))
    (repo / "pkg/util.py").write_text(UTIL.replace("def other(", "def other_renamed("))
    got, want, log = _refresh(repo, phase_log)
    assert "graph-delta" in log and _files(repo)[1].exists()
    _assert_same(got, want)
    monkeypatch.setattr(graph_delta, "COMPACT_SHARE", 0.0)
    (repo / "pkg/extra.py").unlink()
    got, want, log = _refresh(repo, phase_log)
    assert "graph-patch" in log and "graph-cache" in log and "graph-delta" not in log
    assert not _files(repo)[1].exists()  # the delta is in the new cache
    _assert_same(got, want)
    store = open_store(repo)
    try:
        assert load_graph(store, repo).generation == store.generation
    finally:
        store.close()
    monkeypatch.setattr(graph_delta, "COMPACT_SHARE", 1.0)
    (repo / "pkg/service.py").write_text(SERVICE + "\n\ndef refund(amount):\n    return -amount\n")
    got, want, log = _refresh(repo, phase_log)
    assert "graph-delta" in log and "graph-cache" not in log  # a delta over the new cache
    _assert_same(got, want)


def test_a_delta_carries_its_changes_past_the_logs_window(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path,
        never_compact: None) -> None:
    """The log keeps 16 generations; a delta refreshed by queries in between keeps the
    symbols it holds, so the cache under it never needs the log to reach back that far."""
    repo = make_repo(_spread(10))
    _refresh(repo, phase_log)
    base, _ = _files(repo)
    for k in range(20):
        (repo / f"pkg/mod_{k % 10}.py").write_text(
            _spread(10)[f"pkg/mod_{k % 10}.py"] + f"def extra_{k}(x):\n    return x\n")
        got, want, log = _refresh(repo, phase_log)
        assert "graph-delta" in log and "graph-cache" not in log, k
        _assert_same(got, want)
    assert _files(repo)[0] == base


def _one_delta(repo: Path, phase_log: Path) -> tuple[dict[str, object], Path]:
    """A cache, then one change read through a delta: the graph it gives, and the delta."""
    _refresh(repo, phase_log)
    (repo / "pkg/extra.py").write_text(EXTRA)
    _, want, _ = _refresh(repo, phase_log)
    return want, _files(repo)[1]


def test_a_damaged_delta_file_is_set_aside_and_rebuilt(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path, never_compact: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(FILES)
    want, delta = _one_delta(repo, phase_log)
    good = delta.read_bytes()
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x55
    for name, data in {"garbage": b"not a delta at all", "truncated": good[:len(good) // 2],
                       "byte flipped": bytes(flipped), "empty": b""}.items():
        delta.write_bytes(data)
        capsys.readouterr()
        store = open_store(repo)
        try:
            _assert_same(_observable(load_graph(store, repo)), want)
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "graph delta unreadable" in err, (name, err)
            assert (delta.parent / err.strip().rsplit(" ", 1)[-1]).exists(), name
            assert delta.read_bytes()[:4] == good[:4], name  # written again
            _assert_same(_observable(load_graph(store, repo)), want)
            assert capsys.readouterr().err == "", name
        finally:
            store.close()
    for aside in delta.parent.glob(f"{DELTA_NAME}.broken-*"):
        aside.unlink()


def test_a_missing_delta_or_one_of_another_cache_is_made_again(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path,
        never_compact: None) -> None:
    repo = make_repo(FILES)
    want, delta = _one_delta(repo, phase_log)
    stale = delta.read_bytes()
    delta.unlink()
    store = open_store(repo)
    try:
        _assert_same(_observable(load_graph(store, repo)), want)
        assert delta.exists()
        (index_dir(repo) / CACHE_NAME).unlink()  # a rebuilt cache: the old delta isn't its
        _assert_same(_observable(load_graph(store, repo)), want)
        assert not delta.exists()
        delta.write_bytes(stale)
        _assert_same(_observable(load_graph(store, repo)), want)
        assert _observable(build(store)) == want
    finally:
        store.close()


@pytest.mark.parametrize("seed", range(3))
def test_random_edit_sequences_read_through_a_delta_exactly(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path, never_compact: None,
        seed: int) -> None:
    """Random adds, deletions, renames and rewired calls, one delta over one cache."""
    rnd = random.Random(seed)
    repo = make_repo(_spread(8))
    _refresh(repo, phase_log)
    base, _ = _files(repo)
    for _ in range(6):
        random_edits(repo, rnd)
        got, want, log = _refresh(repo, phase_log)
        assert "graph-cache" not in log
        _assert_same(got, want)
    assert _files(repo)[0] == base
    run_index(repo)


def test_degrees_follow_the_busiest_symbol_through_a_delta(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path,
        never_compact: None) -> None:
    """Degree is normalised by the largest edge count: the busiest symbol deleted (the next
    busiest, unchanged, sets it) and a new one busier than any (it sets it)."""
    callers = {f"pkg/use_{i}.py": f"from pkg.hub import hub\n\n\ndef use_{i}(x):\n"
               f"    return hub(x) + hub(x + 1)\n" for i in range(6)}
    second = "from pkg.hub import hub\n\n\n" + "".join(
        f"def side_{k}(x):\n    return hub(x)\n\n\n" for k in range(3))
    repo = make_repo({"pkg/__init__.py": "", "pkg/hub.py": "def hub(x):\n    return x\n",
                      **callers, "pkg/side.py": second})
    _refresh(repo, phase_log)
    (repo / "pkg/hub.py").write_text("def other(x):\n    return x\n")
    got, want, log = _refresh(repo, phase_log)
    assert "graph-delta" in log
    _assert_same(got, want)
    busy = "from pkg.use_0 import use_0\n\n\n" + "".join(
        f"def busy_{k}(x):\n    return use_0(x)\n\n\n" for k in range(12))
    (repo / "pkg/busy.py").write_text(busy)
    got, want, log = _refresh(repo, phase_log)
    assert "graph-delta" in log
    _assert_same(got, want)


def _hub_repo(callers: int) -> dict[str, str]:
    """`_spread(30)` plus one function that `callers` others call, four to a module."""
    files = _spread(30)
    files["pkg/hub.py"] = "def hub(x):\n    return x\n"
    for m in range(callers // 4):
        files[f"pkg/use_{m}.py"] = "from pkg.hub import hub\n\n\n" + "".join(
            f"def use_{m}_{k}(x):\n    return hub(x) + {k}\n\n\n" for k in range(4))
    return files


def test_a_delta_heavier_than_its_share_of_the_cache_is_folded(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path) -> None:
    """Each query decodes the delta whole: an edit touching few symbols but rewriting many
    neighbours' edge lists (a hub's callers) is folded into the cache at once, while a leaf
    edit in the same repository stays a delta (the default shares, both under
    `COMPACT_SHARE` in symbols)."""
    repo = make_repo(_hub_repo(200))
    _refresh(repo, phase_log)
    (repo / "pkg/mod_7.py").write_text(_spread(30)["pkg/mod_7.py"] + "def leaf(x):\n"
                                       "    return x\n")
    got, want, log = _refresh(repo, phase_log)
    assert "graph-delta" in log and "graph-cache" not in log
    _assert_same(got, want)
    cache, delta = _files(repo)
    assert len(delta.read_bytes()) < graph_delta.COMPACT_BYTES * len(cache)
    (repo / "pkg/hub.py").write_text("def hub(x, y=0):\n    return x + y\n")
    got, want, log = _refresh(repo, phase_log)
    touched = int(log.split("graph-patch ", 1)[1].split()[0])
    assert touched < graph_delta.COMPACT_SHARE * 1000  # not folded for its symbols
    assert "graph-cache" in log and "graph-delta" not in log
    assert not delta.exists()
    _assert_same(got, want)
