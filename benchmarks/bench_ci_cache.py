"""What the Action's index cache saves: a cold index against a restored trunk index, same run.

    python benchmarks/bench_ci_cache.py [--repo owner/name] [--behind 20] [--runs 3]

Each run makes what actions/checkout leaves on a runner: a fresh clone, every file's mtime
new. `cold` indexes it from nothing. `restored` first copies in `.graphiq/` from a clone of
the trunk `--behind` commits earlier (the newest trunk index the cache holds for a PR), then
refreshes it: only files whose content differs are parsed, the rest are hashed. Both are the
CLI as the Action runs it (`graphiq-ci index`), process start included; medians of --runs.
The repository comes from $BENCH_MIRRORS (default: colinhacks/zod at its pinned commit).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402


def fresh_clone(src: Path, sha: str, dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(src), str(dest)],
                   check=True)
    subprocess.run(["git", "-C", str(dest), "checkout", "-q", "--detach", sha], check=True)
    return dest


def timed_index(repo: Path) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run([C.graphiq_exe(), "index", "--repo", str(repo)], capture_output=True,
                         text=True, check=True)
    return time.perf_counter() - t0, out.stdout.strip().splitlines()[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", default=C.DEFAULT_REPO)
    ap.add_argument("--behind", type=int, default=20, help="commits the trunk index lags by")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    src = C.mirror(args.repo)
    head = C.pinned_head(args.repo)
    trunk_sha = subprocess.run(["git", f"--git-dir={src}", "rev-parse", f"{head}~{args.behind}"],
                               capture_output=True, text=True, check=True).stdout.strip()
    (C.WORK / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-ci-cache-", dir=C.WORK / "tmp"))
    cold: list[float] = []
    restored: list[float] = []
    lines = {}
    try:
        trunk = fresh_clone(src, trunk_sha, tmp / "trunk")
        timed_index(trunk)  # what the trunk's push run saves
        for n in range(args.runs):
            seconds, lines["cold"] = timed_index(fresh_clone(src, head, tmp / f"cold-{n}"))
            cold.append(seconds)
            pr = fresh_clone(src, head, tmp / f"pr-{n}")
            shutil.copytree(trunk / ".graphiq", pr / ".graphiq")  # the cache's restore
            seconds, lines["restored"] = timed_index(pr)
            restored.append(seconds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    changed = re.match(r"indexed (\d+) files", lines["restored"])
    print(f"CI index cache: {args.repo} @ {head[:12]}, trunk index {args.behind} commits behind; "
          f"graphiq-ci {git_describe()}; {args.runs} runs; {C.hardware_note()}.\n")
    print("| run on a fresh checkout | index time, median | graphiq-ci says |")
    print("|---|---|---|")
    print(f"| cold: no cache | {C.median(cold):.2f} s | {lines['cold']} |")
    print(f"| restored trunk index, refreshed | {C.median(restored):.2f} s "
          f"({C.ratio(C.median(restored), C.median(cold))} of cold) | {lines['restored']} |")
    print(f"\n{changed.group(1) if changed else '?'} files differ between the trunk index and "
          f"the PR's checkout.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
