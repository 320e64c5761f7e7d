"""PR-review benchmark: does the comment name the tests, callers and lines a reviewer needs?

    python benchmarks/bench_pr_review.py [--tasks FILE] [--split dev] [--limit N] [--repo R]

Tasks are real merged PRs that changed source and tests, in the shared task format plus
`test_files` (the test files the PR changed). Without --tasks they are mined from the split's
tasks (../shared/bench/tasks/<split>.jsonl): `git diff --name-only base commit` on the mirror,
keeping PRs that changed at least one source file and at least one test file that existed at
the base (a test the PR adds cannot be predicted by anyone). Any task file in that format
works, from any repository with a mirror.

For each task: a branch at the base commit gets the PR's source change (not its tests),
committed with the PR's own author date so recency is what it was. Then, in one run:

  affected      `graphiq-ci affected --base base --format json`: its test files
  convention    test files named after a changed file (test_x.py, x_test.go, XTest.java, …)
  imports       every test file whose index entry imports a changed file
  comment       `graphiq-ci context --base base` (the PR comment) and its JSON

and scores test-file recall and precision against `test_files` for the three; for the comment, the
share of changed functions with callers elsewhere (their name followed by `(` on a non-test source
line that is neither a comment nor a definition of that name, in any file: a name match, so
`self.f()` in a sibling class or `super().f()` counts too) for which it names a call site, the share
of the PR's added source lines it shows, and its size. For a PR that modified two or more source
files, a second branch holds only the one it changed most, and the comment is scored on naming the
others (co-change and impact, against import and same-directory baselines: pr_others.py). A whole
split's run (no --tasks, --limit or --repo) also puts its report into
benchmarks/results/pr-review-summary.md, where each split's report names the commit it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import sqlite3
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402
from pr_others import (  # noqa: E402
    import_neighbours,
    import_pairs,
    main_file,
    named_by_comment,
    others_table,
    same_directory,
    score_others,
)

from graphiq_ci.paths import is_test_path  # noqa: E402

BRANCH = "graphiq-bench-review"
CODE_EXT = {".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".go", ".rs", ".java", ".kt", ".c",
            ".h", ".cc", ".cpp", ".hpp", ".rb", ".php", ".cs"}
_AFFIX = re.compile(r"^(test_|tests?_)|(_test|_tests|Tests?|\.test|\.spec|_spec)$")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def is_code(path: str) -> bool:
    return posixpath.splitext(path)[1] in CODE_EXT


def mine(tasks: list[dict]) -> list[dict]:
    """The tasks whose PR changed source code and a test file that existed at the base."""
    out = []
    for t in tasks:
        mirror = C.mirror(t["repo"])
        git_dir = f"--git-dir={mirror}"
        changed = _git(git_dir, "diff", "--name-only", "--no-renames", t["base_commit"],
                       t["commit"]).split()
        at_base = set(_git(git_dir, "ls-tree", "-r", "--name-only", t["base_commit"]).split("\n"))
        tests = sorted(p for p in changed if is_test_path(p) and is_code(p) and p in at_base)
        source = sorted(p for p in changed if is_code(p) and not is_test_path(p))
        if tests and source:
            out.append({**t, "test_files": tests, "source_files": source})
    return out


def apply_source_change(repo: Path, t: dict, paths: list[str] | None = None) -> None:
    """A branch at the base holding the PR's source files (not its tests), or only `paths`
    of them, dated as the PR."""
    paths = t["source_files"] if paths is None else paths
    _git("-C", str(repo), "checkout", "-q", "-B", BRANCH, "base")
    for path in paths:
        target = repo / path
        try:
            data = subprocess.run(["git", "-C", str(repo), "show", f"{t['commit']}:{path}"],
                                  capture_output=True, check=True).stdout
        except subprocess.CalledProcessError:  # deleted by the PR
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    date = _git("-C", str(repo), "log", "-1", "--format=%aI", t["commit"]).strip()
    _git("-C", str(repo), "add", "-A", "--", *paths)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=bench",
                    "-c", "user.email=bench@localhost", "commit", "-q", "--no-verify", "-m",
                    t["task"][:200] or "the PR's source change"], check=True,
                   capture_output=True, env={**os.environ, "GIT_AUTHOR_DATE": date,
                                             "GIT_COMMITTER_DATE": date})


def restore(repo: Path) -> None:
    """The checkout as it was found, its index included: the other benchmarks read it."""
    _git("-C", str(repo), "checkout", "-q", "-f", "base")
    _git("-C", str(repo), "branch", "-q", "-D", BRANCH)
    graphiq(repo, "index")


def graphiq(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([C.graphiq_exe(), *args, "--repo", str(repo)], capture_output=True,
                          text=True, timeout=600)


def by_convention(repo: Path, source: list[str]) -> set[str]:
    """Test files whose name, without test affixes, is a changed file's name."""
    stems = {posixpath.splitext(posixpath.basename(p))[0].lower() for p in source}
    tests = [p for p in _git("-C", str(repo), "ls-files").split("\n")
             if is_test_path(p) and is_code(p)]
    return {p for p in tests
            if _AFFIX.sub("", posixpath.splitext(posixpath.basename(p))[0]).lower() in stems}


def by_imports(repo: Path, source: list[str]) -> set[str]:
    """Test files the index says import one of the changed files."""
    pairs = import_pairs(repo / ".graphiq" / "graphiq.db", source)
    return {a for a, b in pairs if b in source and is_test_path(a)}


@dataclass
class Row:
    id: str
    repo: str
    found: dict[str, set[str]] = field(default_factory=dict)
    gold: set[str] = field(default_factory=set)
    callers_named: tuple[int, int] = (0, 0)  # (named, changed functions with callers elsewhere)
    lines_shown: tuple[int, int] = (0, 0)  # (shown, added source lines)
    comment_tokens: int = 0
    missed: list[str] = field(default_factory=list)  # changed functions called, no call site
    others: dict[str, tuple[float, float | None]] | None = None  # see pr_others.py
    #: definitions the comment lists as removed; the references it says are left to them;
    #: of those, the ones in a test file the PR changed (its tests are not on the branch)
    removed: tuple[int, int, int] = (0, 0, 0)


def called_elsewhere(repo: Path, name: str, definitions: set[tuple[str, int]]) -> bool:
    """Ground truth from the text: `name(` on a source line that is not a comment and where no
    definition of that name starts (the index only says where definitions are, never what
    calls what)."""
    if len(name) < 4:
        return False
    out = subprocess.run(["git", "-C", str(repo), "grep", "-n", "-E",
                          rf"\b{re.escape(name)}\s*\(", "--", "."], capture_output=True,
                         text=True)
    for hit in out.stdout.split("\n"):
        path, _, rest = hit.partition(":")
        line, _, text = rest.partition(":")
        if path and is_code(path) and not is_test_path(path) and line.isdigit() and (
                path, int(line)) not in definitions and not _COMMENT.match(text):
            return True
    return False


#: a line that is a comment (`# x(`, `// x(`, ` * {@link #x(…)}`): a mention, not a call
_COMMENT = re.compile(r"\s*(#|//|/\*|\*|--)")


def definition_lines(repo: Path, name: str) -> set[tuple[str, int]]:
    conn = sqlite3.connect(f"file:{repo / '.graphiq' / 'graphiq.db'}?mode=ro", uri=True)
    try:
        return set(conn.execute("SELECT f.path, s.line FROM symbols s JOIN files f ON "
                                "f.id = s.file_id WHERE s.name = ?", (name,)))
    finally:
        conn.close()


def score_comment(repo: Path, t: dict, data: dict, comment: str,
                  missed: list[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Callers named and added lines shown; `missed` gets each changed function that is called
    elsewhere but for which the comment names no call site, as `path:line kind name`."""
    by_id = {s["id"]: s for s in data["symbols"]}
    named = wanted = 0
    for change in data.get("changes", []):
        sym = by_id.get(change["id"])
        if sym is None or sym["kind"] not in ("function", "method", "constructor"):
            continue
        if called_elsewhere(repo, sym["name"], definition_lines(repo, sym["name"])):
            wanted += 1
            # the ground truth is non-test lines: a test's call site (listed when the
            # signature changed) does not count
            sites = [s for s in change["call_sites"] if not s.get("test")]
            named += bool(sites)
            if not sites:
                missed.append(f"{sym['file']}:{sym['line']} {sym['kind']} {sym['qualified']}")
    diff = _git("-C", str(repo), "diff", "-U0", "base", BRANCH, "--", *t["source_files"])
    added = [ln[1:].strip() for ln in diff.split("\n")
             if ln.startswith("+") and not ln.startswith("+++") and len(ln[1:].strip()) > 3]
    shown_text = {ln.strip() for ln in comment.split("\n")}
    return (named, wanted), (sum(1 for ln in added if ln in shown_text), len(added))


def score_removed(data: dict, test_files: set[str]) -> tuple[int, int, int]:
    """The removed definitions the comment lists, the references left to them it names, and
    how many of those are in a test file the PR changed. The branch holds the PR's source but
    not its tests, so a test the PR had to edit still names what the PR removed; a reference
    anywhere else is one the merged PR kept, which cannot have been broken: a false alarm."""
    sites = [s for r in data.get("removed", []) for s in r["left_behind"]]
    return (len(data.get("removed", [])), len(sites),
            sum(s["file"] in test_files for s in sites))


def run_task(t: dict) -> Row | str:
    ev = C.load_bench_module("eval")
    repo = Path(ev.materialise(t["repo"], t["base_commit"], str(C.mirror(t["repo"])))[0])
    try:
        apply_source_change(repo, t)
        row = Row(t["id"], t["repo"], gold=set(t["test_files"]))
        aff = graphiq(repo, "affected", "--base", "base", "--format", "json")
        if aff.returncode != 0:
            return f"affected failed: {aff.stderr.strip()[-200:]}"
        row.found["affected"] = {f["path"] for f in json.loads(aff.stdout)["files"]}
        row.found["convention"] = by_convention(repo, t["source_files"])
        row.found["imports"] = by_imports(repo, t["source_files"])
        task_file = C.WORK / "pr-review" / f"{t['id']}.txt"
        task_file.parent.mkdir(parents=True, exist_ok=True)
        task_file.write_text(t["task"], encoding="utf-8")
        md = graphiq(repo, "context", "--base", "base", "--task-file", str(task_file))
        js = graphiq(repo, "context", "--base", "base", "--task-file", str(task_file),
                     "--format", "json")
        if md.returncode != 0 or js.returncode != 0:
            return f"context failed: {(md.stderr or js.stderr).strip()[-200:]}"
        data = json.loads(js.stdout)
        row.callers_named, row.lines_shown = score_comment(repo, t, data, md.stdout, row.missed)
        row.removed = score_removed(data, set(t["test_files"]))
        row.comment_tokens = len(md.stdout) // 4
        row.others = other_files(repo, t, task_file)
        return row
    finally:
        restore(repo)


def other_files(repo: Path, t: dict, task_file: Path
                ) -> dict[str, tuple[float, float | None]] | None:
    """With only the PR's main source file changed, the comment's pointers to its other
    modified source files, and the two baselines' (pr_others.py); None for a one-file PR."""
    numstat = _git("-C", str(repo), "diff", "--numstat", "--no-renames", "--diff-filter=M",
                   t["base_commit"], t["commit"], "--", *t["source_files"])
    split = main_file(t["source_files"], numstat)
    if split is None:
        return None
    main, others = split
    apply_source_change(repo, t, [main])
    js = graphiq(repo, "context", "--base", "base", "--task-file", str(task_file),
                 "--format", "json")
    if js.returncode != 0:
        raise ValueError(f"context failed: {js.stderr.strip()[-200:]}")
    found = named_by_comment(json.loads(js.stdout))
    found["imports"] = import_neighbours(repo / ".graphiq" / "graphiq.db", main)
    files = _git("-C", str(repo), "ls-files").split("\n")
    found["directory"] = same_directory(files, main)
    return score_others(found, others, lambda p: is_code(p) and not is_test_path(p))


METHODS = ("affected", "convention", "imports")
#: a whole run's report per split (no --tasks, --limit or --repo), for the README's figures
SUMMARY = Path(__file__).resolve().parent / "results" / "pr-review-summary.md"


def table(rows: list[Row]) -> str:
    def pr(found: set[str], gold: set[str]) -> tuple[float, float | None]:
        hit = len(found & gold)
        return hit / len(gold), (hit / len(found) if found else None)

    lines = ["| repository | tasks | " + " | ".join(f"{m} recall | {m} precision" for m in METHODS)
             + " | callers named | added lines shown | comment tokens (median) |",
             "|---|---|" + "---|---|" * len(METHODS) + "---|---|---|"]
    for group in ["ALL", *sorted({r.repo for r in rows})]:
        sel = [r for r in rows if group in ("ALL", r.repo)]
        cells = []
        for m in METHODS:
            scores = [pr(r.found[m], r.gold) for r in sel]
            precisions = [p for _, p in scores if p is not None]
            cells.append(f"{statistics.mean(r for r, _ in scores):.2f} | "
                         + (f"{statistics.mean(precisions):.2f}" if precisions else "-"))
        named = sum(r.callers_named[0] for r in sel), sum(r.callers_named[1] for r in sel)
        shown = sum(r.lines_shown[0] for r in sel), sum(r.lines_shown[1] for r in sel)
        lines.append(f"| {group} | {len(sel)} | " + " | ".join(cells)
                     + f" | {named[0]}/{named[1]} ({named[0] / max(named[1], 1):.0%})"
                     + f" | {shown[0] / max(shown[1], 1):.0%}"
                     + f" | {statistics.median(r.comment_tokens for r in sel):.0f} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=Path, help="a task file with test_files (default: mined)")
    ap.add_argument("--split", default="dev", help="the split to mine when --tasks is not given")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--repo", action="append")
    args = ap.parse_args()
    if args.tasks:
        tasks = [json.loads(line) for line in args.tasks.open() if line.strip()]
    else:
        source = C.BENCH_DIR / "tasks" / f"{args.split}.jsonl"
        tasks = mine([json.loads(line) for line in source.open() if line.strip()])
        mined = C.WORK / f"pr-review-{args.split}.jsonl"
        mined.parent.mkdir(parents=True, exist_ok=True)  # a fresh BENCH_WORK
        mined.write_text("".join(json.dumps(t) + "\n" for t in tasks))
        print(f"mined {len(tasks)} tasks from {source} into {mined}", file=sys.stderr)
    tasks = [t for t in tasks if not args.repo or t["repo"] in args.repo][: args.limit]
    rows: list[Row] = []
    for n, t in enumerate(tasks, 1):
        try:
            got = run_task(t)
        except (subprocess.SubprocessError, OSError, ValueError, KeyError) as exc:
            got = f"error {exc}"
        if isinstance(got, str):
            print(f"[{n}/{len(tasks)}] {t['id']}: {got}", file=sys.stderr)
            continue
        rows.append(got)
        print(f"[{n}/{len(tasks)}] {t['id']:<28} affected {len(got.found['affected'] & got.gold)}"
              f"/{len(got.gold)} of {len(got.found['affected'])}; callers named "
              f"{got.callers_named[0]}/{got.callers_named[1]}", file=sys.stderr)
        if got.removed[0]:
            print(f"    removed: {got.removed[0]} definitions, {got.removed[1]} references left,"
                  f" {got.removed[2]} in the PR's test files", file=sys.stderr)
        for miss in got.missed:
            print(f"    no caller named: {miss}", file=sys.stderr)
    report = (f"PR review: graphiq-ci {git_describe()}; {len(rows)} of {len(tasks)} tasks "
              f"({args.tasks or args.split}); {C.hardware_note()}.\n\n{table(rows)}\n\n"
              "Recall and precision are per task, averaged (precision over tasks where the "
              "method named any test file). Callers named: of the changed functions whose "
              "name is called (`name(` on a source line, not a comment, where no definition "
              "starts), those for which the comment's JSON lists a call site. Added lines "
              "shown: the PR's added source lines (over 3 characters) that appear verbatim in "
              "the comment.\n")
    gone = [sum(r.removed[k] for r in rows) for k in range(3)]
    report += (f"\nRemoved definitions: the comments list {gone[0]} in "
               f"{sum(bool(r.removed[0]) for r in rows)} tasks, and {gone[1]} references left "
               f"to them, {gone[2]} of which are in a test file the PR changed (its tests are "
               "not on the branch: a test the PR had to edit still names what it removed; a "
               "reference elsewhere the merged PR kept, a false alarm).\n")
    with_others = [(r.repo, r.others) for r in rows if r.others]
    if with_others:
        report += (f"\nThe PR's other files: {len(with_others)} tasks whose PR modified two or "
                   "more source files; the branch holds only the one it changed most.\n\n"
                   f"{others_table(with_others)}\n\nRecall of the PR's other modified source "
                   "files, per task, averaged; precision over the tasks where the method named "
                   "any source file. co-change and impact are the comment's own lists; imports "
                   "and directory are baselines (benchmarks/pr_others.py).\n")
    print(report, end="")
    if not (args.tasks or args.limit or args.repo):
        write_summary(args.split, report)
    return 0


def write_summary(split: str, report: str) -> None:
    """Put a whole split's report into SUMMARY in place of that split's previous one, the
    other splits' reports kept, in split order: the file records the commit each measured."""
    reports: dict[str, str] = {}
    if SUMMARY.exists():
        for part in SUMMARY.read_text(encoding="utf-8").split("PR review: ")[1:]:
            found = re.search(r"tasks \((\w+)\)", part)
            if found:
                reports[found.group(1)] = "PR review: " + part.rstrip("\n") + "\n"
    reports[split] = report
    SUMMARY.write_text("\n".join(reports[k] for k in sorted(reports)), encoding="utf-8")
    print(f"wrote {SUMMARY}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
