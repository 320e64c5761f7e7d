"""benchmarks/bench_history.py on a repository of another language, one row per repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(os.environ.get("GRAPHIQ_BENCH_DIR") or ROOT.parent / "shared" / "bench")

INVOICE = """class Invoice
  def apply_discount(total, percent)
    total - total * percent / 100
  end
end
"""
SHIPPING = """class Shipping
  def estimate_delivery(days, weekend)
    weekend ? days + 2 : days
  end
end
"""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                    *args], check=True, capture_output=True)


def _ruby_repo(root: Path) -> Path:
    """Three commits: both files added, then each changed under a message in its own words."""
    repo = root / "shop"
    (repo / "lib").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "lib" / "invoice.rb").write_text(INVOICE)
    (repo / "lib" / "shipping.rb").write_text(SHIPPING)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "first")
    (repo / "lib" / "invoice.rb").write_text(INVOICE.replace("/ 100", "/ 100.0"))
    _git(repo, "commit", "-q", "-am", "Round the discount an invoice applies to its total")
    (repo / "lib" / "shipping.rb").write_text(SHIPPING.replace("+ 2", "+ 1"))
    _git(repo, "commit", "-q", "-am", "Estimate delivery one day sooner over a weekend")
    return repo


def _run(*args: str) -> str:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_history.py"), *args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_a_ruby_repositorys_history_is_ranked_in_its_own_row(tmp_path: Path) -> None:
    repo = _ruby_repo(tmp_path)
    rows = [line for line in _run("--repo", str(repo), "--repo", str(repo), "--limit", "5")
            .splitlines() if line.startswith("| shop |")]
    # the two modifying commits are the tasks (the first only adds); each file comes first
    assert len(rows) == 2
    assert rows[0].split(" | ")[2:7] == ["ruby", "2", "1.0", "1.0", "1.0 |"]


@pytest.mark.skipif(not (BENCH_DIR / "peers" / "bm25_files.py").exists(),
                    reason=f"--bm25 needs the shared benchmark at {BENCH_DIR}")
def test_bm25_ranks_the_same_tasks_in_the_same_run(tmp_path: Path) -> None:
    repo = _ruby_repo(tmp_path)
    header, _, row = [line for line in _run("--repo", str(repo), "--limit", "5", "--bm25")
                      .splitlines() if line.startswith("|")]
    assert header.split(" | ")[7:] == ["BM25 MRR", "BM25 R@1", "BM25 R@5", "MRR ratio |"]
    cells = row.split(" | ")
    assert cells[3] == "2" and 0.0 < float(cells[7]) <= 1.0
    assert cells[10] == f"{float(cells[4]) / float(cells[7]):.2f}× |"
