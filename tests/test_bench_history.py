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


def test_gold_code_is_the_innermost_definition_holding_a_changed_line(tmp_path: Path) -> None:
    """history_code's gold: a changed line counts for the method holding it, not its class;
    an inserted line for the definition it was inserted in; a test file is left out."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from history_code import changed_lines, gold_symbols

    from graphiq_ci.index import run_index

    repo = _ruby_repo(tmp_path)
    edited = INVOICE.replace("    total - total", "    total = total.round\n    total - total")
    (repo / "lib" / "invoice.rb").write_text(edited)
    _git(repo, "commit", "-q", "-am", "Round the total first")
    head = subprocess.run(["git", "-C", str(repo), "log", "--format=%H"], capture_output=True,
                          text=True, check=True).stdout.split()
    cases = {head[2]: ("lib/invoice.rb", "Invoice.apply_discount", 2),   # `/ 100.0`, line 3
             head[0]: ("lib/invoice.rb", "Invoice.apply_discount", 2)}   # inserted after 2
    for commit, (path, qualified, line) in cases.items():
        parent = f"{commit}~1"
        _git(repo, "checkout", "-q", "--detach", parent)
        run_index(repo)
        changed = changed_lines(repo, parent, commit, [path])
        assert [(g["file"], g["qualname"], g["line"]) for g in gold_symbols(repo, changed)] \
            == [(path, qualified, line)], commit


@pytest.mark.skipif(not (BENCH_DIR / "peers" / "bm25_prompt.py").exists(),
                    reason=f"--code needs the shared benchmark at {BENCH_DIR}")
def test_the_code_each_prompt_shows_is_scored_in_the_same_run(tmp_path: Path) -> None:
    repo = _ruby_repo(tmp_path)
    lines = [line for line in _run("--repo", str(repo), "--limit", "5", "--code").splitlines()
             if line.startswith("|")]
    header, row = lines[-3], lines[-1]
    assert header.split(" | ")[1:4] == ["tasks with gold code", "CodeR 2000", "packer CodeR 2000"]
    cells = row.split(" | ")
    assert cells[0] == "| shop" and cells[1] == "2"
    assert float(cells[2]) == 1.0  # each method is the first, and whole, in a small prompt
    assert header.split(" | ")[-2:] == ["SymR@20", "packer SymR@20 |"]
    assert float(cells[-2]) == 1.0  # and the first entry of the symbol list
