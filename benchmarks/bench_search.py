"""Search latency benchmark: in-process `graphiq_ci.search.search` and the `graphiq-ci search` CLI.

    python benchmarks/bench_search.py [REPO] [--repeat 3] [--show]

REPO defaults to colinhacks/zod at the quality benchmark's pinned commit (see bench_index.py).
The index is brought up to date first (`graphiq-ci index`, which writes REPO/.graphiq as any use
of graphiq-ci does). Then, over a fixed set of 24 queries (three per query family, worded for any
TypeScript/JavaScript/Python repository):
  in-process  search(root, query, top=10) after one warm-up call, median and p90 over all calls;
              also with refresh=False (ranking without the staleness check) when accepted
  CLI         `graphiq-ci search QUERY --repo REPO --json` wall time, process start included,
              and `graphiq-ci --help`, both from a regular install of HEAD (`_common.installed_exe`)
  load_graph  the cached graph's load in a fresh interpreter, when graphiq_ci.search exposes it
              (the first load after indexing may build and cache it; reported apart)
  context     `graphiq-ci context TASK --repo REPO` wall time (markdown, the default), warm,
              alternating call by call with CodeGraph's own `codegraph context TASK -p REPO` when
              CodeGraph is installed (it indexes REPO/.codegraph first if REPO has none); median
              over --context-rounds passes of CONTEXT_TASKS, and the ratio
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import shlex
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402

QUERIES: list[tuple[str, str]] = [
    ("symbol exact", "parse"),
    ("symbol exact", "toString"),
    ("symbol exact", "main"),
    ("symbol partial", "pars"),
    ("symbol partial", "valid"),
    ("symbol partial", "serial"),
    ("file path", "src/index"),
    ("file path", "utils"),
    ("file path", "config"),
    ("error/debug", "TypeError: Cannot read properties of undefined"),
    ("error/debug", 'raise ValueError("invalid value")'),
    ("error/debug", "throw new Error unexpected token"),
    ("natural descriptive", "parse a string into a number"),
    ("natural descriptive", "validate user input and report errors"),
    ("natural descriptive", "read configuration from environment variables"),
    ("natural abstract", "where does error handling happen"),
    ("natural abstract", "how are default options merged"),
    ("natural abstract", "entry point of the library"),
    ("cross-cutting", "logging"),
    ("cross-cutting", "caching"),
    ("cross-cutting", "async timeout and retry"),
    ("relationship", "who calls parse"),
    ("relationship", "classes that extend Error"),
    ("relationship", "what imports utils"),
]

#: tasks for the `context` row: a change request and a question, worded for any repository
CONTEXT_TASKS = ["validate user input and report errors", "how are default options merged"]

# load_graph(root), or load_graph(store, root) with the store opened outside the timer
LOAD_SNIPPET = """
import inspect, sys, time
from pathlib import Path
from graphiq_ci.search import load_graph
root = Path(sys.argv[1])
args = (root,)
if list(inspect.signature(load_graph).parameters)[0] == "store":
    from graphiq_ci.store import open_store
    args = (open_store(root), root)
t0 = time.perf_counter()
load_graph(*args)
print(time.perf_counter() - t0)
"""


def import_search() -> Any:
    """graphiq_ci.search, or exit with a clear message while it does not exist yet."""
    try:
        mod = importlib.import_module("graphiq_ci.search")
        mod.search  # noqa: B018 - existence check
    except (ImportError, AttributeError) as exc:
        sys.exit(f"bench_search: graphiq_ci.search.search(repo_root, query, top=10) is not "
                 f"available in {sys.executable}'s graphiq_ci ({exc}); nothing to measure yet")
    return mod


def describe(hit: Any) -> str:
    if hasattr(hit, "path") and hasattr(hit, "line"):
        return f"{hit.path}:{hit.line} {getattr(hit, 'qualified', '')}"
    return str(hit)[:80]


def ms(v: float | None) -> str:
    return "-" if v is None else f"{v * 1000:.1f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", nargs="?", type=Path,
                    help=f"repository (default: {C.DEFAULT_REPO} from the mirror)")
    ap.add_argument("--repeat", type=int, default=3, help="in-process calls per query")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--show", action="store_true", help="print each query's top 3 results")
    ap.add_argument("--context-rounds", type=int, default=5,
                    help="passes over the context tasks (each tool once per task per pass)")
    ap.add_argument("--no-codegraph", action="store_true",
                    help="time graphiq-ci's context alone")
    args = ap.parse_args()

    mod = import_search()
    from graphiq_ci.index.run import find_root

    root = find_root((args.repo or C.default_checkout()).resolve())
    gq = C.installed_exe()  # what `pip install .` gives a user: no editable-install finder
    t0 = time.perf_counter()
    idx = subprocess.run([gq, "index", "--repo", str(root)], capture_output=True, text=True)
    if idx.returncode != 0:
        sys.exit(f"graphiq-ci index failed: {idx.stderr.strip()[-800:]}")
    print(f"index refresh: {time.perf_counter() - t0:.2f}s ({idx.stdout.strip()})",
          file=sys.stderr)

    rows: list[tuple[str, str, str, str]] = []
    load_graph = getattr(mod, "load_graph", None)
    if load_graph is not None:
        loads = []
        for _ in range(4):
            out = subprocess.run([sys.executable, "-c", LOAD_SNIPPET, str(root)],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"load_graph failed: {out.stderr.strip()[-800:]}")
            loads.append(float(out.stdout.strip().splitlines()[-1]))
        rows.append(("load_graph, first after index (may build)", ms(loads[0]), "-", "1"))
        rows.append(("load_graph, cached, fresh process", ms(C.median(loads[1:])),
                     ms(max(loads[1:])), str(len(loads) - 1)))

    t0 = time.perf_counter()
    mod.search(root, QUERIES[0][1], top=args.top)
    rows.append(("in-process search, first call (cold)", ms(time.perf_counter() - t0), "-", "1"))
    variants = [("search(root, q, top)", {})]
    if "refresh" in inspect.signature(mod.search).parameters:
        variants.append(("search(..., refresh=False): ranking only", {"refresh": False}))
    by_family: dict[str, list[float]] = defaultdict(list)
    empty = 0
    for label, kwargs in variants:
        lat: list[float] = []
        for family, query in QUERIES:
            for i in range(args.repeat):
                t0 = time.perf_counter()
                result = mod.search(root, query, top=args.top, **kwargs)
                dt = time.perf_counter() - t0
                lat.append(dt)
                if kwargs:
                    continue
                by_family[family].append(dt)
                hits = list(getattr(result, "hits", result))
                if i == 0:
                    empty += not hits
                    if args.show:
                        print(f"{family:20} {query!r}: {[describe(h) for h in hits[:3]]}")
        rows.append((f"in-process {label}, warm", ms(C.median(lat)), ms(C.p90(lat)),
                     str(len(lat))))

    # A long-lived caller (an editor, a server, the library API) opens the store and loads the
    # graph once; this is the per-query cost it then pays.
    from graphiq_ci.search import rank
    from graphiq_ci.store import open_store

    store = open_store(root)
    graph = mod.load_graph(store, root)
    rank(store, graph, QUERIES[0][1], top=args.top)
    held: list[float] = []
    for _ in range(args.repeat):
        for _, query in QUERIES:
            t0 = time.perf_counter()
            rank(store, graph, query, top=args.top)
            held.append(time.perf_counter() - t0)
    store.close()
    rows.append(("in-process rank(store, graph, q), graph held", ms(C.median(held)),
                 ms(C.p90(held)), str(len(held))))

    # Start-up: what every CLI call pays before any work, against the bare interpreter.
    def wall(cmd: list[str]) -> float:
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        return time.perf_counter() - t0

    bare = [wall([sys.executable, "-c", "pass"]) for _ in range(7)]
    helps = [wall([gq, "--help"]) for _ in range(7)]
    rows.append(("`python -c pass` (the interpreter alone)", ms(C.median(bare)),
                 ms(C.p90(bare)), str(len(bare))))
    rows.append(("`graphiq-ci --help` (process start to exit)", ms(C.median(helps)),
                 ms(C.p90(helps)), str(len(helps))))

    def cli_cmd(query: str) -> list[str]:
        return [gq, "search", query, "--repo", str(root), "--json"]

    cli: list[float] = []
    cli_note = ""
    warm = subprocess.run(cli_cmd(QUERIES[0][1]), capture_output=True, text=True)
    if warm.returncode != 0:
        cli_note = (f"CLI not measured: `{shlex.join(cli_cmd(QUERIES[0][1]))}` exited "
                    f"{warm.returncode}: {' '.join(warm.stderr.split())[-300:]}")
    else:
        failed = 0
        for _, query in QUERIES:
            t0 = time.perf_counter()
            out = subprocess.run(cli_cmd(query), capture_output=True, text=True)
            cli.append(time.perf_counter() - t0)
            failed += out.returncode != 0
        rows.append(("CLI `graphiq-ci search --json` wall", ms(C.median(cli)), ms(C.p90(cli)),
                     str(len(cli))))
        if failed:
            cli_note = f"CLI: {failed}/{len(QUERIES)} queries exited non-zero"

    ctx_note = context_row(gq, root, args.context_rounds, not args.no_codegraph, rows)

    print(f"Search benchmark: graphiq-ci {git_describe()}; {root}; {len(QUERIES)} queries, "
          f"top={args.top}; {C.hardware_note()}.\n")
    print("| measure | median ms | p90 (max for load_graph) ms | calls |\n|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("\n| query family | in-process search() median ms |\n|---|---|")
    for family, vals in by_family.items():
        print(f"| {family} | {statistics.median(vals) * 1000:.1f} |")
    if empty:
        print(f"\n{empty}/{len(QUERIES)} queries returned no results.")
    if cli_note:
        print(f"\n{cli_note}")
    print(f"\n{ctx_note}")
    return 0


def hide_from_git(root: Path, entry: str) -> None:
    """Ignore the directory `entry` in this clone only (.git/info/exclude): CodeGraph's
    .codegraph/.gitignore ignores all but itself, and that one untracked file is a change on
    the branch to graphiq-ci, whose answers would then differ from a clean tree's."""
    if not subprocess.run(["git", "-C", str(root), "ls-files", "--others", "--exclude-standard",
                           "--", entry], capture_output=True, text=True).stdout.strip():
        return
    exclude = subprocess.run(["git", "-C", str(root), "rev-parse", "--git-path", "info/exclude"],
                             capture_output=True, text=True, check=True).stdout.strip()
    path = root / exclude
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(f"\n/{entry}/\n")


def context_row(gq: str, root: Path, rounds: int, with_codegraph: bool,
                rows: list[tuple[str, str, str, str]]) -> str:
    """The warm `context` CLI call, graphiq-ci's and CodeGraph's alternating call by call (the
    shared machine's speed drifts: both see the same drift); one line saying what was compared.
    """
    import os

    env = dict(os.environ, **C.CODEGRAPH_ENV)
    ours = [[gq, "context", t, "--repo", str(root)] for t in CONTEXT_TASKS]
    theirs: list[list[str]] = []
    note = "CodeGraph: skipped (--no-codegraph)."
    if with_codegraph and not C.codegraph_installed():
        note = f"CodeGraph: skipped, not installed at {C.CODEGRAPH_PKG} ({C.CODEGRAPH_INSTALL})."
    elif with_codegraph:
        if not (root / ".codegraph" / "codegraph.db").exists():
            print("codegraph init (REPO has no .codegraph)...", file=sys.stderr)
            subprocess.run(C.codegraph_cmd("init", "-y", str(root)), cwd=root, env=env,
                           capture_output=True, check=True)
            hide_from_git(root, ".codegraph")
        theirs = [C.codegraph_cmd("context", t, "-p", str(root)) for t in CONTEXT_TASKS]
        note = (f"context: CodeGraph's own `codegraph context TASK -p REPO`, alternating with "
                f"graphiq-ci's call by call; {len(CONTEXT_TASKS)} tasks x {rounds} passes.")

    def timed(cmd: list[str]) -> float:
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, env=env)
        if done.returncode != 0:
            sys.exit(f"`{shlex.join(cmd)}` exited {done.returncode}: "
                     f"{' '.join(done.stderr.decode(errors='replace').split())[-300:]}")
        return time.perf_counter() - t0

    for cmd in ours + theirs:  # warm: the index, the graph cache and the OS's page cache
        timed(cmd)
    g: list[float] = []
    cg: list[float] = []
    for _ in range(rounds):
        for k in range(len(CONTEXT_TASKS)):
            g.append(timed(ours[k]))
            if theirs:
                cg.append(timed(theirs[k]))
    cg_s = f"{C.median(cg):.3f} s" if cg else "-"
    rows.append((f"CLI `graphiq-ci context` warm, seconds: graphiq-ci {C.median(g):.3f} s, "
                 f"CodeGraph {cg_s}, ratio {C.ratio(C.median(g), C.median(cg))}",
                 ms(C.median(g)), ms(C.p90(g)), str(len(g))))
    if cg:
        rows.append(("CLI `codegraph context` warm (CodeGraph, same run)", ms(C.median(cg)),
                     ms(C.p90(cg)), str(len(cg))))
    return note


if __name__ == "__main__":
    sys.exit(main())
