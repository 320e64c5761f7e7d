"""MCP server latency: `graphiq-ci mcp` with the graph held, against the CLI, in one run.

    python benchmarks/bench_mcp.py [REPO] [--repeat 3]

REPO defaults to colinhacks/zod at the quality benchmark's pinned commit (as bench_search.py).
The official SDK client starts the real server over stdio, then, over the 24 queries of
bench_search.py and the task texts of the dev split's zod PRs:
  search   search(query, top=10)                  (every call refreshes the index first)
  context  context(task), the default budget      (the same text as `context --format prompt`)
  the first call of each is reported apart (it loads the graph and warms the caches).
Measured two ways: in-process (the server's own handler, index refresh included, no protocol)
and round trip through the client (JSON-RPC over a pipe). The CLI figures are the same calls as
`graphiq-ci search --json` / `graphiq-ci context --format prompt`, process start included.
Edit to answer: append a new function to a file, then time until `symbol` answers with it
(refresh, re-parse, graph reload), then restore the file and time the answer without it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_search import QUERIES  # noqa: E402

EDITED_NAME = "graphiqBenchFreshlyAdded"


def zod_tasks(limit: int = 12) -> list[str]:
    path = C.BENCH_DIR / "tasks" / "dev.jsonl"
    tasks = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [t["task"] for t in tasks if t["repo"] == C.DEFAULT_REPO][:limit]


def ms(v: float | None) -> str:
    return "-" if v is None else f"{v * 1000:.1f}"


def in_process(root: Path, queries: list[str], tasks: list[str],
               repeat: int) -> dict[str, list[float]]:
    """The server's handler path without the protocol: refresh, then the tool's answer."""
    import asyncio

    from graphiq_ci.serve import answers
    from graphiq_ci.serve.server import Engine

    engine = Engine(root)
    out: dict[str, list[float]] = {"search first": [], "search": [], "context first": [],
                                   "context": []}

    async def timed(label: str, work: Any) -> None:
        t0 = time.perf_counter()
        await engine.answer(work)
        out[label].append(time.perf_counter() - t0)

    async def go() -> None:
        await timed("search first", lambda ws: answers.search(ws, queries[0], 10))
        await timed("context first", lambda ws: answers.context(ws, tasks[0], None, None))
        for _ in range(repeat):
            for q in queries:
                await timed("search", lambda ws, q=q: answers.search(ws, q, 10))
            for t in tasks:
                await timed("context", lambda ws, t=t: answers.context(ws, t, None, None))

    try:
        asyncio.run(go())
    finally:
        engine.close()
    return out


def over_stdio(root: Path, queries: list[str], tasks: list[str],
               repeat: int) -> dict[str, list[float]]:
    """The same calls from the SDK's client, plus the edit-to-answer times."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=C.graphiq_exe(), args=["mcp", "--repo", str(root)])
    out: dict[str, list[float]] = {"start": [], "search first": [], "search": [],
                                   "context first": [], "context": [], "edit to answer": [],
                                   "revert to answer": []}

    async def go() -> None:
        t0 = time.perf_counter()
        async with Client(stdio_client(params, errlog=sys.stderr), cache=None) as client:
            out["start"].append(time.perf_counter() - t0)

            async def timed(label: str, tool: str, args: dict[str, Any]) -> Any:
                t0 = time.perf_counter()
                result = await client.call_tool(tool, args)
                out[label].append(time.perf_counter() - t0)
                if result.is_error and label != "revert to answer":
                    sys.exit(f"{tool}({args}) failed: {result.content}")
                return result

            await timed("search first", "search", {"query": queries[0], "top": 10})
            await timed("context first", "context", {"task": tasks[0]})
            for _ in range(repeat):
                for q in queries:
                    await timed("search", "search", {"query": q, "top": 10})
                for t in tasks:
                    await timed("context", "context", {"task": t})
            target = edit_target(root)
            original = target.read_bytes()
            try:
                for n in range(3):
                    name = f"{EDITED_NAME}{n}"
                    target.write_bytes(original + f"\nexport function {name}() {{ return {n}; }}\n"
                                       .encode())
                    await timed("edit to answer", "symbol", {"name_or_id": name})
                    target.write_bytes(original)
                    gone = await timed("revert to answer", "symbol", {"name_or_id": name})
                    if not gone.is_error:
                        sys.exit(f"{name} still found after the file was restored")
            finally:
                target.write_bytes(original)
                await client.call_tool("status", {})  # the index follows the restored file

    anyio.run(go)
    return out


def edit_target(root: Path) -> Path:
    """The largest TypeScript source file that is not a test: the slowest one to re-parse."""
    files = [p for p in root.rglob("*.ts") if ".graphiq" not in p.parts
             and "node_modules" not in p.parts and "test" not in p.name]
    return max(files, key=lambda p: p.stat().st_size)


def cli(root: Path, queries: list[str], tasks: list[str]) -> dict[str, list[float]]:
    gq = C.graphiq_exe()
    out: dict[str, list[float]] = {"search": [], "context": []}
    for label, cmds in (("search", [[gq, "search", q, "--repo", str(root), "--json"]
                                    for q in queries]),
                        ("context", [[gq, "context", t, "--repo", str(root), "--format",
                                      "prompt"] for t in tasks])):
        for cmd in cmds:
            t0 = time.perf_counter()
            subprocess.run(cmd, capture_output=True, text=True)
            out[label].append(time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", nargs="?", type=Path)
    ap.add_argument("--repeat", type=int, default=3, help="passes over the queries and tasks")
    args = ap.parse_args()
    from graphiq_ci.index.run import find_root

    root = find_root((args.repo or C.default_checkout()).resolve())
    idx = subprocess.run([C.graphiq_exe(), "index", "--repo", str(root)], capture_output=True,
                         text=True)
    if idx.returncode != 0:
        sys.exit(f"graphiq-ci index failed: {idx.stderr.strip()[-800:]}")
    queries = [q for _, q in QUERIES]
    tasks = zod_tasks() if args.repo is None else [q for f, q in QUERIES if "natural" in f]
    inproc = in_process(root, queries, tasks, args.repeat)
    stdio = over_stdio(root, queries, tasks, args.repeat)
    shell = cli(root, queries, tasks)
    commit = subprocess.run(["git", "-C", str(C.REPO_ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"MCP benchmark: {root.name}; {len(queries)} queries, {len(tasks)} tasks, "
          f"{args.repeat} passes; graphiq-ci {commit}; {C.hardware_note()}.\n")
    print("| call | in-process median ms | p90 | over stdio median ms | p90 | CLI median ms | "
          "CLI / stdio |\n|---|---|---|---|---|---|---|")
    for tool in ("search", "context"):
        print(f"| {tool}, first call | {ms(inproc[f'{tool} first'][0])} | - | "
              f"{ms(stdio[f'{tool} first'][0])} | - | - | - |")
        med = C.median(stdio[tool])
        print(f"| {tool} | {ms(C.median(inproc[tool]))} | {ms(C.p90(inproc[tool]))} | "
              f"{ms(med)} | {ms(C.p90(stdio[tool]))} | {ms(C.median(shell[tool]))} | "
              f"{C.ratio(C.median(shell[tool]), med)} |")
    print(f"\nServer start to first answer-ready: {ms(stdio['start'][0])} ms. Edit to answer "
          f"(append a function to {edit_target(root).relative_to(root)}, then `symbol` finds "
          f"it): median {ms(C.median(stdio['edit to answer']))} ms over "
          f"{len(stdio['edit to answer'])} edits; restore to answer: median "
          f"{ms(C.median(stdio['revert to answer']))} ms.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
