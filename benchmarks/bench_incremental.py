"""Does an incremental index equal a full one? Real history, replayed commit by commit.

    python benchmarks/bench_incremental.py [--repos owner/name,...] [--commits 10] [--show 3]

The pre-commit hook and every query refresh the index incrementally: only what an edit can
change is parsed and resolved again (index/writer.py, index/redo.py). Tests check that on
small repositories built for the purpose; this checks it on real edits. For each repository
(default: the dev and dev2 repositories, from their mirrors) a temporary clone is checked
out `--commits` first-parent commits before its pinned head and indexed from scratch. Then,
for each later commit up to the head: check it out, run `graphiq-ci index` (incremental),
read every reference's target and every edge, run `graphiq-ci index --full` on the same
tree, read them again, and compare. Symbol ids differ between the two by design, so a fact
names its symbols by file, qualified name and kind, and a symmetric deep edge (shares_*) is
an unordered pair. Prints each commit that differs with its first `--show` differences
(stderr), then a table: commits replayed, and how many of them differ in references and in
edges.
"""

from __future__ import annotations

import argparse
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
from bench_resolution import index, split_repos  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
SYMMETRIC = ("shares_",)


def facts(db: Path) -> tuple[Counter[tuple[str, ...]], Counter[tuple[str, ...]]]:
    """(references, edges) by names: a reference as its file, source, name, kind and target;
    an edge as its two ends and kind."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        named = {i: f"{path}:{qualified}:{kind}" for i, path, qualified, kind in conn.execute(
            "SELECT s.id, f.path, s.qualified, s.kind FROM symbols s "
            "JOIN files f ON f.id = s.file_id")}
        refs = Counter((path, named.get(src, ""), name, kind, named.get(dst, "")) for
                       path, src, name, kind, dst in conn.execute(
                           "SELECT f.path, r.src_id, r.name, r.kind, r.dst_id FROM refs r "
                           "JOIN files f ON f.id = r.file_id"))
        edges: Counter[tuple[str, ...]] = Counter()
        for src, dst, kind in conn.execute("SELECT src_id, dst_id, kind FROM edges"):
            ends = (named.get(src, ""), named.get(dst, ""))
            edges[(*(sorted(ends) if kind.startswith(SYMMETRIC) else ends), kind)] += 1
    finally:
        conn.close()
    return refs, edges


def git(clone: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(clone), *args], capture_output=True, text=True,
                          check=True).stdout


def replay(repo: str, commits: int, show: int, tmp: Path) -> tuple[int, int, int]:
    """(commits replayed, those whose references differ, those whose edges differ)."""
    clone = tmp / repo.replace("/", "+")
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(C.mirror(repo)),
                    str(clone)], check=True)
    history = git(clone, "rev-list", "--first-parent", f"-{commits + 1}",
                  C.pinned_head(repo)).split()[::-1]
    git(clone, "checkout", "-q", "--detach", history[0])
    index(clone, PROJECT)
    refs_differ = edges_differ = 0
    for commit in history[1:]:
        git(clone, "checkout", "-q", "--detach", commit)
        incremental = facts(index(clone, PROJECT, fresh=False))
        full = facts(index(clone, PROJECT))
        if incremental == full:
            continue
        refs_differ += incremental[0] != full[0]
        edges_differ += incremental[1] != full[1]
        print(f"{repo} {commit[:10]}: {_count(incremental[0], full[0])} references and "
              f"{_count(incremental[1], full[1])} edges differ", file=sys.stderr)
        for label, ours, theirs in (("reference", incremental[0], full[0]),
                                    ("edge", incremental[1], full[1])):
            for fact in list((ours - theirs) + (theirs - ours))[:show]:
                side = "incremental only" if ours[fact] > theirs[fact] else "full only"
                print(f"  {label}, {side}: {fact}", file=sys.stderr)
    return len(history) - 1, refs_differ, edges_differ


def _count(ours: Counter[tuple[str, ...]], theirs: Counter[tuple[str, ...]]) -> int:
    """Facts one index holds and the other does not, each side counted."""
    return sum(((ours - theirs) + (theirs - ours)).values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", help="owner/name,... (default: the dev and dev2 repositories)")
    ap.add_argument("--commits", type=int, default=10, help="commits replayed per repository")
    ap.add_argument("--show", type=int, default=3, help="differences printed per commit")
    args = ap.parse_args()
    repos = args.repos.split(",") if args.repos else split_repos()
    (C.WORK / "tmp").mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-incremental-", dir=C.WORK / "tmp"))
    rows = []
    try:
        for repo in repos:
            rows.append((repo, *replay(repo, args.commits, args.show, tmp)))
            print(f"{repo}: {rows[-1][1:]}", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"Incremental against full index: graphiq-ci {git_describe()}, the last "
          f"{args.commits} first-parent commits before each repository's pinned head.\n")
    print("| repository | commits replayed | references differ | edges differ |\n"
          "|---|---|---|---|")
    for repo, n, refs_differ, edges_differ in rows:
        print(f"| {repo} | {n} | {refs_differ} | {edges_differ} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
