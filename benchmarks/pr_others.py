"""The PR's other files: with only its main file changed, does the comment point at the rest?

A question a diff cannot answer for a reviewer: "what else usually has to change with this?"
For a task whose PR modified two or more source files, a branch at the base gets only the one
the PR changed most (its `main` file, dated as the PR), and the comment's data is asked
(`graphiq-ci context --base base --format json`, the task text included). Its answer is
scored against the PR's other modified source files, the ones a branch with only the main
change has forgotten:

  co-change   the comment's co-change list ("changed with `a.py` in 7 of 9 commits")
  impact      the files of its impact section (callers, callees, sub- and supertypes)
  either      the two together: what the comment names as likely to need a look
  top files   the first RANKED_FILES of its ranked files that the branch did not change (the
              ranking weighs the task's words, impact and co-change together)
  imports     baseline: the files importing the main file or imported by it (the index's
              import edges), what a tool without history or calls would list
  directory   baseline: the other source files in the main file's directory

Recall is per task, averaged; precision over the tasks where the method named any file.
Files the PR added are left out of the answer (nothing at the base can point at them), and
so are test files (bench_pr_review.py scores those separately).
"""

from __future__ import annotations

import posixpath
import sqlite3
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

OTHER_METHODS = ("co-change", "impact", "either", "top files", "imports", "directory")
#: the comment's "files most likely involved" line names five
RANKED_FILES = 5


def main_file(modified: list[str], numstat: str) -> tuple[str, list[str]] | None:
    """The modified source file with the most changed lines (`git diff --numstat` output;
    ties by path) and the rest, or None when the PR modified fewer than two."""
    changed: dict[str, int] = {}
    for line in numstat.splitlines():
        added, deleted, path = (line.split("\t") + ["", "", ""])[:3]
        if path in modified and added.isdigit() and deleted.isdigit():
            changed[path] = int(added) + int(deleted)
    if len(changed) < 2:
        return None
    main = min(changed, key=lambda p: (-changed[p], p))
    return main, sorted(p for p in changed if p != main)


def named_by_comment(data: dict[str, Any]) -> dict[str, set[str]]:
    """The files the comment's JSON names, per method of the comment."""
    by_id = {s["id"]: s["file"] for s in data.get("symbols", [])}
    changed = {c["path"] for c in data.get("changed_files", [])}
    cochange = {c["path"] for c in data.get("cochanged", [])}
    impact = {by_id[i] for i in data.get("sections", {}).get("impact", []) if i in by_id}
    impact -= changed
    ranked = [f["path"] for f in data.get("files", []) if f["path"] not in changed]
    return {"co-change": cochange, "impact": impact, "either": cochange | impact,
            "top files": set(ranked[:RANKED_FILES])}


def import_pairs(db: Path, paths: list[str]) -> list[tuple[str, str]]:
    """(importing file, imported file) for each import edge the index recorded with one of
    `paths` at either end."""
    marks = ",".join("?" * len(paths))
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT DISTINCT fa.path, fb.path FROM edges e JOIN symbols a ON a.id = e.src_id "
            "JOIN files fa ON fa.id = a.file_id JOIN symbols b ON b.id = e.dst_id "
            "JOIN files fb ON fb.id = b.file_id WHERE e.kind = 'imports' "
            f"AND (fa.path IN ({marks}) OR fb.path IN ({marks}))", [*paths, *paths]).fetchall()
    finally:
        conn.close()


def import_neighbours(db: Path, path: str) -> set[str]:
    """Files that import `path`, or that `path` imports, as the index recorded them."""
    return {p for pair in import_pairs(db, [path]) for p in pair} - {path}


def same_directory(files: list[str], path: str) -> set[str]:
    """The other files of `files` in `path`'s directory."""
    home = posixpath.dirname(path)
    return {p for p in files if p != path and posixpath.dirname(p) == home}


def score_others(found: dict[str, set[str]], others: list[str],
                 keep: Callable[[str], bool]) -> dict[str, tuple[float, float | None]]:
    """Per method: (recall of `others`, precision over the source files it named)."""
    gold = set(others)
    out = {}
    for method in OTHER_METHODS:
        named = {p for p in found.get(method, set()) if keep(p)}
        hit = len(named & gold)
        out[method] = (hit / len(gold), hit / len(named) if named else None)
    return out


def others_table(rows: list[tuple[str, dict[str, tuple[float, float | None]]]]) -> str:
    """One line per repository (and ALL): tasks, then recall and precision per method."""
    lines = ["| repository | tasks | " + " | ".join(f"{m} recall | {m} precision"
                                                   for m in OTHER_METHODS) + " |",
             "|---|---|" + "---|---|" * len(OTHER_METHODS)]
    for group in ["ALL", *sorted({repo for repo, _ in rows})]:
        sel = [scores for repo, scores in rows if group in ("ALL", repo)]
        cells = []
        for m in OTHER_METHODS:
            precisions = [p for p in (s[m][1] for s in sel) if p is not None]
            cells.append(f"{statistics.mean(s[m][0] for s in sel):.2f} | "
                         + (f"{statistics.mean(precisions):.2f}" if precisions else "-"))
        lines.append(f"| {group} | {len(sel)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
