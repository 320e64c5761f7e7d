"""Indexing benchmark: full build, refreshes and memory for graphiq-ci and CodeGraph, same run.

    python benchmarks/bench_index.py [REPO] [--runs 3] [--no-codegraph]

REPO defaults to colinhacks/zod at the commit the quality benchmark pins, cloned (objects shared)
from $BENCH_MIRRORS under $BENCH_WORK. Every measurement runs on a temporary copy of REPO (one
per tool), so the repository itself is never modified. Each figure is the CLI as a user runs it,
process start included:
  full       `graphiq-ci index --full` after deleting .graphiq (median of --runs)
  no-change  `graphiq-ci index --hook` (what the pre-commit hook runs, in the repository)
             right after a full build
  one-file   the same, after appending a comment to one mid-sized source file, and to the
             largest source file (its parse, extraction and resolution cost most)
  phases     where a full build's time goes (medians over the full builds), from the indexer's
             GRAPHIQ_PHASE_LOG, and the graph: the first `search` after a full build (which
             builds the graph cache) minus a warm `search`; and where each of the two
             one-file refreshes' time goes, from its phase log (what it does not cover:
             interpreter start, imports, exit)
CodeGraph (when its npm package is installed) runs `codegraph init -y` after deleting .codegraph,
and `codegraph sync` for the two refreshes.
Peak RSS is ru_maxrss from wait4 (the largest single process of the tree, Linux semantics) and
the process tree's summed RSS sampled every 20 ms from /proc.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402

from graphiq_ci.search.graph_cache import CACHE_NAME  # noqa: E402

SOURCE_EXT = {".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}
TEST_RE = re.compile(r"(^|/)(tests?|__tests__|spec)/|[._-](test|spec)\.|(^|/)test_")
COPY_IGNORE = shutil.ignore_patterns(".graphiq", ".codegraph", "node_modules")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


@dataclass
class Run:
    wall_s: float
    maxrss_kb: int
    tree_peak_kb: int | None
    rc: int
    stdout: str
    stderr: str


#: phase-log names → the row they add to (`write 2` → write); see graphiq_ci/phases.py
PHASE_ROWS = {
    "parse": "parse (the writer waiting for the parse workers)",
    "write": "write (files, symbols, refs, edges, deep tokens)",
    "fts": "FTS rows, and the batch's commit",
    "indexes": "secondary indexes, created once after a build's inserts",
    "resolve": "resolve",
    "deep-edges": "deep edges and hubs",
    "history": "history (git, read while resolving; then written)",
}
GRAPH_ROW = "graph (first search builds the cache, minus a warm search)"
#: a one-file refresh's phases (its phase log: hook, parse, write 1, fts 1, parse, resolve,
#: deep-edges, end); "after" is the second `parse`, between the batch and resolution
REFRESH_ROWS = {
    "outside": "interpreter start, imports up to the hook, closing the index, exit",
    "hook": "open the index, list and stat the files (git ls-files)",
    "parse": "parse (tree-sitter's imports, the query's compile, extract)",
    "write": "write (files, symbols, refs, edges, deep tokens)",
    "fts": "FTS rows, and the batch's commit",
    "after": "git HEAD, the resolution modules' imports",
    "resolve": "resolve",
    "deep-edges": "deep edges, hubs, graph log, the commits",
}


def phase_seconds(log: Path) -> dict[str, float]:
    """Seconds per phase row of one run's GRAPHIQ_PHASE_LOG: each line lasts until the next."""
    lines = [ln.split(" ", 2) for ln in log.read_text().splitlines()] if log.exists() else []
    out: dict[str, float] = {}
    for (t, _, name), (t_next, _, _) in pairwise(lines):
        key = name.split(" ", 1)[0]
        if key in PHASE_ROWS:
            out[key] = out.get(key, 0.0) + float(t_next) - float(t)
    return out


def refresh_phases(log: Path, wall_s: float) -> dict[str, float]:
    """Seconds per REFRESH_ROWS row of one refresh; `outside` is the wall time its phase log
    does not cover (before `hook`, after `end`)."""
    lines = [ln.split(" ", 2) for ln in log.read_text().splitlines()] if log.exists() else []
    out: dict[str, float] = {}
    written = False
    for (t, _, name), (t_next, _, _) in pairwise(lines):
        key = name.split(" ", 1)[0]
        written = written or key == "write"
        key = "after" if key == "parse" and written else key
        if key in REFRESH_ROWS:
            out[key] = out.get(key, 0.0) + float(t_next) - float(t)
    if lines:
        out["outside"] = wall_s - (float(lines[-1][0]) - float(lines[0][0]))
    return out


@dataclass
class Series:
    runs: list[Run] = field(default_factory=list)

    def wall(self) -> float | None:
        return C.median([r.wall_s for r in self.runs])

    def spread(self) -> str:
        walls = [r.wall_s for r in self.runs]
        return f"{min(walls):.2f}–{max(walls):.2f}" if walls else "-"

    def maxrss_mb(self) -> float | None:
        return max((r.maxrss_kb for r in self.runs), default=0) / 1024 or None

    def tree_mb(self) -> float | None:
        peaks = [r.tree_peak_kb for r in self.runs if r.tree_peak_kb]
        return max(peaks) / 1024 if peaks else None


def _tree_rss_kb(root: int) -> int:
    """Summed RSS of `root` and its live descendants (Linux /proc; 0 elsewhere)."""
    total, todo, seen = 0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KB
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


def run_measured(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """Run `cmd` to completion: wall time, ru_maxrss via wait4, sampled tree RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        peak = [0]
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _tree_rss_kb(proc.pid))
                stop.wait(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        stop.set()
        sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(wall, int(usage.ru_maxrss), peak[0] or None, proc.returncode,
                   out.read().decode(errors="replace"), err.read().decode(errors="replace"))


def check(run: Run, what: str) -> Run:
    if run.rc != 0:
        sys.exit(f"{what} failed (rc={run.rc}):\n{run.stdout[-1500:]}\n{run.stderr[-1500:]}")
    return run


def pick_source_file(root: Path, largest: bool = False) -> Path:
    """A mid-sized tracked source file, tests left out when possible: the median by size (or,
    `largest`, the largest: the one whose refresh costs most)."""
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True)
    names = out.stdout.decode(errors="replace").split("\0") if out.returncode == 0 else []
    if not names:
        names = [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()]
    files = sorted((p.stat().st_size, n) for n in names
                   if Path(n).suffix in SOURCE_EXT and (p := root / n).is_file())
    non_test = [f for f in files if not TEST_RE.search(f[1])]
    files = non_test or files
    if not files:
        sys.exit(f"no {sorted(SOURCE_EXT)} source file in {root} to change")
    return root / files[-1 if largest else len(files) // 2][1]


def append_comment(path: Path, i: int) -> None:
    mark = "#" if path.suffix == ".py" else "//"
    with path.open("a") as fh:
        fh.write(f"\n{mark} graphiq-bench edit {i}\n")
    os.utime(path)


def du_mb(path: Path) -> float | None:
    if not path.exists():
        return None
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def bench_graphiq(copy: Path, rel: Path, big: Path, runs: int) -> dict[str, object]:
    gq = C.graphiq_exe()
    full, noop, one, large = Series(), Series(), Series(), Series()
    phases: list[dict[str, float]] = []
    graph: list[float] = []
    log = copy.parent / "phases.log"
    search = [gq, "search", "parse schema", "--repo", str(copy)]
    for i in range(runs):
        shutil.rmtree(copy / ".graphiq", ignore_errors=True)
        log.unlink(missing_ok=True)
        full.runs.append(check(run_measured([gq, "index", "--full", "--repo", str(copy)],
                                            env={**os.environ, "GRAPHIQ_PHASE_LOG": str(log)}),
                               "graphiq-ci index --full"))
        phases.append(phase_seconds(log))
        print(f"graphiq full {i + 1}/{runs}: {full.runs[-1].wall_s:.2f}s", file=sys.stderr)
    for _ in range(runs):  # the graph cache the last full build left is built by a first query
        (copy / ".graphiq" / CACHE_NAME).unlink(missing_ok=True)
        cold = check(run_measured(search), "graphiq-ci search").wall_s
        graph.append(cold - check(run_measured(search), "graphiq-ci search").wall_s)
    reported = [float(m.group(1)) for r in full.runs
                if (m := re.search(r" in ([\d.]+)s", r.stdout))]
    hook = [gq, "index", "--hook"]  # the refresh every commit runs, from the repository root
    for _ in range(runs):
        noop.runs.append(check(run_measured(hook, cwd=copy), "graphiq-ci index --hook"))
    refresh: list[dict[str, float]] = []
    for i in range(runs):
        append_comment(copy / rel, i)
        log.unlink(missing_ok=True)
        one.runs.append(check(run_measured(hook, cwd=copy,
                                           env={**os.environ, "GRAPHIQ_PHASE_LOG": str(log)}),
                              "graphiq-ci index --hook"))
        refresh.append(refresh_phases(log, one.runs[-1].wall_s))
    refresh_large: list[dict[str, float]] = []
    for i in range(runs):
        append_comment(copy / big, i)
        log.unlink(missing_ok=True)
        large.runs.append(check(run_measured(hook, cwd=copy,
                                             env={**os.environ, "GRAPHIQ_PHASE_LOG": str(log)}),
                                "graphiq-ci index --hook"))
        refresh_large.append(refresh_phases(log, large.runs[-1].wall_s))
    stats = check(run_measured([gq, "stats", "--repo", str(copy), "--json"]), "graphiq-ci stats")
    counts = json.loads(stats.stdout)
    return {"full": full, "noop": noop, "one": one, "large": large, "files": counts.get("files"),
            "symbols": counts.get("symbols"), "reported_s": C.median(reported),
            "one_out": one.runs[-1].stdout.strip(), "size_mb": du_mb(copy / ".graphiq"),
            "phases": {row: C.median([p.get(key, 0.0) for p in phases])
                       for key, row in PHASE_ROWS.items()} | {GRAPH_ROW: C.median(graph)},
            "refresh": {row: C.median([p.get(key, 0.0) for p in refresh])
                        for key, row in REFRESH_ROWS.items()},
            "refresh_large": {row: C.median([p.get(key, 0.0) for p in refresh_large])
                              for key, row in REFRESH_ROWS.items()}}


def bench_codegraph(copy: Path, rel: Path, big: Path, runs: int) -> dict[str, object]:
    env = dict(os.environ, **C.CODEGRAPH_ENV)
    full, noop, one, large = Series(), Series(), Series(), Series()
    for i in range(runs):
        shutil.rmtree(copy / ".codegraph", ignore_errors=True)
        full.runs.append(check(run_measured(C.codegraph_cmd("init", "-y", str(copy)), copy, env),
                               "codegraph init"))
        if not (copy / ".codegraph" / "codegraph.db").exists():
            sys.exit("codegraph init did not create .codegraph/codegraph.db")
        print(f"codegraph full {i + 1}/{runs}: {full.runs[-1].wall_s:.2f}s", file=sys.stderr)
    sync = C.codegraph_cmd("sync", "-q", str(copy))
    for _ in range(runs):
        noop.runs.append(check(run_measured(sync, copy, env), "codegraph sync"))
    for i in range(runs):
        append_comment(copy / rel, i)
        one.runs.append(check(run_measured(sync, copy, env), "codegraph sync"))
    for i in range(runs):
        append_comment(copy / big, i)
        large.runs.append(check(run_measured(sync, copy, env), "codegraph sync"))
    return {"full": full, "noop": noop, "one": one, "large": large,
            "size_mb": du_mb(copy / ".codegraph")}


def f2(v: float | None, spec: str = "{:.2f}") -> str:
    return "-" if v is None else spec.format(v)


def table(g: dict[str, object], cg: dict[str, object] | None, runs: int) -> str:
    def series(d: dict[str, object] | None, key: str) -> Series | None:
        return d[key] if d else None

    gf, cf = series(g, "full"), series(cg, "full")
    assert gf is not None
    full_s = gf.wall()
    files, symbols = g["files"], g["symbols"]
    rows: list[tuple[str, float | None, float | None, str]] = [
        (f"full index, median of {runs} (s)", full_s, cf.wall() if cf else None, "{:.2f}")]
    lines = ["| metric | graphiq-ci | CodeGraph | graphiq / CodeGraph |", "|---|---|---|---|"]
    for label, key in (("no-change refresh (s)", "noop"), ("one-file-changed refresh (s)", "one"),
                       ("one-file refresh, the largest source file (s)", "large")):
        a, b = series(g, key), series(cg, key)
        rows.append((label, a.wall() if a else None, b.wall() if b else None, "{:.2f}"))
    rows += [
        ("peak RSS, largest process (MB)", gf.maxrss_mb(), cf.maxrss_mb() if cf else None,
         "{:.0f}"),
        ("peak RSS, process tree sampled (MB)", gf.tree_mb(), cf.tree_mb() if cf else None,
         "{:.0f}"),
        ("index size on disk (MB)", g["size_mb"], cg["size_mb"] if cg else None, "{:.1f}"),
    ]
    for label, a, b, spec in rows:
        lines.append(f"| {label} | {f2(a, spec)} | {f2(b, spec)} | {C.ratio(a, b)} |")
    lines.append(f"| full index range (s) | {gf.spread()} | {cf.spread() if cf else '-'} | |")
    if full_s and isinstance(files, int) and isinstance(symbols, int):
        lines.append(f"| files/s (graphiq: {files} files) | {files / full_s:.0f} | - | |")
        lines.append(f"| symbols/s (graphiq: {symbols} symbols) | {symbols / full_s:.0f} | - | |")
    lines.append(f"| full index, indexer's own timer (s) | {f2(g['reported_s'])} | - | |")
    return "\n".join(lines)


def phase_table(g: dict[str, object], runs: int) -> str:
    """graphiq-ci's full build by phase (medians of `runs`), from its phase log."""
    phases = g["phases"]
    assert isinstance(phases, dict)
    lines = [f"| graphiq-ci full index, phase (median of {runs}) | s |", "|---|---|"]
    lines += [f"| {row} | {f2(s)} |" for row, s in phases.items()]
    return "\n".join(lines)


def refresh_table(g: dict[str, object], runs: int, rel: Path, key: str = "refresh") -> str:
    """graphiq-ci's one-file refresh of `rel` by phase (medians of `runs`, ms), from its phase
    log (`key`: "refresh", the mid-sized file; "refresh_large", the largest)."""
    phases = g[key]
    assert isinstance(phases, dict)
    lines = [f"| graphiq-ci one-file refresh (`{rel}`), phase (median of {runs}) | ms |",
             "|---|---|"]
    lines += [f"| {row} | {f2(s and s * 1000, '{:.0f}')} |" for row, s in phases.items()]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", nargs="?", type=Path,
                    help=f"repository to index (default: {C.DEFAULT_REPO} from the mirror)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-codegraph", action="store_true", help="skip the CodeGraph comparison")
    args = ap.parse_args()
    repo = (args.repo or C.default_checkout()).resolve()
    if not repo.is_dir():
        ap.error(f"not a directory: {repo}")
    (C.WORK / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-index-", dir=C.WORK / "tmp"))
    try:
        gq_copy = tmp / "graphiq" / repo.name
        shutil.copytree(repo, gq_copy, symlinks=True, ignore=COPY_IGNORE)
        rel = pick_source_file(gq_copy).relative_to(gq_copy)
        big = pick_source_file(gq_copy, largest=True).relative_to(gq_copy)
        g = bench_graphiq(gq_copy, rel, big, args.runs)
        cg = None
        note = ""
        if args.no_codegraph:
            note = "CodeGraph: skipped (--no-codegraph)."
        elif not C.codegraph_installed():
            note = (f"CodeGraph: skipped, not installed at {C.CODEGRAPH_PKG} "
                    f"(`{C.CODEGRAPH_INSTALL}`).")
        else:
            cg_copy = tmp / "codegraph" / repo.name
            shutil.copytree(repo, cg_copy, symlinks=True, ignore=COPY_IGNORE)
            cg = bench_codegraph(cg_copy, rel, big, args.runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    print(f"Index benchmark: graphiq-ci {git_describe()}; {repo}{' @ ' + head if head else ''}; "
          f"{args.runs} runs each on a "
          f"temporary copy; {C.hardware_note()}.\nOne-file change: `{rel}` "
          f"(graphiq: \"{g['one_out']}\"); the largest source file: `{big}`.\n")
    print(table(g, cg, args.runs))
    print()
    print(phase_table(g, args.runs))
    print()
    print(refresh_table(g, args.runs, rel))
    print()
    print(refresh_table(g, args.runs, big, "refresh_large"))
    if note:
        print(f"\n{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
