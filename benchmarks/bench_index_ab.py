"""A full index (or a warm `context`) by this checkout's code against an earlier commit's, run by
run, same machine.

    python benchmarks/bench_index_ab.py REV [REPO] [--runs 5] [--context | --refresh [median]]

On a shared VM the speed of the machine drifts between runs by more than most changes to the
indexer are worth, and CodeGraph's time drifts with it (bench_index.py). Alternating the two
versions of graphiq-ci build by build puts both under the same drift: the medians and their
ratio measure the change itself. REV's code is checked out into a temporary worktree of this
repository and run with its package first on PYTHONPATH, under this venv's interpreter and
libraries; each version indexes its own temporary copy of REPO (default: colinhacks/zod at the
pinned commit, as bench_index.py), `graphiq-ci index --full` after deleting `.graphiq`.
`--context`: each version indexes its copy once, then each run is one warm `graphiq-ci context`
call per task of bench_search.py's CONTEXT_TASKS (Markdown, process start included), the two
versions alternating call by call. `--refresh`: each run edits REPO's largest source file (a
comment appended) and times `graphiq-ci index`, the refresh that costs most, then puts the file
back and indexes again, untimed; `--refresh median` edits the mid-sized file bench_index.py's
one-file row edits instead.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_index import (  # noqa: E402
    COPY_IGNORE,
    Run,
    append_comment,
    check,
    pick_source_file,
    run_measured,
)
from bench_quality import git_describe  # noqa: E402
from bench_search import CONTEXT_TASKS  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent


def _env(code: Path) -> dict[str, str]:
    """The environment that runs the package in `code`: first on the path (`-P` keeps the
    working directory off it, which would otherwise come first)."""
    return {**os.environ, "PYTHONPATH": str(code)}


def _package(code: Path) -> str:
    done = subprocess.run([sys.executable, "-P", "-c", "import graphiq_ci; "
                           "print(graphiq_ci.__file__)"], env=_env(code), capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def full_index(copy: Path, code: Path) -> Run:
    shutil.rmtree(copy / ".graphiq", ignore_errors=True)
    return check(run_measured([sys.executable, "-P", "-m", "graphiq_ci", "index", "--full",
                               "--repo", str(copy)], env=_env(code)), "graphiq-ci index --full")


def warm_context(copy: Path, code: Path, task: str) -> Run:
    return check(run_measured([sys.executable, "-P", "-m", "graphiq_ci", "context", task,
                               "--repo", str(copy)], env=_env(code)), "graphiq-ci context")


def refresh(copy: Path, code: Path) -> Run:
    return check(run_measured([sys.executable, "-P", "-m", "graphiq_ci", "index", "--repo",
                               str(copy)], env=_env(code)), "graphiq-ci index")


def one_file_refresh(copy: Path, code: Path, i: int, largest: bool) -> Run:
    """The index brought up to date after an edit of the largest source file (else the
    mid-sized one), which is then put back (and indexed again, untimed)."""
    edited = pick_source_file(copy, largest=largest)
    before = edited.read_bytes()
    append_comment(edited, i)
    try:
        return refresh(copy, code)
    finally:
        edited.write_bytes(before)
        refresh(copy, code)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the commit of this repository to compare with")
    ap.add_argument("repo", nargs="?", type=Path,
                    help=f"repository to index (default: {C.DEFAULT_REPO} from the mirror)")
    ap.add_argument("--runs", type=int, default=5, help="full builds per version (default 5)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--context", action="store_true",
                      help="time warm `context` calls instead of full builds")
    mode.add_argument("--refresh", nargs="?", const="largest", choices=("largest", "median"),
                      help="time the refresh after an edit of the largest source file (or "
                           "of the mid-sized one)")
    args = ap.parse_args()
    repo = (args.repo or C.default_checkout()).resolve()
    base = subprocess.run(["git", "-C", str(PROJECT), "rev-parse", "--short", args.rev],
                          capture_output=True, text=True)
    if base.returncode != 0:
        ap.error(f"not a commit of {PROJECT}: {args.rev}")
    (C.WORK / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-index-ab-", dir=C.WORK / "tmp"))
    tree = tmp / "old-code"
    try:
        subprocess.run(["git", "-C", str(PROJECT), "worktree", "add", "-q", "--detach",
                        str(tree), args.rev], check=True)
        code = {"old": tree, "new": PROJECT}
        for version, where in code.items():  # each version runs its own code, not the other's
            if not _package(where).startswith(str(where)):
                sys.exit(f"{version}: graphiq_ci is not imported from {where}")
            # bytecode for both, as an installed package has it: with PYTHONDONTWRITEBYTECODE
            # set, the fresh worktree would compile every module on every call
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(where / "graphiq_ci")],
                           check=True)
        copies = {}
        for version in ("old", "new"):
            copies[version] = tmp / version / repo.name
            shutil.copytree(repo, copies[version], symlinks=True, ignore=COPY_IGNORE)
        walls: dict[str, list[float]] = {"old": [], "new": []}
        if args.context:  # an index to query, and every file compiled to bytecode once
            for version in ("old", "new"):
                warm_context(copies[version], code[version], CONTEXT_TASKS[0])
        elif args.refresh:  # an index to refresh
            for version in ("old", "new"):
                refresh(copies[version], code[version])
        for i in range(args.runs):
            for version in (("old", "new") if i % 2 == 0 else ("new", "old")):
                if args.context:
                    walls[version] += [warm_context(copies[version], code[version], task).wall_s
                                       for task in CONTEXT_TASKS]
                elif args.refresh:
                    walls[version].append(
                        one_file_refresh(copies[version], code[version], i,
                                         args.refresh == "largest").wall_s)
                else:
                    walls[version].append(full_index(copies[version], code[version]).wall_s)
            print(f"run {i + 1}/{args.runs}: old {walls['old'][-1]:.2f}s, "
                  f"new {walls['new'][-1]:.2f}s", file=sys.stderr)
    finally:
        subprocess.run(["git", "-C", str(PROJECT), "worktree", "remove", "--force", str(tree)],
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    old, new = C.median(walls["old"]), C.median(walls["new"])
    what = (f"Warm `context` ({len(CONTEXT_TASKS)} tasks a run)" if args.context
            else f"Refresh after an edit of the {args.refresh} source file" if args.refresh
            else "Full index")
    print(f"{what}, alternating: graphiq-ci {git_describe()} (new) against "
          f"{base.stdout.strip()} (old); {repo}; {args.runs} runs each; {C.hardware_note()}.\n")
    print("| version | median (s) | runs (s) |\n|---|---|---|")
    digits = 3 if args.context or args.refresh else 2  # a fraction of a second
    for version, median in (("old", old), ("new", new)):
        runs = ", ".join(f"{w:.{digits}f}" for w in walls[version])
        print(f"| {version} | {median:.{digits}f} | {runs} |")
    print(f"\nnew / old: {C.ratio(new, old)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
