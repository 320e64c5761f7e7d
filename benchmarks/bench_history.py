"""Quality on a repository's own history: its commits as tasks, the files they changed as answers.

    python benchmarks/bench_history.py [--repo .] [--limit 40] [--until REV] [--json]
                                       [--zero-weights]

Mines the repository (this one by default) the way the quality guard in
tests/test_quality_guard.py does, then ranks each task at the commit's parent:
  task    the commit's whole message;
  answer  the code files it modified (1-6 of them; added files cannot be found at the parent);
  skipped merges, commits whose message names one of its files (the answer would be given
          away), and commits touching more than 6 code files.
One clone (sharing the objects) walks the commits oldest first, so each step re-indexes only
what the previous commit changed. Prints file MRR, Recall@1 and Recall@5 over the tasks, with the
commit measured. `--zero-weights` sets every ranking weight to 0: the guard's proof that the
floor catches a broken ranking.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

MAX_FILES = 6


@dataclass(frozen=True)
class Task:
    commit: str
    parent: str
    message: str
    gold: tuple[str, ...]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def _is_code(path: str) -> bool:
    from graphiq_ci.lang.registry import LANGUAGES, detect_language

    return detect_language(path) in {spec.name for spec in LANGUAGES}


def mine(repo: Path, limit: int, until: str = "HEAD") -> list[Task]:
    """The newest `limit` usable commits of `repo` up to `until`, oldest first."""
    log = _git(repo, "log", "--no-merges", "--format=%x1e%H %P%x1f%B%x1f", "--name-status",
               "--no-renames", until)
    tasks: list[Task] = []
    for record in log.split("\x1e")[1:]:
        head, message, status = record.split("\x1f")
        shas = head.split()
        if len(shas) != 2:  # the root commit has no parent to rank at
            continue
        changes = [line.split("\t", 1) for line in status.strip().splitlines() if "\t" in line]
        code = [(s, p) for s, p in changes if _is_code(p)]
        gold = tuple(p for s, p in code if s == "M")
        if not gold or len(code) > MAX_FILES:
            continue
        if any(p in message or Path(p).name in message for _, p in changes):
            continue
        tasks.append(Task(shas[0], shas[1], message.strip(), gold))
        if len(tasks) == limit:
            break
    return tasks[::-1]


def rank_files(root: Path, task: str, zero_weights: bool) -> list[str]:
    from graphiq_ci.context import Options, build_context
    from graphiq_ci.context.files import FILE_WEIGHTS
    from graphiq_ci.search.weights import FEATURES

    weights = tuple((k, 0.0) for k in FEATURES) if zero_weights else ()
    if zero_weights:  # the file ranker's own weights are not configurable: zero them here
        FILE_WEIGHTS.update(dict.fromkeys(FILE_WEIGHTS, 0.0))
    ctx = build_context(root, task, Options(weights=weights))
    return [f.path for f in ctx.files]


def measure(repo: Path, limit: int, until: str = "HEAD",
            zero_weights: bool = False) -> dict[str, object]:
    tasks = mine(repo, limit, until)
    rr: list[float] = []
    r1: list[float] = []
    r5: list[float] = []
    with tempfile.TemporaryDirectory(prefix="graphiq-history-") as tmp:
        wt = Path(tmp) / "clone"  # a clone sharing the objects: the repository is not touched
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(wt)],
                       check=True, capture_output=True)
        for t in tasks:
            _git(wt, "checkout", "-q", "--detach", t.parent)
            ranked = rank_files(wt, t.message, zero_weights)
            ranks = [ranked.index(p) + 1 for p in t.gold if p in ranked]
            rr.append(1 / min(ranks) if ranks else 0.0)
            r1.append(sum(p in ranked[:1] for p in t.gold) / len(t.gold))
            r5.append(sum(p in ranked[:5] for p in t.gold) / len(t.gold))
    n = len(tasks)
    return {"repo": str(repo), "commit": _git(repo, "rev-parse", "--short", "HEAD").strip(),
            "history_until": _git(repo, "rev-parse", "--short", until).strip(),
            "tasks": n, "zero_weights": zero_weights,
            "mrr": round(sum(rr) / n, 3) if n else 0.0,
            "recall_at_1": round(sum(r1) / n, 3) if n else 0.0,
            "recall_at_5": round(sum(r5) / n, 3) if n else 0.0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--limit", type=int, default=40, help="newest usable commits to rank")
    ap.add_argument("--until", default="HEAD", help="the newest commit to mine (the guard "
                    "pins one, so its task set does not move as history grows)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--zero-weights", action="store_true", help="rank with every weight 0")
    args = ap.parse_args()
    result = measure(args.repo.resolve(), args.limit, args.until, args.zero_weights)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"History benchmark: {result['tasks']} commits of {result['repo']} up to "
              f"{result['history_until']}, ranked by graphiq-ci {result['commit']}"
              f"{' (all weights 0)' if args.zero_weights else ''}\n\n"
              f"| MRR | R@1 | R@5 |\n|---|---|---|\n| {result['mrr']} | "
              f"{result['recall_at_1']} | {result['recall_at_5']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
