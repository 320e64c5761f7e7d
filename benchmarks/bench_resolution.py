"""How a change to resolution moved its answers: every call's target under REV's code and this
checkout's, on real repositories.

    python benchmarks/bench_resolution.py REV [--repos owner/name,...] [--examples N]

Each repository (default: those of the dev and dev2 splits, each at the commit
`_common.default_checkout` gives it) is indexed from scratch twice: by REV's code, checked out
into a temporary worktree and run with its package first on PYTHONPATH, and by this
checkout's. Each call reference, identified by its file, the definition it is in, its line
and the called name (a name called twice on one line is left out), is then compared: resolved
by both to the same definition, newly resolved, resolved to another definition (moved), or
no longer resolved (lost). Resolution never guesses, so a new answer is as good as the
evidence behind it: `--examples` prints that many new and moved references per repository
on stderr, each with the line's text, to read.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
SPLIT_REPOS = ("repos.json", "repos-dev2.json")
Key = tuple[str, str, int, str]  # path, enclosing definition, line, called name


def targets(db: Path) -> dict[Key, str]:
    """Each call reference that is alone with its key → its target ("" unresolved)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT f.path, coalesce(s.qualified, ''), r.line, r.name, "
            "coalesce(tf.path || ':' || t.qualified, '') FROM refs r "
            "JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.src_id "
            "LEFT JOIN symbols t ON t.id = r.dst_id LEFT JOIN files tf ON tf.id = t.file_id "
            "WHERE r.kind = 'calls'").fetchall()
    finally:
        conn.close()
    seen = Counter((path, src, line, name) for path, src, line, name, _ in rows)
    return {(path, src, line, name): dst for path, src, line, name, dst in rows
            if seen[(path, src, line, name)] == 1}


def index(copy: Path, code: Path, fresh: bool = True) -> Path:
    """`graphiq-ci index` of `copy` by the package in `code`: from scratch (`fresh`), else
    the incremental refresh the hook and every query run."""
    if fresh:
        shutil.rmtree(copy / ".graphiq", ignore_errors=True)
    subprocess.run([sys.executable, "-P", "-m", "graphiq_ci", "index", "--repo", str(copy)],
                   env={**os.environ, "PYTHONPATH": str(code)}, check=True,
                   capture_output=True)
    return copy / ".graphiq" / "graphiq.db"


def split_repos() -> list[str]:
    repos: list[str] = []
    for name in SPLIT_REPOS:
        path = C.BENCH_DIR / "tasks" / name
        if path.exists():
            repos += [r for r in json.loads(path.read_text()).get("repos", {}) if r not in repos]
    return repos


def line_text(root: Path, path: str, line: int) -> str:
    try:
        return (root / path).read_text(errors="replace").splitlines()[line - 1].strip()[:100]
    except (OSError, IndexError):
        return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the commit of this repository to compare with")
    ap.add_argument("--repos", help="owner/name,... (default: the dev and dev2 repositories)")
    ap.add_argument("--examples", type=int, default=0,
                    help="new and moved references to print per repository (stderr)")
    args = ap.parse_args()
    base = subprocess.run(["git", "-C", str(PROJECT), "rev-parse", "--short", args.rev],
                          capture_output=True, text=True)
    if base.returncode != 0:
        ap.error(f"not a commit of {PROJECT}: {args.rev}")
    repos = args.repos.split(",") if args.repos else split_repos()
    (C.WORK / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-resolution-", dir=C.WORK / "tmp"))
    tree = tmp / "old-code"
    rows = []
    try:
        subprocess.run(["git", "-C", str(PROJECT), "worktree", "add", "-q", "--detach",
                        str(tree), args.rev], check=True)
        for repo in repos:
            checkout = C.default_checkout(repo)
            found = {}
            for version, code in (("old", tree), ("new", PROJECT)):
                copy = tmp / version / checkout.name
                shutil.copytree(checkout, copy, symlinks=True,
                                ignore=shutil.ignore_patterns(".graphiq"))
                found[version] = targets(index(copy, code))
            old, new = found["old"], found["new"]
            both = old.keys() & new.keys()
            gained = sorted(k for k in both if new[k] and not old[k])
            moved = sorted(k for k in both if new[k] and old[k] and new[k] != old[k])
            lost = sorted(k for k in both if old[k] and not new[k])
            rows.append((repo, len(both), sum(bool(old[k]) for k in both),
                         sum(bool(new[k]) for k in both), len(gained), len(moved), len(lost)))
            print(f"{repo}: +{len(gained)} moved {len(moved)} lost {len(lost)}", file=sys.stderr)
            pick = random.Random(0)
            for label, keys in (("new", gained), ("moved", moved), ("lost", lost)):
                for k in pick.sample(keys, min(args.examples, len(keys))):
                    path, src, line, name = k
                    print(f"  {label}: {path}:{line} {src} {name}() -> {new[k] or '-'} "
                          f"(was {old[k] or '-'})  | {line_text(checkout, path, line)}",
                          file=sys.stderr)
    finally:
        subprocess.run(["git", "-C", str(PROJECT), "worktree", "remove", "--force", str(tree)],
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"Call references resolved: graphiq-ci {git_describe()} (new) against "
          f"{base.stdout.strip()} (old), each repository indexed from scratch by both.\n")
    print("| repository | calls compared | resolved (old) | resolved (new) | newly resolved "
          "| moved to another target | no longer resolved |\n|---|---|---|---|---|---|---|")
    for repo, n, r_old, r_new, gained, moved, lost in rows:
        print(f"| {repo} | {n} | {r_old} ({r_old / max(1, n):.1%}) | {r_new} "
              f"({r_new / max(1, n):.1%}) | {gained} | {moved} | {lost} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
