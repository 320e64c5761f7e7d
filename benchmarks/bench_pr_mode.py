"""PR-mode benchmark: does the branch's own change help find the rest of a PR?

    python benchmarks/bench_pr_mode.py [--limit N] [--repo owner/name]

For every dev task with two or more gold files: check out the base commit, apply the PR's
change to ONE gold file only (the first in sorted order) on a temporary branch, then ask
graphiq-ci for the context twice, with the same task text:

  task-only   `graphiq-ci context --task-file T --format json` (on the base commit)
  PR mode     the same with `--base base` on the partial branch

and score how well each ranks the OTHER gold files (the applied one is dropped from both
rankings): Recall@5, Recall@10 and MRR of the remaining files. Both runs happen in the same
process on the same checkouts, so the ratio is measured, not quoted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

BRANCH = "graphiq-bench-partial"


@dataclass
class Score:
    recall5: float
    recall10: float
    rr: float


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def _ranked_files(repo: Path, task_file: Path, *extra: str) -> list[str]:
    out = subprocess.run(
        [C.graphiq_exe(), "context", "--repo", str(repo), "--task-file", str(task_file),
         "--format", "json", *extra],
        capture_output=True, text=True, timeout=300)
    if out.returncode not in (0, 1):
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return [f["path"] for f in json.loads(out.stdout)["files"]] if out.returncode == 0 else []


def _score(ranked: list[str], applied: str, wanted: list[str]) -> Score:
    ranked = [p for p in ranked if p != applied]
    hits = [ranked.index(p) + 1 for p in wanted if p in ranked]
    return Score(
        recall5=sum(1 for r in hits if r <= 5) / len(wanted),
        recall10=sum(1 for r in hits if r <= 10) / len(wanted),
        rr=1 / min(hits) if hits else 0.0,
    )


def _apply_one(repo: Path, commit: str, path: str) -> None:
    """A branch off the base commit holding the PR's version of one file."""
    _git(repo, "checkout", "-q", "-B", BRANCH)
    content = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"],
                             check=True, capture_output=True).stdout
    (repo / path).write_bytes(content)
    _git(repo, "-c", "user.name=bench", "-c", "user.email=bench@localhost",
         "commit", "-q", "-am", f"partial: {path}")


def _restore(repo: Path) -> None:
    _git(repo, "checkout", "-q", "-f", "base")
    _git(repo, "branch", "-q", "-D", BRANCH)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int)
    ap.add_argument("--repo", action="append")
    args = ap.parse_args()
    ev = C.load_bench_module("eval")
    tasks = [json.loads(line) for line in (C.BENCH_DIR / "tasks" / "dev.jsonl").open()]
    tasks = [t for t in tasks if len(t["gold_files"]) >= 2
             and (not args.repo or t["repo"] in args.repo)][: args.limit]
    rows: list[tuple[str, Score, Score]] = []
    work = C.WORK / "pr-mode"
    work.mkdir(parents=True, exist_ok=True)
    for n, t in enumerate(tasks, 1):
        repo, _ = ev.materialise(t["repo"], t["base_commit"], str(C.mirror(t["repo"])))
        repo = Path(repo)
        task_file = work / f"{t['id']}.txt"
        task_file.write_text(t["task"])
        applied, *others = sorted(t["gold_files"])
        try:
            before = _score(_ranked_files(repo, task_file), applied, others)
            _apply_one(repo, t["commit"], applied)
            try:
                after = _score(_ranked_files(repo, task_file, "--base", "base"), applied, others)
            finally:
                _restore(repo)
        except (subprocess.SubprocessError, RuntimeError, ValueError) as exc:
            print(f"[{n}/{len(tasks)}] {t['id']}: error {exc}", file=sys.stderr)
            continue
        rows.append((t["repo"], before, after))
        print(f"[{n}/{len(tasks)}] {t['id']:<28} R@5 task {before.recall5:.2f} "
              f"-> PR {after.recall5:.2f}", file=sys.stderr)
    print(_table(rows))


def _table(rows: list[tuple[str, Score, Score]]) -> str:
    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else 0.0

    lines = ["| group | tasks | R@5 task-only | R@5 PR mode | R@10 task-only | R@10 PR mode | "
             "MRR task-only | MRR PR mode |", "|---|---|---|---|---|---|---|---|"]
    groups = ["ALL"] + sorted({r for r, _, _ in rows})
    for g in groups:
        sel = [(b, a) for r, b, a in rows if g in ("ALL", r)]
        if not sel:
            continue
        lines.append(
            f"| {g} | {len(sel)} | {mean([b.recall5 for b, _ in sel]):.3f} | "
            f"{mean([a.recall5 for _, a in sel]):.3f} | {mean([b.recall10 for b, _ in sel]):.3f} | "
            f"{mean([a.recall10 for _, a in sel]):.3f} | {mean([b.rr for b, _ in sel]):.3f} | "
            f"{mean([a.rr for _, a in sel]):.3f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
