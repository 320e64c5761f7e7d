"""Removed definitions: does the PR comment name the code a removal leaves behind?

    python benchmarks/bench_removed.py [--repo OWNER/NAME ...] [--commits N] [--cases N]

Cases are mined from the history of each split repository's mirror, newest first: a commit
that removes a definition from one source file (its qualified name gone from every file the
commit changed; graphiq-ci's own extractor reads both sides) and changes other source files
too. A clone at the commit's parent gets a branch holding only that file's new version, the
author's first step; `graphiq-ci context --base` then lists the removed definitions and the
references left to them. The commit's other changed files are where the author followed up:

  precision  of the references the comment lists, those in a file the commit changed
             (elsewhere the commit kept the reference, so it cannot have been broken)
  recall     of the commit's other files whose text names a removed definition (its name as
             a whole word) fewer times after the commit than before, those the comment
             lists a reference in

Prints a table per repository and the commit it measured.
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402

from graphiq_ci.lang.extract import extract  # noqa: E402
from graphiq_ci.lang.registry import detect_language, plugin_for  # noqa: E402
from graphiq_ci.model import Kind  # noqa: E402

REPOS = ["colinhacks/zod", "expressjs/express", "fastapi/typer", "psf/requests",
         "charmbracelet/bubbletea", "google/auto", "jhy/jsoup", "jqlang/jq", "junegunn/fzf",
         "serde-rs/serde", "tokio-rs/axum"]
BRANCH = "graphiq-bench-removed"


def _git(repo: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=check, errors="replace").stdout


def _definitions(path: str, text: str) -> dict[str, str]:
    """qualified name -> name of each definition in `text` (none for an unknown language)."""
    language = detect_language(path)
    spec = plugin_for(language) if language else None
    if spec is None or not spec.grammar:
        return {}
    try:
        parsed = extract(spec, path, text.encode("utf-8", "replace"))
    except Exception:  # noqa: BLE001 - a file the parser cannot read: no case
        return {}
    return {s.qualified: s.name for s in parsed.symbols if s.kind is not Kind.FILE}


def mine(repo: Path, commits: int, cases: int) -> list[dict]:
    """Commits removing a definition from one file while changing other source files."""
    found = []
    # the mirror's default branch: the clone's HEAD is wherever the last run left it
    log = _git(repo, "log", "--no-merges", "--format=%H", "-n", str(commits), "origin/HEAD")
    for sha in log.split():
        rows = [r.split("\t") for r in _git(repo, "diff", "--numstat", "--no-renames",
                                             f"{sha}^", sha, check=False).splitlines()]
        files = {r[2]: int(r[1]) for r in rows if len(r) == 3 and r[1].isdigit()
                 and detect_language(r[2]) and plugin_for(detect_language(r[2]) or "").grammar}
        if len(files) < 2 or len(files) > 20:
            continue
        after = {p: _git(repo, "show", f"{sha}:{p}", check=False) for p in files}
        defined = set().union(*(_definitions(p, t) for p, t in after.items()))
        for path, deleted in sorted(files.items(), key=lambda f: -f[1]):
            if deleted < 2:
                continue
            before = _definitions(path, _git(repo, "show", f"{sha}^:{path}", check=False))
            gone = {q: n for q, n in before.items() if q not in defined and len(n) >= 3}
            if gone:
                found.append({"commit": sha, "file": path, "others": sorted(set(files) - {path}),
                              "names": sorted(set(gone.values()))})
                break
        if len(found) == cases:
            break
    return found


def _mentions(repo: Path, rev: str, path: str, names: list[str]) -> int:
    text = _git(repo, "show", f"{rev}:{path}", check=False)
    return sum(len(re.findall(rf"\b{re.escape(n)}\b", text)) for n in names)


def run_case(repo: Path, case: dict) -> tuple[int, int, int, int] | str:
    """(references listed, of them in a file the commit changed, files to find, found)."""
    sha = case["commit"]
    _git(repo, "checkout", "-q", "-f", f"{sha}^")
    _git(repo, "branch", "-f", "base", f"{sha}^")
    _git(repo, "checkout", "-q", "-B", BRANCH)
    if subprocess.run(["git", "-C", str(repo), "cat-file", "-e", f"{sha}:{case['file']}"],
                      capture_output=True).returncode == 0:
        _git(repo, "checkout", sha, "--", case["file"])
    else:  # the commit deleted the file
        _git(repo, "rm", "-q", case["file"])
    _git(repo, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-q",
         "-m", "the removal")
    out = subprocess.run([C.graphiq_exe(), "context", "--base", "base", "--format", "json",
                          "--repo", str(repo)], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        return f"context failed: {out.stderr.strip()[-200:]}"
    sites = [s for r in json.loads(out.stdout).get("removed", []) for s in r["left_behind"]]
    changed = set(case["others"])
    wanted = {p for p in case["others"] if _mentions(repo, f"{sha}^", p, case["names"])
              > _mentions(repo, sha, p, case["names"])}
    listed = {s["file"] for s in sites}
    return (len(sites), sum(s["file"] in changed for s in sites), len(wanted),
            len(wanted & listed))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", action="append", help="owner/name (default: every split repo)")
    ap.add_argument("--commits", type=int, default=300, help="commits scanned per repository")
    ap.add_argument("--cases", type=int, default=10, help="cases kept per repository")
    args = ap.parse_args()
    rows = []
    for name in args.repo or REPOS:
        clone = C.WORK / "removed" / name.replace("/", "+")
        if not clone.exists():
            clone.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["git", "clone", "-q", str(C.mirror(name)), str(clone)], check=True)
        cases = mine(clone, args.commits, args.cases)
        totals = [0, 0, 0, 0]
        for case in cases:
            try:
                got = run_case(clone, case)
            except (subprocess.SubprocessError, OSError, ValueError) as exc:
                got = f"error {exc}"
            if isinstance(got, str):
                print(f"  {name} {case['commit'][:10]}: {got}", file=sys.stderr)
                continue
            print(f"  {name} {case['commit'][:10]} {posixpath.basename(case['file'])} "
                  f"{','.join(case['names'][:3])}: listed {got[0]}, in the commit's files "
                  f"{got[1]}; files to find {got[2]}, found {got[3]}", file=sys.stderr)
            totals = [a + b for a, b in zip(totals, got, strict=True)]
        _git(clone, "checkout", "-q", "-f", "base", check=False)
        rows.append((name, len(cases), *totals))
    lines = [f"Removed definitions: graphiq-ci {git_describe()}; {C.hardware_note()}.", "",
             "| repository | cases | references listed | in the commit's files | precision "
             "| files to find | found | recall |",
             "|---|---|---|---|---|---|---|---|"]
    every = ["ALL", sum(r[1] for r in rows), *(sum(r[k] for r in rows) for k in range(2, 6))]
    for name, n, listed, right, want, hit in [*rows, tuple(every)]:
        precision = f"{right / listed:.2f}" if listed else "-"
        recall = f"{hit / want:.2f}" if want else "-"
        lines.append(f"| {name} | {n} | {listed} | {right} | {precision} | {want} | {hit} "
                     f"| {recall} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
