"""benchmarks/bench_quality.py end to end on two tasks with the two stdlib baselines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(os.environ.get("GRAPHIQ_BENCH_DIR") or ROOT.parent / "shared" / "bench")
# resolved at import, before the autouse fixture swaps HOME
WORK = Path(os.environ.get("BENCH_WORK") or Path.home() / ".cache" / "graphiq-bench")
MIRRORS = Path(os.environ.get("BENCH_MIRRORS") or WORK / "mirrors")
FIRST_REPO = "fastapi+typer"  # the first tasks in tasks/dev.jsonl


@pytest.mark.skipif(
    not (BENCH_DIR / "eval.py").exists() or not (MIRRORS / FIRST_REPO / "repo").is_dir(),
    reason=f"needs the quality benchmark at {BENCH_DIR} and mirrors at {MIRRORS} "
           "(set GRAPHIQ_BENCH_DIR / BENCH_MIRRORS)",
)
def test_bench_quality_prints_both_baselines(tmp_path: Path) -> None:
    env = dict(os.environ, GRAPHIQ_BENCH_DIR=str(BENCH_DIR), BENCH_MIRRORS=str(MIRRORS),
               BENCH_WORK=str(tmp_path / "work"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_quality.py"), "--tools", "bm25,grep",
         "--limit", "2", "--out-dir", str(tmp_path / "results")],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| tool | n | R@1 | R@5 |")
    assert any(r.startswith("| bm25_files | 2 |") for r in rows)
    assert any(r.startswith("| grep_files | 2 |") for r in rows)
    assert (tmp_path / "results" / "grep_files-dev.json").exists()
    assert not (tmp_path / "results" / "quality-summary.md").exists()
