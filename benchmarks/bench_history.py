"""Quality on a repository's own history: its commits as tasks, the files they changed as answers.

    python benchmarks/bench_history.py [--repo DIR ...] [--limit 40] [--until REV] [--json]
                                       [--zero-weights] [--bm25]

Mines each repository (this one by default; `--repo` again for more, bare mirrors included)
the way the quality guard in tests/test_quality_guard.py does, then ranks each task at the
commit's parent:
  task    the commit's whole message;
  answer  the code files it modified (1-6 of them; added files cannot be found at the parent);
  skipped merges, commits whose message names one of its files (the answer would be given
          away), and commits touching more than 6 code files.
One clone (sharing the objects) walks the commits oldest first, so each step re-indexes only
what the previous commit changed. Prints file MRR, Recall@1 and Recall@5 over the tasks, a row
per repository with its main language, and the graphiq-ci commit that ranked. `--bm25` ranks
the same tasks with the shared benchmark's whole-file BM25 in the same run (any repository's
history, in any language graphiq-ci parses or holds as source text, against the baseline:
the development splits cover seven languages). `--zero-weights` sets every ranking weight
to 0: the guard's proof that the floor catches a broken ranking.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # _common, for --bm25
from history_code import BUDGETS, CodeScores, changed_lines, gold_symbols, score  # noqa: E402

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
    """Source code: a language graphiq-ci parses, or one it holds at file level (Swift,
    Elixir, …; `LanguageSpec.source`), never markup or configuration."""
    from graphiq_ci.lang.registry import detect_language, plugin_for

    language = detect_language(path)
    return language is not None and plugin_for(language).is_code


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


def context_of(root: Path, task: str, zero_weights: bool) -> Any:
    """graphiq-ci's context for `task` at `root` (its files rank; its code is scored)."""
    from graphiq_ci.context import Options, build_context
    from graphiq_ci.context.files import FILE_WEIGHTS
    from graphiq_ci.search.weights import FEATURES

    weights = tuple((k, 0.0) for k in FEATURES) if zero_weights else ()
    if zero_weights:  # the file ranker's own weights are not configurable: zero them here
        FILE_WEIGHTS.update(dict.fromkeys(FILE_WEIGHTS, 0.0))
    return build_context(root, task, Options(weights=weights))


@cache
def _bm25_peer() -> ModuleType:
    """`peers/bm25_files.py` of the shared benchmark, loaded once for every task."""
    import _common as C

    return C.load_bench_module("peers/bm25_files")


def bm25_ranking(root: Path, task: str) -> list[str]:
    """The baseline: the benchmark's BM25 over whole files (`peers/bm25_files.py`'s tokenizer
    and scoring, from ../shared/bench) over the code files graphiq-ci indexes, so a language
    the peer's own extension list leaves out (PHP, C#, Kotlin) is still ranked."""
    peer = _bm25_peer()
    files = [p for p in _git(root, "ls-files", "-z").split("\0") if p and _is_code(p)]
    kept, docs = [], []
    for rel in files:
        text = peer.read_text(str(root), rel)
        if text is not None:
            kept.append(rel)
            docs.append(peer.tokenize(text) + peer.tokenize(rel.replace("/", " ")) * 2)
    query = peer.query_tokens(task)
    if not kept or not query:
        return []
    scores = peer.bm25_scores(docs, query)
    return [kept[i] for i in sorted(range(len(kept)), key=lambda i: (-scores[i], kept[i]))]


@dataclass
class Scores:
    """One method's reciprocal ranks and recalls, a value per task."""

    rr: list[float] = field(default_factory=list)
    r1: list[float] = field(default_factory=list)
    r5: list[float] = field(default_factory=list)

    def add(self, ranked: list[str], gold: tuple[str, ...]) -> None:
        ranks = [ranked.index(p) + 1 for p in gold if p in ranked]
        self.rr.append(1 / min(ranks) if ranks else 0.0)
        self.r1.append(sum(p in ranked[:1] for p in gold) / len(gold))
        self.r5.append(sum(p in ranked[:5] for p in gold) / len(gold))

    def summary(self) -> dict[str, float]:
        def mean(values: list[float]) -> float:
            return round(sum(values) / len(values), 3) if values else 0.0

        return {"mrr": mean(self.rr), "recall_at_1": mean(self.r1), "recall_at_5": mean(self.r5)}


def measure(repo: Path, limit: int, until: str = "HEAD", zero_weights: bool = False,
            bm25: bool = False, code: bool = False) -> dict[str, object]:
    from graphiq_ci.paths import is_test_path

    tasks = mine(repo, limit, until)
    ours, baseline = Scores(), Scores()
    code_ours, code_packer = CodeScores(), CodeScores()
    with tempfile.TemporaryDirectory(prefix="graphiq-history-") as tmp:
        wt = Path(tmp) / "clone"  # a clone sharing the objects: the repository is not touched
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(wt)],
                       check=True, capture_output=True)
        for t in tasks:
            _git(wt, "checkout", "-q", "--detach", t.parent)
            ctx = context_of(wt, t.message, zero_weights)
            ours.add([f.path for f in ctx.files], t.gold)
            if bm25:
                baseline.add(bm25_ranking(wt, t.message), t.gold)
            if code:
                source = [p for p in t.gold if not is_test_path(p)]
                gold = gold_symbols(wt, changed_lines(wt, t.parent, t.commit, source))
                if gold:
                    score(ctx, wt, t.message, gold, code_ours, code_packer, Path(tmp))
    # the graphiq-ci commit that ranked: this project's, whatever repository was measured
    project = Path(__file__).resolve().parent.parent
    return {"repo": str(repo), "commit": _git(project, "rev-parse", "--short", "HEAD").strip(),
            "history_until": _git(repo, "rev-parse", "--short", until).strip(),
            "tasks": len(tasks), "zero_weights": zero_weights, **ours.summary(),
            **({"bm25": baseline.summary()} if bm25 else {}),
            **({"code": code_ours.summary(), "code_packer": code_packer.summary()}
               if code else {})}


def _language(repo: Path, until: str) -> str:
    """The repository's main language: the one most of its code files at `until` are in."""
    from collections import Counter

    from graphiq_ci.lang.registry import detect_language

    files = _git(repo, "ls-tree", "-r", "--name-only", until).splitlines()
    counts = Counter(detect_language(p) for p in files if _is_code(p))
    return (counts.most_common(1)[0][0] or "-") if counts else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", type=Path, action="append",
                    help="a repository (a bare mirror is fine); repeat for several: one row "
                    "each (default: this one)")
    ap.add_argument("--limit", type=int, default=40, help="newest usable commits to rank")
    ap.add_argument("--until", default="HEAD", help="the newest commit to mine (the guard "
                    "pins one, so its task set does not move as history grows)")
    ap.add_argument("--json", action="store_true", help="print one JSON object per repository")
    ap.add_argument("--zero-weights", action="store_true", help="rank with every weight 0")
    ap.add_argument("--bm25", action="store_true", help="rank with the benchmark's whole-file "
                    "BM25 too, in the same run (needs ../shared/bench)")
    ap.add_argument("--code", action="store_true", help="also score the code each prompt "
                    "shows (CodeR, Full at 2000 and 8000 tokens) against the BM25 chunk packer, "
                    "in the same run (needs ../shared/bench; history_code.py)")
    args = ap.parse_args()
    repos = args.repo or [Path(__file__).resolve().parent.parent]
    rows = []
    for repo in repos:
        result = measure(repo.resolve(), args.limit, args.until, args.zero_weights, args.bm25,
                         args.code)
        if args.json:
            print(json.dumps(result))
        rows.append((repo, result))
    if args.json:
        return 0
    print(f"History benchmark: each repository's newest {args.limit} usable commits up to "
          f"{args.until}, ranked by graphiq-ci {rows[0][1]['commit']}"
          f"{' (all weights 0)' if args.zero_weights else ''}\n")
    head = "| repository | up to | language | commits | MRR | R@1 | R@5 |"
    if args.bm25:
        head += " BM25 MRR | BM25 R@1 | BM25 R@5 | MRR ratio |"
    print(head + "\n|" + "---|" * (head.count("|") - 1))
    for repo, r in rows:
        line = (f"| {repo.name if repo.name not in ('repo', '.git') else repo.parent.name} | "
                f"{r['history_until']} | {_language(repo, args.until)} | {r['tasks']} | "
                f"{r['mrr']} | {r['recall_at_1']} | {r['recall_at_5']} |")
        if args.bm25:
            b: dict[str, float] = r["bm25"]  # type: ignore[assignment]
            ratio = f"{r['mrr'] / b['mrr']:.2f}×" if b["mrr"] else "-"  # type: ignore[operator]
            line += f" {b['mrr']} | {b['recall_at_1']} | {b['recall_at_5']} | {ratio} |"
        print(line)
    if args.code:
        _print_code(rows, args.until)
    return 0


def _print_code(rows: list[tuple[Path, dict[str, Any]]], until: str) -> None:
    """The code table: graphiq-ci's prompt, then the packer's, per budget, and the two symbol
    lists' Symbol Recall@20; the packer's cells are `-` for a language its extension list
    leaves out (it shows none of its code)."""
    import _common as C

    from graphiq_ci.lang.registry import plugin_for

    packed = C.load_bench_module("peers/common").SOURCE_EXT
    cols = [f"{m} {b}" for b in BUDGETS for m in ("CodeR", "Full")] + ["SymR@20"]
    head = ("\n| repository | tasks with gold code | "
            + " | ".join(f"{c} | packer {c}" for c in cols) + " |")
    print(head + "\n|" + "---|" * (head.count("|") - 1))
    for repo, r in rows:
        ours, packer = r["code"], r["code_packer"]
        language = _language(repo, until)
        covered = language != "-" and bool(set(plugin_for(language).extensions) & packed)
        name = repo.name if repo.name not in ("repo", ".git") else repo.parent.name
        cells = [f"{ours[k]} | {packer[k] if covered else '-'}"
                 for k in [f"{m}_{b}" for b in BUDGETS for m in ("code_r", "full")] + ["sym_r_20"]]
        print(f"| {name} | {ours['code_tasks']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
