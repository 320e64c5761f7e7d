"""Where is the code lost: in the order of the code units, or in the packing?

    python benchmarks/bench_unit_order.py [--splits dev,dev2] [--budgets 2000,8000] [--limit N]

In process, per task of each split: `build_context` over the checkout bench_context.py uses
(indexed here if it is not yet), then the prompt rendered at each budget twice, scored by
eval.py's own `code_metrics`:

  graphiq-ci    the code units in graphiq-ci's order (what `context` renders);
  gold first    the same units, the gold symbols' units moved to the front in graphiq-ci's
                order among themselves: the packer's ceiling for these units.

The gap between the two is what a better order of the units would buy; the gap between
"gold first" and 1.0 is what the packer, the budget and the units graphiq-ci never proposed
(files outside its top files, huge definitions) cost. A unit is a gold symbol's when it is in
the gold symbol's file and starts at its line or carries its qualified name. Prints one table
per split with the commit measured; takes about a minute per split once the checkouts are
indexed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe, prepare_checkouts, select_tasks  # noqa: E402

from graphiq_ci.context import Options, build_context  # noqa: E402
from graphiq_ci.context.model import CodeCandidates, CodeUnit  # noqa: E402
from graphiq_ci.render.output import render_text  # noqa: E402

SPLITS = {"dev": "repos.json", "dev2": "repos-dev2.json"}


def gold_first(units: list[CodeUnit], gold: list[dict[str, Any]]) -> list[CodeUnit]:
    """The units of gold symbols first, in their order: each scores ten times the best unit
    more than it did, so the packer takes them first and values the rest as before."""
    def is_gold(u: CodeUnit) -> bool:
        return any(g["file"] == u.file and (g["line"] == u.line or
                                            (g.get("qualname") or g["name"]) == u.qualified)
                   for g in gold)

    top = max((u.score for u in units), default=1.0)
    lifted = [u.with_score(u.score + 10 * top) if is_gold(u) else u for u in units]
    return sorted(lifted, key=lambda u: -u.score)


def score_task(ev: Any, task: dict[str, Any], repo: Path,
               budgets: list[int]) -> dict[tuple[str, int], dict[str, float]]:
    ctx = build_context(repo, task["task"], Options())
    code = ctx.code
    out = {}
    for label, units in (("graphiq-ci", code.units),
                         ("gold first", gold_first(code.units, task.get("gold_symbols") or []))):
        ctx.code = CodeCandidates(units, code.sources, code.languages, code.copies)
        for b in budgets:
            text = render_text(ctx, "prompt", max_tokens=b).text
            out[(label, b)] = ev.code_metrics(task, text, str(repo))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--splits", default="dev,dev2")
    ap.add_argument("--budgets", default="2000,8000")
    ap.add_argument("--limit", type=int)
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    ev = C.load_bench_module("eval")
    t0 = time.perf_counter()
    print(f"Unit order: graphiq-ci {git_describe()}; {C.hardware_note()}.\n")
    for split in args.splits.split(","):
        tasks = select_tasks(C.BENCH_DIR / "tasks" / f"{split}.jsonl", None, args.limit)
        prepare_checkouts(ev, tasks, C.BENCH_DIR / "tasks" / SPLITS[split])
        scores: dict[tuple[str, int], list[dict[str, float]]] = {}
        errors = 0
        for task in tasks:
            repo = Path(ev.checkout_path(task["repo"], task["base_commit"]))
            try:
                got = score_task(ev, task, repo, budgets)
            except Exception as exc:  # noqa: BLE001 - a task that fails is counted, not fatal
                errors += 1
                print(f"{task['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            for key, m in got.items():
                if m:
                    scores.setdefault(key, []).append(m)
        print(f"### {split}: {len(tasks)} tasks, {errors} failed\n")
        print("| order | budget | CodeR | Full |\n|---|---|---|---|")
        rows = sorted(scores.items(), key=lambda kv: (kv[0][1], kv[0][0] != "graphiq-ci"))
        for (label, b), ms in rows:
            print(f"| {label} | {b} | {statistics.mean(m['CodeR'] for m in ms):.3f} | "
                  f"{statistics.mean(m['Full'] for m in ms):.3f} |")
        print()
    print(f"{time.perf_counter() - t0:.0f}s in all.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
