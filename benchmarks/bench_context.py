"""Code in the context: does the rendered text show the code the PR changed?

    python benchmarks/bench_context.py [--splits dev,dev2] [--budgets 2000,8000] \
        [--tools graphiq,bm25_prompt,codegraph] [--limit N] [--repo owner/name]

For each split, eval.py runs once per tool and budget over the same checkouts, and this prints
one table per split: CodeR (per gold symbol, the share of its distinctive lines shown verbatim),
Full (gold symbols shown at least 90 % whole), the text's size (characters / 4, the same
measure for every tool), file MRR, file Recall@1 and symbol Recall@20, then graphiq-ci / BM25
packer at each budget; then CodeR and file MRR per language. graphiq-ci is `context --format
json --max-tokens B`, whose `prompt` is the text scored; the BM25 packer is
`peers/bm25_prompt.py` at the same budget; CodeGraph runs at its default. A full run (no
--limit/--repo) rewrites benchmarks/results/context-summary.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe, prepare_checkouts, select_tasks  # noqa: E402

SPLITS = {"dev": "repos.json", "dev2": "repos-dev2.json"}
COLS = [("CodeR", "CodeR", "{:.3f}"), ("Full", "Full", "{:.3f}"),
        ("ctx_tok_med", "tokens med", "{:.0f}"), ("MRR", "file MRR", "{:.3f}"),
        ("R@1", "file R@1", "{:.3f}"), ("SymR@20", "SymR@20", "{:.3f}"),
        ("errors", "errors", "{:d}")]
Row = tuple[str, str, dict[str, Any]]  # tool, budget, eval.py's result


def commands(budget: int | None) -> dict[str, tuple[str, str | None, dict[str, str]]]:
    """tool key → (query command, prepare command, extra environment) for eval.py."""
    q = shlex.quote
    py, peers, gq = q(sys.executable), C.BENCH_DIR / "peers", q(C.graphiq_exe())
    to_eval = q(str(Path(__file__).parent / "to_eval.py"))
    return {
        "graphiq": (f"{gq} context --repo {{repo}} --task-file {{task_file}} --format json "
                    f"--max-tokens {budget} | {py} {to_eval}", f"{gq} index --repo {{repo}}", {}),
        "bm25_prompt": (f"{py} {q(str(peers / 'bm25_prompt.py'))} {{repo}} {{task_file}}", None,
                        {"PROMPT_BUDGET": str(budget)}),
        "codegraph": (f"{py} {q(str(peers / 'codegraph_adapter.py'))} {{repo}} {{task_file}}",
                      f"{py} {q(str(peers / 'codegraph_adapter.py'))} --prepare {{repo}}", {}),
    }


def run_eval(name: str, cmd: str, prepare: str | None, env: dict[str, str], tasks: Path,
             repos_file: Path, args: argparse.Namespace, out: Path) -> dict[str, Any] | None:
    argv = [sys.executable, str(C.BENCH_DIR / "eval.py"), "--tasks", str(tasks), "--tool", name,
            "--cmd", cmd, "--out", str(out), "--repos-json", str(repos_file), "--quiet"]
    if prepare:
        argv += ["--prepare", prepare]
    if args.limit:
        argv += ["--limit", str(args.limit)]
    for repo in args.repo or []:
        argv += ["--repo", repo]
    t0 = time.perf_counter()
    with out.with_suffix(".log").open("w") as log:
        rc = subprocess.run(argv, stdout=log, stderr=log, env={**os.environ, **env}).returncode
    print(f"{name}: {time.perf_counter() - t0:.0f}s (rc={rc})", file=sys.stderr)
    return json.loads(out.read_text()) if out.exists() else None


def lane(tools: list[str], budgets: list[int], split: str, args: argparse.Namespace) -> list[Row]:
    """One tool after another (graphiq-ci's budgets share one index, built once)."""
    tasks_file = C.BENCH_DIR / "tasks" / f"{split}.jsonl"
    repos_file = C.BENCH_DIR / "tasks" / SPLITS[split]
    done = []
    for tool in tools:
        for budget in ([None] if tool == "codegraph" else budgets):
            cmd, prepare, env = commands(budget)[tool]
            name = {"graphiq": "graphiq-ci"}.get(tool, tool)
            out = args.out_dir / f"context-{tool}-{budget or 'default'}-{split}.json"
            data = run_eval(name, cmd, prepare, env, tasks_file, repos_file, args, out)
            if data:
                done.append((name, str(budget) if budget else "its default", data))
    return done


def fmt(value: Any, spec: str) -> str:
    return "-" if value is None else spec.format(int(value) if spec == "{:d}" else value)


def ctx_tokens(data: dict[str, Any]) -> float | None:
    sizes = sorted(r["ctx_tokens"] for r in data["per_task"] if r.get("ctx_tokens") is not None)
    return sizes[len(sizes) // 2] if sizes else None


def table(rows: list[Row]) -> str:
    lines = ["| tool | budget | " + " | ".join(h for _, h, _ in COLS) + " |",
             "|" + "---|" * (len(COLS) + 2)]
    for tool, budget, data in rows:
        agg = dict(data["groups"]["ALL"], ctx_tok_med=ctx_tokens(data),
                   errors=sum(1 for r in data["per_task"] if r.get("error")))
        lines.append(f"| {tool} | {budget} | "
                     + " | ".join(fmt(agg.get(k), f) for k, _, f in COLS) + " |")
    by_budget = {(t, b): d["groups"]["ALL"] for t, b, d in rows}
    for budget in sorted({b for _, b, _ in rows if b.isdigit()}, key=int):
        ours, theirs = by_budget.get(("graphiq-ci", budget)), by_budget.get(("bm25_prompt", budget))
        if ours and theirs:
            lines.append(f"| **graphiq-ci / BM25 packer** | {budget} | "
                         f"{C.ratio(ours.get('CodeR'), theirs.get('CodeR'))} | "
                         f"{C.ratio(ours.get('Full'), theirs.get('Full'))} |"
                         + " |" * (len(COLS) - 2))
    return "\n".join(lines)


def per_language(rows: list[Row], metric: str) -> str:
    """One metric of eval.py's per-language groups, a column per language (file MRR is the
    same at every budget: the budget only cuts the text)."""
    langs = sorted({k for _, _, d in rows for k in d["groups"] if k.startswith("lang:")})
    lines = ["| tool | budget | " + " | ".join(k[5:] for k in langs) + " |",
             "|" + "---|" * (len(langs) + 2)]
    seen: set[str] = set()
    for tool, budget, data in rows:
        if metric != "CodeR" and tool in seen:
            continue  # the files do not depend on the budget: one row per tool
        seen.add(tool)
        cells = [fmt((data["groups"].get(k) or {}).get(metric), "{:.3f}") for k in langs]
        lines.append(f"| {tool} | {budget} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--splits", default="dev,dev2")
    ap.add_argument("--budgets", default="2000,8000")
    ap.add_argument("--tools", default="graphiq,bm25_prompt,codegraph")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--repo", action="append")
    ap.add_argument("--out-dir", type=Path, default=C.RESULTS_DIR)
    args = ap.parse_args()
    os.environ.setdefault("BENCH_WORK", str(C.WORK))
    os.environ.setdefault("BENCH_MIRRORS", str(C.MIRRORS))
    budgets = [int(b) for b in args.budgets.split(",")]
    wanted = [t.strip() for t in args.tools.split(",") if t.strip()]
    if "codegraph" in wanted and not C.codegraph_installed():
        wanted.remove("codegraph")
        print(f"codegraph skipped: not installed ({C.CODEGRAPH_INSTALL})", file=sys.stderr)
    ev = C.load_bench_module("eval")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    sections = []
    for split in args.splits.split(","):
        tasks_file = C.BENCH_DIR / "tasks" / f"{split}.jsonl"
        repos_file = C.BENCH_DIR / "tasks" / SPLITS[split]
        tasks = select_tasks(tasks_file, args.repo, args.limit)
        checkouts = prepare_checkouts(ev, tasks, repos_file)
        for co in checkouts:  # index time is not measured here, but every index is fresh
            shutil.rmtree(co / ".graphiq", ignore_errors=True)
        # graphiq-ci in one lane, the peers in the other: two cores, two processes at a time
        lanes = [[t for t in wanted if t == "graphiq"], [t for t in wanted if t != "graphiq"]]
        with ThreadPoolExecutor(max_workers=2) as pool:
            runs = pool.map(partial(lane, budgets=budgets, split=split, args=args),
                            [ln for ln in lanes if ln])
            rows = [row for rs in runs for row in rs]
        repos = sorted({t["repo"] for t in tasks})
        sections.append(f"### {split}: {len(tasks)} tasks ({', '.join(repos)})\n\n"
                        f"{table(rows)}\n\nCodeR by language:\n\n{per_language(rows, 'CodeR')}"
                        f"\n\nFile MRR by language:\n\n{per_language(rows, 'MRR')}")
    header = (f"Code in the context: graphiq-ci {git_describe()}; {C.hardware_note()}; "
              f"{time.perf_counter() - t0:.0f}s in all. CodeR and Full are eval.py's; tokens "
              "are characters / 4 of the text scored.")
    body = "\n\n".join([header, *sections])
    print(body)
    if not args.limit and not args.repo:
        C.write_summary(args.out_dir / "context-summary.md", "Code in the context",
                        "bench_context.py", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
