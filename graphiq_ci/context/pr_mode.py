"""PR mode: what changed, what depends on it, and what usually changes with it but did not.

The branch's changed symbols become entry points beside whatever the task text finds; their
callers (impact), callees and the tests that reach them are added under the same budgets.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from graphiq_ci.context.builder import Options, assemble
from graphiq_ci.context.change_report import changed_file_lines, symbol_changes
from graphiq_ci.context.code import lead_units, read_lines
from graphiq_ci.context.git_signals import (
    EVIDENCE_LIFT,
    EVIDENCE_LIMIT,
    WrittenWith,
    cochange_evidence,
    git_boosts,
    usual_rates,
    written_with,
)
from graphiq_ci.context.model import Context, ContextFile, ContextSymbol
from graphiq_ci.context.relations import incoming, named_after, named_after_phrase, reaching_tests
from graphiq_ci.context.removed import (
    Removal,
    gone_lines,
    references_left,
    removed_definitions,
    removed_symbols,
)
from graphiq_ci.context.spans import leading_start
from graphiq_ci.lang.registry import detect_language
from graphiq_ci.model import EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.search import GraphIndex
from graphiq_ci.search.graph import EDGE_KINDS
from graphiq_ci.search.weights import FEATURES
from graphiq_ci.store import Store
from graphiq_ci.vcs import BranchDiff, Hunk, changed_hunks, changed_symbols
from graphiq_ci.vcs.repo import TextAt

SECTION_SHARE = {"changed": 0.4, "impact": 0.25, "tests": 0.15}
#: test files listed only because their name follows what changed
MAX_NAMED_TESTS = 10
#: of which the tests edited with the changed definitions: each line of the comment's lists
#: takes room from a large PR's changed lines (google/auto's, on the PR benchmark)
MAX_WRITTEN_TESTS = 3
_IMPACT = frozenset(i for i, k in enumerate(EDGE_KINDS)
                    if k in (EdgeKind.CALLS, EdgeKind.REFERENCES, EdgeKind.EXTENDS,
                             EdgeKind.IMPLEMENTS))
_TESTS = frozenset(i for i, k in enumerate(EDGE_KINDS) if k is EdgeKind.TESTS)


class BranchChange(NamedTuple):
    """What a branch changed, as PR mode and `affected` read it."""

    hunks: dict[str, list[Hunk]]  # every changed file's, a deleted file's too
    removals: list[Removal]  # the definitions it removed (removed.py)
    changed: list[int]  # the changed symbols' positions, most-changed first
    changed_lines: dict[str, set[int]]  # per file, on the new side
    base: TextAt  # the files as the base has them


def branch_change(g: GraphIndex, root: Path, diff: BranchDiff) -> BranchChange:
    """The branch's hunks, the definitions it removed, and the symbols it changed: a removed
    definition's lines are no surviving definition's change."""
    hunks = changed_hunks(root, diff.base_commit, diff.paths)
    base = TextAt(root, diff.base_commit)
    removals, hunks = removed_definitions(g, diff, hunks, base)
    changed, changed_lines = _changed_in(g, root, hunks, diff, gone_lines(removals))
    return BranchChange(hunks, removals, changed, changed_lines, base)


def _changed_in(g: GraphIndex, root: Path, hunks: dict[str, list[Hunk]], diff: BranchDiff,
                gone: dict[str, set[int]]) -> tuple[list[int], dict[str, set[int]]]:
    """The changed symbols' positions (most-changed first) and each file's changed lines on
    the new side (a deletion marks the line after it), so the code shown can include them.
    A definition's span starts at its attributes and doc comment (`spans.leading_start`);
    `gone`: the base's lines of the definitions the branch removed (`removed.gone_lines`)."""
    if not diff.files or diff.base_commit is None:
        return [], {}
    indexed = set(g.paths)
    paths = [p for p in diff.paths if p in indexed]
    wanted = {g.paths.index(p) for p in paths}  # file positions of the changed files
    mine = [i for i in range(len(g.ids)) if g.file_of[i] in wanted and g.kinds[i] != "file"]
    sources = {p: read_lines(root, p) for p in paths if p in hunks}
    languages = {p: detect_language(p) or "" for p in sources}
    spans = [(g.path(i), g.qualified[i], g.lines[i], g.end_lines[i]) for i in mine]
    spans = [(p, q, leading_start(sources[p], a, languages[p]) if p in sources else a, b)
             for p, q, a, b in spans]
    hunks = {p: hunks[p] for p in paths if p in hunks}
    found = changed_symbols(hunks, spans, gone)
    key = {span[:3]: i for i, span in zip(mine, spans, strict=True)}
    ranked = sorted(found, key=lambda c: -c.changed_lines)
    lines = {path: {n for h in hs for n in (h.new_lines or [max(1, h.new_start + 1)])}
             for path, hs in hunks.items()}
    return [key[(c.path, c.qualified, c.line)] for c in ranked
            if (c.path, c.qualified, c.line) in key], lines


def impact_by_file(g: GraphIndex, changed: list[int]) -> dict[str, float]:
    """Files holding callers, callees, sub- and supertypes of the changed symbols (0..1)."""
    changed_files = {g.file_of[i] for i in changed}
    counts: dict[int, int] = {}
    for i in changed:
        for j, _, code in g.out[i] + incoming(g, i):
            f = g.file_of[j]
            if code in _IMPACT and f not in changed_files:
                counts[f] = counts.get(f, 0) + 1
    most = max(counts.values(), default=1)
    return {g.paths[f]: n / most for f, n in counts.items()}


def _neighbours(g: GraphIndex, sources: list[int], codes: frozenset[int],
                exclude: set[int]) -> list[int]:
    out: list[int] = []
    for i in sources:
        for j, _, code in incoming(g, i):
            if code in codes and j not in exclude and j not in out and g.kinds[j] != "file":
                out.append(j)
    return out


def _as_symbol(g: GraphIndex, i: int, role: str, reason: str) -> ContextSymbol:
    return ContextSymbol(id=g.ids[i], name=g.names[i], qualified=g.qualified[i],
                         kind=g.kinds[i], file=g.path(i), line=g.lines[i],
                         end_line=g.end_lines[i], score=0.0, reasons=[reason], role=role)


def _changed_with(store: Store, by_edits: list[tuple[str, WrittenWith]],
                  changed_files: set[str], listed_tests: set[str]) -> list[ContextFile]:
    """The files (not tests) that usually change with the change, with their evidence: first
    those edited in the commits that last wrote the changed definitions, at EVIDENCE_LIFT
    times their usual rate at least (a version file, edited in most commits, pairs with
    everything), then those that change with the changed files (three commits together at
    least, by lift); a file with both kinds shows both. A test file the tests section
    already lists is not repeated here."""
    rate = usual_rates(store)
    out = [ContextFile(path, round(w.together / w.commits, 3), [
        f"edited in {w.together} of the {w.commits} commits that last wrote the changed "
        "definitions"]) for path, w in by_edits if not is_test_path(path)
        and w.together / w.commits >= EVIDENCE_LIFT * rate.get(path, 0.0)]
    listed = {f.path: f for f in out}
    for c in cochange_evidence(store, changed_files):
        if c.path in listed_tests:
            continue
        why = (f"changed with {c.partner} in {c.together} of {c.partner_commits} commits "
               f"({c.lift:.1f}x its usual rate)")
        if c.path in listed:
            listed[c.path].reasons.append(why)
        else:
            out.append(ContextFile(c.path, c.lift, [why]))
    return out[:EVIDENCE_LIMIT]


def pr_context(store: Store, g: GraphIndex, root: Path, task: str, diff: BranchDiff,
               opts: Options, weights: dict[str, float] | None = None) -> Context:
    w = {**FEATURES, **(weights or {})}
    hunks, removals, changed, changed_lines, base = branch_change(g, root, diff)
    left = {r: references_left(store, g, root, r) for r in removals}
    names = " ".join(dict.fromkeys(g.names[i] for i in changed[:20]))
    # The task text ranks on its own words; the change adds evidence per file (impact,
    # co-change, branch), never words to the query, which would pull the ranking towards
    # the files already changed.
    text = task.strip() or f"Changes to {names or ', '.join(diff.paths[:10])}"
    boosts = git_boosts(store, w, diff)
    impact = impact_by_file(g, changed)
    # a file still naming what the branch removed is where the change reaches first
    impact.update((path, 1.0) for refs in left.values() for path, _, _ in refs or ()
                  if path not in diff.paths)
    for path, share in impact.items():
        boosts.per_file.setdefault(path, {})["impact"] = round(w["impact"] * share, 4)
    ctx = assemble(store, g, root, text, opts, boosts)
    if not task.strip():
        # The query was made up from the change's names or paths: its lexical matches
        # elsewhere (`requests` is in every file of psf/requests) are not where the PR reaches,
        # so the code shown stays in the changed files and those linked to the change.
        reach = set(diff.paths) | set(impact)
        ctx.code = ctx.code._replace(units=[u for u in ctx.code.units if u.file in reach])
    budget = opts.max_nodes
    chosen: dict[str, list[int]] = {}
    chosen["changed"] = changed[: max(1, int(budget * SECTION_SHARE["changed"]))]
    taken = set(chosen["changed"])
    # A test both calls and tests what it covers: it belongs under tests, not impact.
    # Tests: what a tests edge links to the change, then test cases that call their way to it
    # within two hops ("test_x → Client.send → Proxy.__init__"), never a test found by words.
    reached = [t for t in reaching_tests(g, chosen["changed"], hops=2)
               if t.case_id and t.position not in taken]
    tests = list(dict.fromkeys(_neighbours(g, chosen["changed"], _TESTS, taken)
                               + [t.position for t in reached]))
    chains = {g.ids[t.position]: list(t.via) for t in reached if len(t.via) > 2}
    # first the code that still names a removed definition: it now names nothing
    behind = [i for refs in left.values() for _, _, i in refs or ()
              if i is not None and g.kinds[i] != "file" and not g.is_test(i) and i not in taken]
    chosen["impact"] = list(dict.fromkeys(
        behind + _neighbours(g, chosen["changed"], _IMPACT, taken | set(tests))))[
        : max(1, int(budget * SECTION_SHARE["impact"]))]
    chosen["tests"] = tests[: max(1, int(budget * SECTION_SHARE["tests"]))]
    roles = {"changed": ("changed", "changed on this branch"),
             "impact": ("caller", "depends on a changed symbol"),
             "tests": ("test", "tests a changed symbol")}
    lead = [_as_symbol(g, i, *(("caller", "names a definition the branch removed")
                               if name == "impact" and i in behind else roles[name]))
            for name, ids in chosen.items() for i in ids]
    lead_ids = {s.id for s in lead}
    rest = [s for s in ctx.symbols if s.id not in lead_ids][: max(0, budget - len(lead))]
    ctx.symbols = lead + rest
    ctx.sections = {name: [g.ids[i] for i in ids] for name, ids in chosen.items()}
    ctx.test_chains = {sid: via for sid, via in chains.items() if sid in ctx.sections["tests"]}
    ctx.entry_points = list(dict.fromkeys([g.ids[i] for i in chosen["changed"]]
                                          + ctx.entry_points))
    kept = {s.id for s in ctx.symbols}
    pos = [g.pos_of_id[sid] for sid in kept]
    ctx.edges = [(g.ids[i], g.ids[j], EDGE_KINDS[c].value)
                 for i in pos for j, _, c in g.out[i] if g.ids[j] in kept and c in _IMPACT | _TESTS]
    changed_files = set(diff.paths)
    written = written_with(root, g, changed, hunks, diff.base_commit, diff.paths) \
        if diff.base_commit else {}
    by_edits = sorted(written.items(), key=lambda pw: (-pw[1].together, pw[0]))
    # test files no listed test is in, named after what changed: the suites no call reaches
    test_files = {g.path(g.pos_of_id[sid]) for sid in ctx.sections["tests"]}
    listed = test_files | changed_files
    named = [ContextFile(path, 1.0, [named_after_phrase(subject)])
             for path, subject in named_after(g, changed, diff.paths).items() if path not in listed]
    # then the suites edited in the commits that last wrote the changed definitions
    listed |= {f.path for f in named}
    named += [ContextFile(path, round(w.together / w.commits, 3), [
        f"a test edited in {w.together} of the {w.commits} commits that last wrote the changed "
        "definitions"]) for path, w in by_edits if is_test_path(path) and path not in listed
    ][:MAX_WRITTEN_TESTS]
    ctx.named_tests = named[:MAX_NAMED_TESTS]
    ctx.cochanged = _changed_with(store, by_edits, changed_files,
                                  test_files | {f.path for f in ctx.named_tests})
    by_role = {role: [s for s in lead if s.role == role] for role in ("changed", "caller", "test")}
    ctx.code = lead_units(store, root, ctx.code, [(by_role["changed"], 30.0),
                                                  (by_role["caller"], 20.0),
                                                  (by_role["test"], 10.0)], changed_lines)
    if diff.notes:  # how the comparison had to be made (shallow clone, no trunk): one line
        ctx.notes.append("; ".join(diff.notes))
    ctx.changed_files = changed_file_lines(diff, hunks)
    ctx.changes = symbol_changes(store, g, root, chosen["changed"], hunks, changed_lines,
                                 ctx.code.sources, base)
    ctx.removed = removed_symbols(g, left, changed_lines)
    ctx.stats["changed_files"] = len(diff.files)
    ctx.stats["changed_symbols"] = len(changed)
    ctx.stats["removed_symbols"] = len(removals)
    ctx.stats["compared_with"] = {"ref": diff.base_ref, "commit": diff.base_commit}
    return ctx
