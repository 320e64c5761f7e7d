"""`assemble`: task text → ranked files, the code worth showing, symbols and their subgraph.

Stages, top to bottom: extract terms → rank (search pipeline) → candidates from every channel
→ rank files → code units of the top files (context/code.py) → entry points → BFS under
budgets → edge recovery. The symbols list leads with the best code units, neighbours after.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

from graphiq_ci.context.candidates import Candidates, collect
from graphiq_ci.context.code import code_units
from graphiq_ci.context.expand import Budget, Kept, expand, recover_edges
from graphiq_ci.context.files import FileScores, in_words, rank_files
from graphiq_ci.context.model import (
    CodeCandidates,
    CodeUnit,
    Context,
    ContextFile,
    ContextSymbol,
)
from graphiq_ci.context.terms import extract_terms
from graphiq_ci.search import Boosts, GraphIndex, rank
from graphiq_ci.search.query import parse_query
from graphiq_ci.store import Store
from graphiq_ci.text import stem

ENTRY_POINTS = 5
RANKED_FILES = 20
SEARCH_DEPTH = 80
#: the share of the symbol list the best code units lead (see `lead_with_code`)
LEAD_UNITS = 0.75
#: the best code units the symbol list may lead with, in its own order (see `by_likelihood`)
LIST_UNITS = 60


class Options(NamedTuple):
    """Budgets and weight overrides of one `context` call (CLI options, `.graphiq.yml`)."""

    max_nodes: int = 24
    depth: int = 2
    refresh: bool = True  # index what is stale first
    weights: tuple[tuple[str, float], ...] = ()  # feature overrides (from .graphiq.yml)


def assemble(store: Store, g: GraphIndex, root: Path, task: str, opts: Options,
             boosts: Boosts | None = None) -> Context:
    """The context of `task` over a fresh index (`build_context` refreshes it first)."""
    terms = extract_terms(task)
    q = parse_query(terms.text)
    ranked = rank(store, g, terms.text, top=SEARCH_DEPTH, boosts=boosts, diversity=False,
                 weights=dict(opts.weights))
    cands = collect(g, terms, ranked, q.about_tests)
    extra = boosts.per_file if boosts else None
    files = rank_files(store, g, terms, list(q.terms), cands, q.about_tests, q.about_docs,
                       extra)
    ctx = Context(query=task, family=q.family.value)
    ctx.files = _ranked_files(files)
    file_rank = {f.path: n for n, f in enumerate(ctx.files)}
    entries = _entry_points(g, cands, file_rank)
    priority = dict(cands.score)
    strong = [i for i in _by_file_rank(g, cands, file_rank) if i not in entries]
    budget = Budget.for_task(opts.max_nodes, q.about_tests)
    kept = expand(g, entries, budget, opts.depth, priority, strong[: opts.max_nodes // 3])
    ctx.code = code_units(store, g, root, ctx.files, list(q.terms), cands)
    _explain_files(ctx, files, list(q.terms))
    ctx.symbols = lead_with_code(g, by_likelihood(ctx.code, ctx.files, list(q.terms)),
                                 ctx.code.copies,
                                 _symbols(store, g, kept, entries, cands, file_rank), budget)
    ctx.entry_points = [s.id for s in ctx.symbols if s.role == "entry"]
    ctx.edges = recover_edges(g, [g.pos_of_id[s.id] for s in ctx.symbols])
    ctx.stats = {"candidates": len(cands.score), "kept": len(kept), "edges": len(ctx.edges),
                 "terms": list(q.terms)[:40]}
    return ctx


def _ranked_files(fs: FileScores) -> list[ContextFile]:
    ranked = sorted(fs.score.items(), key=lambda kv: (-kv[1], kv[0]))[:RANKED_FILES]
    return [
        ContextFile(path, round(score, 4),
                    [f"{k} {v:+.3f}" if not k.startswith("x_") else f"{k[2:]} x{v:.2f}"
                     for k, v in fs.features[path].items()])
        for path, score in ranked if score > 0
    ]


def _explain_files(ctx: Context, fs: FileScores, query_terms: list[str]) -> None:
    """Each ranked file's evidence in words: the task words its text uses, its best units.
    A word counts when it, or its stem, occurs in the path or the text (a substring test:
    stemming every word of a dozen files costs more than the whole ranking)."""
    wanted = [(t, stem(t)) for t in query_terms if len(t) > 2]
    defines: dict[str, list[str]] = {}
    for u in ctx.code.units:
        if u.kind != "module" and u.score > 0:
            defines.setdefault(u.file, []).append(u.name)
    for f in ctx.files:
        text = (f.path + "\n" + "\n".join(ctx.code.sources.get(f.path) or [])).lower()
        f.matched = [t for t, s in wanted if s in text][:6]
        f.defines = list(dict.fromkeys(defines.get(f.path, [])))[:3]
        f.why = in_words(fs.features[f.path])


def _by_file_rank(g: GraphIndex, cands: Candidates, file_rank: dict[str, int]) -> list[int]:
    """Candidate symbols, best first, favouring the best files: score / (1 + file rank / 2)."""
    def key(i: int) -> float:
        return cands.score[i] / (1 + 0.5 * file_rank.get(g.path(i), len(file_rank)))

    return sorted((i for i in cands.score if g.kinds[i] != "file"), key=key, reverse=True)


def _entry_points(g: GraphIndex, cands: Candidates, file_rank: dict[str, int]) -> list[int]:
    """The best symbols, the first few spread over different files."""
    ranked = _by_file_rank(g, cands, file_rank)
    entries: list[int] = []
    files: set[int] = set()
    for i in ranked:
        if len(entries) >= ENTRY_POINTS:
            break
        if g.file_of[i] in files and len(files) < 3:
            continue  # the first entries spread over files
        entries.append(i)
        files.add(g.file_of[i])
    return entries


def _symbols(store: Store, g: GraphIndex, kept: list[int], entries: list[int],
             cands: Candidates, file_rank: dict[str, int]) -> list[ContextSymbol]:
    entry_set = set(entries)
    sigs = dict(store.conn.execute(
        f"SELECT id, signature FROM symbols WHERE id IN ({','.join(str(g.ids[i]) for i in kept)})"
    )) if kept else {}

    def score(i: int) -> float:
        base = cands.score.get(i, 0.05)
        return base / (1 + 0.3 * file_rank.get(g.path(i), len(file_rank)))

    out = []
    for i in sorted(kept, key=lambda i: (i not in entry_set, -score(i))):
        reasons = list(dict.fromkeys(cands.reasons.get(i, [])))[:4] or ["graph neighbour"]
        out.append(ContextSymbol(
            id=g.ids[i], name=g.names[i], qualified=g.qualified[i], kind=g.kinds[i],
            file=g.path(i), line=g.lines[i], end_line=g.end_lines[i], score=round(score(i), 4),
            reasons=reasons, role="entry" if i in entry_set else
            ("test" if g.is_test(i) else "related"),
            signature=sigs.get(g.ids[i], ""),
        ))
    return out


def by_likelihood(code: CodeCandidates, files: list[ContextFile],
                  query_terms: list[str]) -> list[CodeUnit]:
    """The best LIST_UNITS code units in the symbol list's order, each scored as its packer
    score × e^(the share of the task's words it uses) × its file's share of the best file's
    score (the list leads with fewer than a third of them).

    The packer's order weighs what a unit is worth against what showing it costs; an entry of
    the list costs nothing, so the list asks only how likely a unit is to be what the task
    changes. Two things answer that better than the packer's score: how many of the task's
    distinct words a unit uses (BM25 lets one word used often score as high, and in the
    packer that breadth would favour long units), and the file ranking, followed more closely
    (a change's definitions cluster in its file). Symbol Recall@20 on dev 0.736 -> 0.747 and
    on dev2 0.722 -> 0.736, up in 7 of the 11 repositories and down in one (serde). Alone, the
    words' share gave 0.734 / 0.738 and the file's share 0.748 / 0.727.

    A container's words are counted over its whole span (`_whole_span`): shown as its own
    lines, a class or `impl` block uses few of the task's words, and ranked below a function
    that shares one word with the task, although its fields and methods were what the task was
    about: 0.747 -> 0.759 on dev (typer 0.596 -> 0.641, google/auto 0.593 -> 0.613, no
    repository lower) and 0.736 -> 0.739 on dev2. Counting them twice as much (e^(2 × share))
    gave dev2 0.750, led by axum's `impl` blocks, and serde 0.003 lower: not taken, a second
    weight for one kind of unit."""
    stems = {stem(t) for t in query_terms if len(t) > 2}
    best_file = max((f.score for f in files), default=0.0) or 1.0
    share = {f.path: f.score / best_file for f in files}

    def likelihood(u: CodeUnit) -> float:
        lines = code.sources.get(u.file, [])
        text = "\n".join("\n".join(lines[a - 1:b]) for a, b in _whole_span(u)).lower()
        used = sum(s in text for s in stems) / max(1, len(stems))
        return u.score * math.exp(used) * share.get(u.file, 0.0)

    return sorted((u.with_score(likelihood(u)) for u in code.units[:LIST_UNITS]),
                  key=lambda u: (-u.score, u.file, u.line))


def _whole_span(u: CodeUnit) -> list[tuple[int, int]]:
    """A container's whole span (its methods' lines too), else the unit's own runs: a class or
    `impl` block is shown as its own lines, but what it is about is in its methods."""
    if not u.symbol_id or not u.runs or (len(u.runs) == 1 and u.runs[0][1] >= u.end_line):
        return u.runs
    return [(u.runs[0][0], u.end_line)]


def lead_with_code(g: GraphIndex, units: list[CodeUnit], copies: frozenset[int],
                   neighbours: list[ContextSymbol], budget: Budget) -> list[ContextSymbol]:
    """The definitions that answer the task (best code units, up to LEAD_UNITS of the list)
    first, then graph neighbours, under the BFS's own budgets: max_nodes, per file, tests.

    Three quarters rather than two thirds: the 17th and 18th units were gold more often than
    the neighbours they displaced (symbol Recall@20 on dev2 0.694 -> 0.715, 14 tasks up and 4
    down; dev 0.729 -> 0.725, one task losing a neighbour).

    The units are not held to the per-file cap: their score already weighs their file's rank,
    and a change usually touches several definitions of its best file (capping them at 5 let
    weaker files' units take their place: symbol Recall@20 0.708 / 0.643 on dev / dev2, 0.725 /
    0.681 without the cap). The neighbours after them still spread over files, and leave out
    a definition whose code repeats a unit's word for word (`copies`)."""
    kept = Kept(g, budget)
    lead: list[ContextSymbol] = []
    for u in units:
        if len(lead) >= max(1, int(budget.max_nodes * LEAD_UNITS)):
            break
        pos = g.pos_of_id.get(u.symbol_id)
        if pos is not None and kept.add(pos, spread=False):
            lead.append(ContextSymbol(
                id=u.symbol_id, name=u.name, qualified=u.qualified, kind=u.kind, file=u.file,
                line=u.line, end_line=u.end_line, score=round(u.score, 4),
                reasons=u.reasons[:4] or ["in a top file"],
                role="entry" if len(lead) < ENTRY_POINTS else "related"))
    for s in neighbours:
        pos = g.pos_of_id.get(s.id)
        if pos is not None and s.id not in copies and kept.add(pos):
            lead.append(s._replace(role="test" if s.role == "test" else "related"))
    return lead
