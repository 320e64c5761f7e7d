"""A full run works its deep edges out in a child process while it resolves (finish.History):
the same edges as worked out in the run itself, and still all of them when the child dies."""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import graphiq_ci.index.deep as deep
from graphiq_ci.index import run_index
from graphiq_ci.model import DEEP_EDGES
from tests.conftest import git

_FILES = {
    "ledger.py": ('FORMAT = "ledger-v2"\n\n'
                  'def balance_of(account):\n    return account.balance + account.pending\n\n'
                  'def close(account):\n    account.pending = 0\n    return "ledger-v2"\n'),
    "report.py": ('def summary(account):\n    # see balance_of for what counts\n'
                  '    return f"{account.balance} {account.pending} ledger-v2"\n\n'
                  'def header():\n    return "ledger-v2"\n'),
}

_PARENT: list[int] = []  # the test's own pid
_MARKS: list[Path] = []  # the folder where _recording leaves one file per computing process
_ALL_DEEP_EDGES = deep.all_deep_edges
_COMPUTE = deep._all_deep_edges


def _recording(conn: sqlite3.Connection) -> list[deep.Row]:
    """The computation of every deep edge (the child's, or the parent's when it redoes it),
    leaving a file named after the process it ran in: a child's result thrown away would show
    as a second file, the parent's. Module level: a forked child finds it by name."""
    (_MARKS[0] / f"computed-in-{os.getpid()}").touch()
    return _COMPUTE(conn)


def _dying_in_the_child(db: Path) -> list[deep.Row]:
    """all_deep_edges, except in a child process, which ends at once as a SIGKILL would."""
    if os.getpid() != _PARENT[0]:
        os._exit(9)
    return _ALL_DEEP_EDGES(db)


Edges = Counter[tuple[str, str, str, str]]  # (source, target, kind, token), counted


def _deep_rows(repo: Path) -> tuple[Edges, Edges]:
    """The stored deep edges (by qualified names, counted) and those worked out afresh from
    the stored deep tokens in this process."""
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        name = dict(conn.execute("SELECT id, qualified FROM symbols"))
        kinds = {k.value for k in DEEP_EDGES}
        stored = Counter((name[a], name[b], kind, meta) for a, b, kind, meta in conn.execute(
            "SELECT src_id, dst_id, kind, meta FROM edges") if kind in kinds)
        fresh = Counter((name[a], name[b], kind, meta)
                        for a, b, kind, _, meta in _COMPUTE(conn))
        return stored, fresh
    finally:
        conn.close()


def test_a_full_run_takes_its_deep_edges_from_a_child(
        make_repo: Callable[..., Path], tmp_path: Path,
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo(_FILES)
    marks = tmp_path / "marks"
    marks.mkdir()
    _MARKS[:] = [marks]
    monkeypatch.setattr(deep, "_all_deep_edges", _recording)
    run_index(repo, full=True)
    ran_in = {int(p.name.rsplit("-", 1)[1]) for p in marks.iterdir()}
    assert len(ran_in) == 1 and os.getpid() not in ran_in  # a child's, used: no parent redo
    stored, fresh = _deep_rows(repo)
    assert stored == fresh
    assert {kind for _, _, kind, _ in stored} >= {"shares_constant", "shares_data_shape"}


def test_a_full_run_whose_deep_edge_child_dies_works_them_out_itself(
        make_repo: Callable[..., Path], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo(_FILES)
    git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    _PARENT[:] = [os.getpid()]
    monkeypatch.setattr(deep, "all_deep_edges", _dying_in_the_child)
    report = run_index(repo, full=True)
    assert not report.notes, report.notes
    stored, fresh = _deep_rows(repo)
    assert stored == fresh and stored  # every deep edge, once, though the child died
    with sqlite3.connect(repo / ".graphiq" / "graphiq.db") as conn:
        recency = dict(conn.execute("SELECT path, recency FROM files"))
    # history still read: a pool whose worker dies fails its other future too, and then the
    # parent reads git itself (record_history)
    assert all(r > 0 for r in recency.values())
