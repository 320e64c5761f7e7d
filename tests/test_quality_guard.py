"""The quality guard: this repository's own history as tasks, ranked the way a user's are.

`benchmarks/bench_history.py` mines the commits up to GUARD_UNTIL (pinned, so the task set
does not move as history grows; only a change to the ranking moves the figure), ranks each
commit's message at its parent, and scores the files it modified. The floor is the value
measured when the guard was set, minus a margin for noise; zeroing every weight proves the
floor catches a broken ranking. The figure is printed on every run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import PROJECT_ROOT

GUARD_UNTIL = "c3f8f8ba8c48b3da0611767fc81287ecf00af61b"
#: `python benchmarks/bench_history.py --until c3f8f8b` on c3f8f8b: 37 commits, MRR 0.74
MEASURED_MRR = 0.74
MARGIN = 0.08
FLOOR = MEASURED_MRR - MARGIN
MIN_TASKS = 30


def _history(*extra: str) -> dict[str, Any]:
    have = subprocess.run(["git", "-C", str(PROJECT_ROOT), "cat-file", "-e",
                           f"{GUARD_UNTIL}^{{commit}}"], capture_output=True)
    if have.returncode != 0:
        pytest.fail(f"the guard needs this repository's history up to {GUARD_UNTIL[:12]}: "
                    "clone with full history (.ci/run unshallows a shallow clone)")
    out = subprocess.run([sys.executable, str(PROJECT_ROOT / "benchmarks" / "bench_history.py"),
                          "--until", GUARD_UNTIL, "--json", *extra], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_ranking_on_this_repositorys_history_stays_above_the_floor(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = _history()
    with capsys.disabled():
        print(f"\nquality guard: file MRR {result['mrr']} (floor {FLOOR:.2f}), "
              f"R@1 {result['recall_at_1']}, R@5 {result['recall_at_5']} on {result['tasks']} "
              f"commits up to {result['history_until']}")
    assert result["tasks"] >= MIN_TASKS, result
    assert result["mrr"] >= FLOOR, result


def test_the_floor_catches_a_broken_ranking() -> None:
    broken = _history("--zero-weights")
    assert broken["tasks"] >= MIN_TASKS
    assert broken["mrr"] < FLOOR, broken
