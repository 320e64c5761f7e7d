"""Scale benchmark: a generated repository of ~200k symbols, indexed and queried by the CLI.

    python benchmarks/bench_scale.py [--files 2000] [--funcs 100] [--shards 4] [--keep DIR]

Generates FILES Python modules of FUNCS small functions each (cross-module calls and imports,
so resolution and the graph have real work), runs `graphiq-ci index` as a child process and
reports wall time and peak RSS (ru_maxrss of the largest process of the tree, from wait4; the
parse workers are children too, so their peak counts), then times a few `search` and
`context` queries (process start included, the graph cache warm after the first). Then one
module is edited and re-indexed twice: the first query after the first edit patches the graph
cache, after the second (its cache removed) rebuilds the graph, for comparison. Last it
indexes the same repository as SHARDS shards (`index --shard I/N`, one after another, each
with the machine to itself as a CI matrix job has) and times `index --merge`, beside the full
index. Not part of the test suite: it takes minutes. The goal: peak RSS within 2 GiB,
queries interactive.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIB = 1 << 30


def module(i: int, n: int, funcs: int) -> str:
    nxt = (i + 1) % n
    out = [f'"""Module {i}: billing stage {i % 37}, ledger shard {i % 11}."""',
           f"from pkg{nxt % 20}.mod_{nxt} import fn_{nxt}_0", ""]
    for f in range(funcs):
        callee = f"fn_{i}_{f + 1}" if f + 1 < funcs else f"fn_{nxt}_0"
        out += [f"def fn_{i}_{f}(amount: int) -> int:",
                f'    """Apply rule {f} of stage {i % 37} to an invoice amount."""',
                f"    return {callee}(amount - 1) if amount > {f} else amount", ""]
    return "\n".join(out)


def generate(root: Path, files: int, funcs: int) -> None:
    for i in range(files):
        pkg = root / f"pkg{i % 20}"
        pkg.mkdir(parents=True, exist_ok=True)
        (pkg / f"mod_{i}.py").write_text(module(i, files, funcs))
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)


def timed(args: list[str]) -> tuple[float, int, int]:
    """(wall seconds, peak RSS bytes of the process tree's largest process, exit code)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss * 1024  # Linux: the largest of the child and its reaped children
    if proc.returncode != 0:
        assert proc.stderr is not None
        print(proc.stderr.read().decode(errors="replace"), file=sys.stderr)
    return wall, peak, proc.returncode


def sharded(cli: list[str], root: Path, n: int, full: float) -> None:
    """`index --shard I/N` for each I in turn, then `index --merge`, beside the full index."""
    out = root / ".graphiq"  # where --shard writes by default
    walls, peaks = [], []
    for i in range(1, n + 1):
        wall, peak, rc = timed([*cli, "index", "--repo", str(root), "--shard", f"{i}/{n}"])
        walls.append(wall)
        peaks.append(peak)
    print(f"index --shard I/{n}, one after another: " + ", ".join(f"{w:.1f}" for w in walls)
          + f" s (sum {sum(walls):.1f}s, longest {max(walls):.1f}s), "
          f"peak RSS {max(peaks) / 2**20:.0f} MiB")
    merge, peak, rc = timed([*cli, "index", "--repo", str(root), "--merge",
                             *map(str, sorted(out.glob(f"shard-*-of-{n}.db")))])
    print(f"index --merge: {merge:.1f}s wall, peak RSS {peak / 2**20:.0f} MiB, exit {rc}")
    after = subprocess.run([*cli, "index", "--repo", str(root)], capture_output=True,
                           text=True).stdout.strip()
    print(f"full index {full:.1f}s vs {n} parallel jobs: longest shard + merge = "
          f"{max(walls) + merge:.1f}s ({(max(walls) + merge) / full:.2f}x); then `index`: {after}")


def one_file_change(root: Path, cli: list[str], funcs: int) -> None:
    """The first query after a one-file change: the cached graph read through a delta
    (search/graph_delta.py, the cache file left as it is) beside the same query with the
    cache removed, which rebuilds the whole graph."""
    from graphiq_ci.search.graph_cache import CACHE_NAME
    from graphiq_ci.search.graph_files import DELTA_NAME

    query = ["search", "apply rule invoice amount stage 7", "--repo", str(root)]
    cache = root / ".graphiq" / CACHE_NAME
    for k, how in enumerate(("patched", "rebuilt")):
        target = root / "pkg3" / "mod_1003.py"
        text = module(1003, 2000, funcs).replace("amount - 1", f"amount - {2 + k}")
        target.write_text(text + f"\n\ndef refund_{k}(amount: int) -> int:\n    return -amount\n")
        wall, peak, rc = timed([*cli, "index", "--repo", str(root)])
        print(f"one-file change: index {wall:.2f}s wall, peak RSS {peak / 2**20:.0f} MiB")
        if how == "rebuilt":
            cache.unlink()
        wall, peak, rc = timed([*cli, *query])
        print(f"  first query after it, graph {how:<7} {wall:6.2f}s  peak {peak / 2**20:5.0f} MiB"
              f"  exit {rc}")
        delta = cache.with_name(DELTA_NAME)
        print(f"    {CACHE_NAME} {cache.stat().st_size / 2**20:.1f} MiB, {DELTA_NAME} "
              + (f"{delta.stat().st_size / 2**10:.0f} KiB" if delta.exists() else "none"))
        wall, peak, rc = timed([*cli, *query])
        print(f"  the query after that (cache warm)  {wall:6.2f}s  peak {peak / 2**20:5.0f} MiB")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--funcs", type=int, default=100)
    ap.add_argument("--shards", type=int, default=4, help="shards to time (0: none)")
    ap.add_argument("--keep", type=Path, help="generate here and keep it")
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="graphiq-scale-")) / "repo"
    cli = [sys.executable, "-m", "graphiq_ci"]
    try:
        t0 = time.perf_counter()
        generate(root, args.files, args.funcs)
        print(f"generated {args.files} files x {args.funcs} functions in "
              f"{time.perf_counter() - t0:.1f}s at {root}")
        full, peak, rc = timed([*cli, "index", "--repo", str(root)])
        print(f"index (full, first run): {full:.1f}s wall, peak RSS {peak / 2**20:.0f} MiB"
              f" ({'within' if peak < 2 * GIB else 'OVER'} 2 GiB), exit {rc}")
        stats = subprocess.run([*cli, "stats", "--repo", str(root)], capture_output=True,
                               text=True).stdout.splitlines()[:1]
        print(f"index holds: {stats[0] if stats else '?'}")
        wall, peak, rc = timed([*cli, "index", "--repo", str(root)])
        print(f"index (no change): {wall:.2f}s wall, peak RSS {peak / 2**20:.0f} MiB")
        queries = [["search", "fn_1234_56"], ["search", "apply rule invoice amount stage 7"],
                   ["search", "fn_1234_56"],
                   ["context", "where is rule 12 of billing stage 30 applied", "--format",
                    "json"]]
        for q in queries:
            wall, peak, rc = timed([*cli, *q, "--repo", str(root)])
            print(f"{' '.join(q)[:60]:<60} {wall:6.2f}s  peak {peak / 2**20:5.0f} MiB  exit {rc}")
        one_file_change(root, cli, args.funcs)
        if args.shards:
            sharded(cli, root, args.shards, full)
        return 0
    finally:
        if args.keep is None:
            shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
