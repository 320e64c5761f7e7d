"""The code in the context on a repository's own history: `bench_history.py --code`.

The shared benchmark scores the rendered text (eval.py's CodeR and Full) only on its two
splits. This gives any repository's commits the same score, so the code a prompt shows can
be checked on languages and repositories in neither split:
  gold    the innermost definitions (graphiq-ci's index at the parent) holding a line the
          commit changed, in the non-test code files it modified, as the splits' gold_symbols
          are (an added line counts for the definition it was inserted in);
  ours    `context --format prompt` at each budget, from the context that ranked the files;
  packer  the shared benchmark's BM25 chunk packer (`peers/bm25_prompt.py`) at each budget.
Symbol Recall@20 is eval.py's: the share of the gold symbols among a method's first 20
symbols (ours: the context's symbol list; the packer's: the chunks of its 2,000-token prompt).
The index's own spans define the gold: a whole unit shown is a whole gold symbol, which the
regex chunks of the packer need not be, so compare the packer's figure with care.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

BUDGETS = (2000, 8000)
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.M)


def changed_lines(root: Path, parent: str, commit: str, paths: list[str]) -> dict[str, set[int]]:
    """Per file, the parent's lines the commit changed; an insertion counts the line it
    follows (or line 1)."""
    out: dict[str, set[int]] = {}
    for path in paths:
        diff = subprocess.run(["git", "-C", str(root), "diff", "-U0", parent, commit, "--", path],
                              capture_output=True, text=True, errors="replace").stdout
        lines: set[int] = set()
        for m in _HUNK.finditer(diff):
            start, count = int(m.group(1)), int(m.group(2) or "1")
            lines.update(range(start, start + count) if count else [max(start, 1)])
        out[path] = lines
    return out


def gold_symbols(root: Path, changed: dict[str, set[int]]) -> list[dict[str, Any]]:
    """The innermost definition holding each changed line, from the fresh index at `root`."""
    from graphiq_ci.store import open_store

    store = open_store(root)
    try:
        gold: dict[tuple[str, str, int], dict[str, Any]] = {}
        for path, lines in changed.items():
            rows = store.conn.execute(
                "SELECT s.name, s.qualified, s.kind, s.line, s.end_line FROM symbols s "
                "JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.kind != 'file'",
                (path,)).fetchall()
            for n in lines:
                holding = [r for r in rows if r[3] <= n <= r[4]]
                if holding:
                    name, qualified, kind, line, end = min(holding, key=lambda r: r[4] - r[3])
                    gold[(path, qualified, line)] = {
                        "file": path, "name": name, "qualname": qualified, "kind": kind,
                        "line": line, "end_line": end}
        return list(gold.values())
    finally:
        store.close()


@cache
def _eval() -> ModuleType:
    """The shared benchmark's eval.py, loaded once for every task."""
    import _common as C

    return C.load_bench_module("eval")


def packer_output(root: Path, task: str, budget: int, tmp: Path) -> dict[str, Any]:
    """The BM25 chunk packer's output for `task` at `budget` (its prompt is `context`, its
    chunks `symbols`), run as the splits run it."""
    import _common as C

    task_file = tmp / "task.txt"
    task_file.write_text(task)
    done = subprocess.run([sys.executable, str(C.BENCH_DIR / "peers" / "bm25_prompt.py"),
                           str(root), str(task_file), "--budget", str(budget)],
                          capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def symbol_recall(gold: list[dict[str, Any]], symbols: list[dict[str, Any]]) -> float:
    """eval.py's SymR@20 of `symbols` ({"file", "name"}, best first) against `gold`, from its
    own `task_metrics`."""
    task = {"gold_files": sorted({g["file"] for g in gold}), "gold_symbols": gold}
    return float(_eval().task_metrics(task, [], symbols)["SymR@20"])


@dataclass
class CodeScores:
    """CodeR and Full per budget, a value per task with gold symbols, for one method."""

    code_r: dict[int, list[float]] = field(default_factory=lambda: {b: [] for b in BUDGETS})
    full: dict[int, list[float]] = field(default_factory=lambda: {b: [] for b in BUDGETS})
    sym_r: list[float] = field(default_factory=list)

    def add(self, budget: int, metrics: dict[str, float]) -> None:
        self.code_r[budget].append(metrics["CodeR"])
        self.full[budget].append(metrics["Full"])

    def summary(self) -> dict[str, float]:
        def mean(values: list[float]) -> float:
            return round(sum(values) / len(values), 3) if values else 0.0

        return {**{f"code_r_{b}": mean(v) for b, v in self.code_r.items()},
                **{f"full_{b}": mean(v) for b, v in self.full.items()},
                "sym_r_20": mean(self.sym_r),
                "code_tasks": len(self.code_r[BUDGETS[0]])}


def score(ctx: Any, root: Path, task: str, gold: list[dict[str, Any]], ours: CodeScores,
          packer: CodeScores, tmp: Path) -> None:
    """Render `ctx` and the packer's prompt at each budget; score both against `gold`, and
    both symbol lists."""
    from graphiq_ci.render.output import render_text

    ev = _eval()
    spec = {"gold_symbols": gold}
    for budget in BUDGETS:
        mine = ev.code_metrics(spec, render_text(ctx, "prompt", max_tokens=budget).text, str(root))
        if not mine:  # no gold line of 8 characters or more: nothing to find
            return
        ours.add(budget, mine)
        theirs = packer_output(root, task, budget, tmp)
        packer.add(budget, ev.code_metrics(spec, str(theirs["context"]), str(root)))
        if budget == BUDGETS[0]:
            ours.sym_r.append(symbol_recall(gold, [{"file": s.file, "name": s.name}
                                                   for s in ctx.symbols]))
            packer.sym_r.append(symbol_recall(gold, list(theirs.get("symbols") or [])))
