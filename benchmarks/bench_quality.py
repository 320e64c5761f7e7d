"""Quality benchmark: graphiq-ci and its baselines on the same PR tasks, in one run.

    python benchmarks/bench_quality.py [--limit N] [--repo owner/name] \
        [--tools graphiq,bm25,grep,codegraph] [--jobs 1]

Runs the shared harness (eval.py) once per tool on tasks/dev.jsonl, writes one result JSON per
tool under benchmarks/results/, and prints one Markdown table side by side plus the ratio
graphiq / best baseline measured in this run. A full run (no --limit/--repo) also rewrites
benchmarks/results/quality-summary.md.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402


@dataclass
class Tool:
    key: str  # what --tools accepts
    name: str  # eval.py's --tool, and the results file stem
    cmd: str
    prepare: str | None = None
    index_dir: str | None = None  # deleted from each checkout first, so index time is a full build
    baseline: bool = True


def tools(graphiq_cmd: str | None = None) -> dict[str, Tool]:
    q = shlex.quote
    py, peers, gq = q(sys.executable), C.BENCH_DIR / "peers", q(C.graphiq_exe())
    return {t.key: t for t in [
        Tool("graphiq", "graphiq-ci",
             (graphiq_cmd or "{graphiq} context --repo {repo} --task-file {task_file} "
              f"--format json | {py} {q(str(Path(__file__).parent / 'to_eval.py'))}"
              ).replace("{graphiq}", gq),
             f"{gq} index --repo {{repo}}", ".graphiq", baseline=False),
        Tool("bm25", "bm25_files",
             f"{py} {q(str(peers / 'bm25_files.py'))} --symbols {{repo}} {{task_file}}"),
        Tool("grep", "grep_files",
             f"{py} {q(str(peers / 'grep_files.py'))} {{repo}} {{task_file}}"),
        Tool("codegraph", "codegraph_context",
             f"{py} {q(str(peers / 'codegraph_adapter.py'))} {{repo}} {{task_file}}",
             f"{py} {q(str(peers / 'codegraph_adapter.py'))} --prepare {{repo}}", ".codegraph"),
    ]}


# metric columns: (eval.py aggregate key, header, format)
COLS = [("n", "n", "{:d}"), ("R@1", "R@1", "{:.3f}"), ("R@5", "R@5", "{:.3f}"),
        ("R@10", "R@10", "{:.3f}"), ("MRR", "MRR", "{:.3f}"), ("Hit@5", "Hit@5", "{:.3f}"),
        ("SymR@20", "SymR@20", "{:.3f}"), ("tokens_med", "tokens med", "{:d}"),
        ("lat_med_s", "lat med s", "{:.2f}"), ("lat_p90_s", "lat p90 s", "{:.2f}"),
        ("index_med_s", "index med s", "{:.2f}"), ("errors", "errors", "{:d}")]
RATIO_KEYS = ["MRR", "R@1", "R@5"]


def select_tasks(path: Path, repos: list[str] | None, limit: int | None) -> list[dict[str, Any]]:
    """The tasks eval.py will run, with the same --repo / --limit semantics."""
    tasks = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if repos:
        tasks = [t for t in tasks if t["repo"] in set(repos)]
    return tasks[:limit] if limit else tasks


def prepare_checkouts(ev: Any, tasks: list[dict[str, Any]],
                      repos_file: Path = C.BENCH_DIR / "tasks" / "repos.json") -> list[Path]:
    """Materialise every base commit once, before any tool runs (tools may run in parallel)."""
    repos_json = json.loads(repos_file.read_text())
    t0, created, dirs = time.perf_counter(), 0, {}
    for t in tasks:
        key = (t["repo"], t["base_commit"])
        if key not in dirs:
            dest, new = ev.materialise(t["repo"], t["base_commit"],
                                       ev.mirror_for(t["repo"], repos_json), "git")
            dirs[key] = Path(dest)
            created += new
    print(f"checkouts: {len(dirs)} ready ({created} created) in {time.perf_counter() - t0:.1f}s "
          f"under {C.WORK / 'checkouts'}", file=sys.stderr)
    return list(dirs.values())


def run_tool(tool: Tool, args: argparse.Namespace, checkouts: list[Path], out: Path,
             stream: bool) -> tuple[Tool, float, int]:
    if tool.index_dir and not args.keep_index:
        for co in checkouts:
            shutil.rmtree(co / tool.index_dir, ignore_errors=True)
    cmd = [sys.executable, str(C.BENCH_DIR / "eval.py"), "--tasks", str(args.tasks),
           "--tool", tool.name, "--cmd", tool.cmd, "--out", str(out),
           "--timeout", str(args.timeout)]
    if tool.prepare:
        cmd += ["--prepare", tool.prepare]
    if args.limit:
        cmd += ["--limit", str(args.limit)]
    for repo in args.repo or []:
        cmd += ["--repo", repo]
    log = out.with_suffix(".log")
    print(f"running {tool.name} (log: {log})", file=sys.stderr)
    t0 = time.perf_counter()
    with log.open("w") as fh:
        rc = subprocess.run(cmd, stdout=fh, stderr=None if stream else fh).returncode
    dt = time.perf_counter() - t0
    print(f"{tool.name}: done in {dt:.0f}s (rc={rc})", file=sys.stderr)
    return tool, dt, rc


def fmt(value: Any, spec: str) -> str:
    if value is None:
        return "-"
    return spec.format(int(value) if spec == "{:d}" else value)


def on_file_codegraph(ev: Any, ids: set[str]) -> dict[str, Any] | None:
    """The committed CodeGraph result, re-aggregated by eval.py over this run's task ids."""
    path = C.BENCH_DIR / "results" / "codegraph_context-dev.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    rows = [r for r in data["per_task"] if r["id"] in ids]
    if not rows:
        return None
    groups = {"ALL": ev.aggregate(rows, data.get("tool_emits_symbols", True))}
    for repo in sorted({r["repo"] for r in rows}):
        groups[repo] = ev.aggregate([r for r in rows if r["repo"] == repo],
                                    data.get("tool_emits_symbols", True))
    return {"tool": "codegraph_context (on file)", "groups": groups, "per_task": rows,
            "on_file": True}


def render(results: list[tuple[Tool | None, dict[str, Any]]]) -> str:
    """Main table, ratio row, per-repository table."""
    head = "| tool | " + " | ".join(h for _, h, _ in COLS) + " |"
    lines = [head, "|" + "---|" * (len(COLS) + 1)]
    for _, data in results:
        agg = data["groups"]["ALL"]
        lines.append(f"| {data['tool']} | "
                     + " | ".join(fmt(agg.get(k), f) for k, _, f in COLS) + " |")
    ours = [d for t, d in results if t is not None and not t.baseline]
    base = [d for t, d in results if t is not None and t.baseline]
    if ours and base:
        g = ours[0]["groups"]["ALL"]
        cells = []
        for key, _, _ in COLS:
            if key in RATIO_KEYS:
                best = max(base, key=lambda d, k=key: d["groups"]["ALL"].get(k) or 0)
                b = best["groups"]["ALL"].get(key)
                r = C.ratio(g.get(key), b)
                cells.append(f"{r} vs {best['tool']}" if r != "-" else "-")
            else:
                cells.append("")
        lines.append("| **graphiq / best baseline (this run)** | " + " | ".join(cells) + " |")
    repos = sorted({k for _, d in results for k in d["groups"] if "/" in k})
    if len(repos) > 1:
        lines += ["", "Per repository, MRR / R@5:", "",
                  "| tool | " + " | ".join(repos) + " |", "|" + "---|" * (len(repos) + 1)]
        for _, data in results:
            cells = []
            for repo in repos:
                agg = data["groups"].get(repo)
                cells.append("-" if not agg else
                             f"{fmt(agg.get('MRR'), '{:.3f}')} / {fmt(agg.get('R@5'), '{:.3f}')}")
            lines.append(f"| {data['tool']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def oneline(text: str, width: int = 200) -> str:
    """An error message on one line, without the CLI's box drawing."""
    text = " ".join(text.translate({ord(c): " " for c in "│╭╮╰╯─"}).split())
    return text[:width]


def error_notes(results: list[tuple[Tool | None, dict[str, Any]]]) -> list[str]:
    notes = []
    for _, data in results:
        errs = [r for r in data["per_task"] if r.get("error")]
        idx = [r for r in data["per_task"] if r.get("index_error")]
        if errs:
            notes.append(f"- {data['tool']}: {len(errs)}/{len(data['per_task'])} tasks failed "
                         f"(scored as empty), e.g. `{oneline(errs[0]['error'])}`")
        rows = data["per_task"]
        if rows and not any(r.get("n_files") for r in rows) and len(errs) < len(rows):
            notes.append(f"- {data['tool']}: no file ranked on any task, so file metrics are 0; "
                         "eval.py reads `files` as a list of repo-relative path strings "
                         "(other entries are dropped): check the command's JSON")
        if idx:
            notes.append(f"- {data['tool']}: index failed on {len(idx)} checkouts, "
                         f"e.g. `{oneline(idx[0]['index_error'])}`")
    return notes


def git_describe() -> str:
    """The commit measured, `-dirty` when a file that can change a measurement differs from
    it: not a benchmark's own results (a run that writes its summary, one split of two, must
    not mark the next run) and not Markdown (the README is edited while benchmarks run)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(C.REPO_ROOT), *args], capture_output=True,
                              text=True).stdout.strip()

    commit = git("describe", "--always")
    changed = git("status", "--porcelain", "--", ".", ":(exclude)benchmarks/results",
                  ":(exclude)*.md")
    return (commit + "-dirty" if changed else commit) if commit else "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, help="first N tasks (after --repo)")
    ap.add_argument("--repo", action="append", help="only this owner/name (repeatable)")
    ap.add_argument("--tools", default="graphiq,bm25,grep,codegraph")
    ap.add_argument("--jobs", type=int, default=1,
                    help="tools run concurrently (latencies then share the CPU)")
    ap.add_argument("--tasks", type=Path, default=C.BENCH_DIR / "tasks" / "dev.jsonl")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per call")
    ap.add_argument("--out-dir", type=Path, default=C.RESULTS_DIR)
    ap.add_argument("--graphiq-cmd", metavar="TEMPLATE",
                    help="graphiq's query command for eval.py ({graphiq} = the venv's "
                         "graphiq-ci, {repo}, {task_file}); default: context --format json "
                         "piped through benchmarks/to_eval.py")
    ap.add_argument("--keep-index", action="store_true",
                    help="reuse indexes already in the checkouts (index time is then a refresh)")
    ap.add_argument("--summary", type=Path,
                    help="write the Markdown summary here (default: results/quality-summary.md "
                         "on full runs only)")
    args = ap.parse_args()

    os.environ.setdefault("BENCH_WORK", str(C.WORK))
    os.environ.setdefault("BENCH_MIRRORS", str(C.MIRRORS))
    available = tools(args.graphiq_cmd)
    wanted = [k.strip() for k in args.tools.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in available]
    if unknown:
        ap.error(f"unknown tools {unknown}; choose from {sorted(available)}")
    notes: list[str] = []
    if "graphiq" not in wanted:
        notes.append("- graphiq-ci not run (not in --tools): no ratio row")
    if "codegraph" in wanted and not C.codegraph_installed():
        wanted.remove("codegraph")
        notes.append(f"- codegraph skipped: not installed at {C.CODEGRAPH_PKG} "
                     f"(`{C.CODEGRAPH_INSTALL}`); its row is the committed result, on file, "
                     "not measured in this run and not used for the ratio")
        show_on_file = True
    else:
        show_on_file = False

    ev = C.load_bench_module("eval")
    tasks = select_tasks(args.tasks, args.repo, args.limit)
    if not tasks:
        ap.error("no tasks selected")
    checkouts = prepare_checkouts(ev, tasks)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    stem = args.tasks.stem
    wanted.sort(key=lambda k: available[k].baseline)  # graphiq first
    jobs = [(available[k], args.out_dir / f"{available[k].name}-{stem}.json") for k in wanted]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        done = list(pool.map(lambda j: run_tool(j[0], args, checkouts, j[1], args.jobs == 1),
                             jobs))
    wall = time.perf_counter() - t0

    results: list[tuple[Tool | None, dict[str, Any]]] = []
    for (tool, out), (_, _, rc) in zip(jobs, done, strict=True):
        if not out.exists():
            notes.append(f"- {tool.name}: eval.py exited {rc} without results "
                         f"(see {out.with_suffix('.log')})")
            continue
        results.append((tool, json.loads(out.read_text())))
    if show_on_file:
        cg = on_file_codegraph(ev, {t["id"] for t in tasks})
        if cg:
            results.append((None, cg))
    notes += error_notes(results)

    table = render(results)
    repos = sorted({t["repo"] for t in tasks})
    header = (f"Quality benchmark: {len(tasks)} tasks from {args.tasks.name} "
              f"({', '.join(repos)}); graphiq-ci {git_describe()}; {C.hardware_note()}; "
              f"tools run {'sequentially' if args.jobs == 1 else f'{args.jobs} at a time'}, "
              f"{wall:.0f}s in all.")
    legend = ("R@k: share of gold files in the top k; MRR: reciprocal rank of the first gold "
              "file; SymR@20: gold symbols in the top 20; latency is per call with process "
              "start; index: median full build per checkout.")
    body = "\n".join([header, "", table, "", legend] + (["", *notes] if notes else []))
    print(body)
    summary = args.summary
    if summary is None and not args.limit and not args.repo:
        summary = args.out_dir / "quality-summary.md"
    if summary:
        C.write_summary(summary, "Quality benchmark summary", "bench_quality.py", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
