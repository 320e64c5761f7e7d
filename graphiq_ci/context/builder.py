"""`assemble`: task text → ranked files and symbols, the kept subgraph and its snippets.

Stages, top to bottom: extract terms → rank (search pipeline) → candidates from every channel
→ rank files → entry points → BFS under budgets → edge recovery → snippets.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from graphiq_ci.context.candidates import Candidates, collect
from graphiq_ci.context.expand import Budget, expand, recover_edges
from graphiq_ci.context.files import FileScores, rank_files
from graphiq_ci.context.model import Context, ContextFile, ContextSymbol, Snippet
from graphiq_ci.context.terms import extract_terms
from graphiq_ci.search import Boosts, GraphIndex, rank
from graphiq_ci.search.query import parse_query
from graphiq_ci.store import Store

ENTRY_POINTS = 5
RANKED_FILES = 20
SEARCH_DEPTH = 80


@dataclass(frozen=True)
class Options:
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
    files = rank_files(store, g, terms, list(q.terms), cands, q.about_tests, extra)
    ctx = Context(query=task, family=q.family.value)
    ctx.files = _ranked_files(files)
    file_rank = {f.path: n for n, f in enumerate(ctx.files)}
    entries = _entry_points(g, cands, file_rank)
    priority = dict(cands.score)
    strong = [i for i in _by_file_rank(g, cands, file_rank) if i not in entries]
    kept = expand(g, entries, Budget.for_task(opts.max_nodes, q.about_tests), opts.depth, priority,
                  strong[: opts.max_nodes // 3])
    ctx.entry_points = [g.ids[i] for i in entries if i in kept]
    ctx.symbols = _symbols(store, g, kept, entries, cands, file_rank)
    ctx.edges = recover_edges(g, kept)
    ctx.snippets = snippets(root, ctx.symbols, store)
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


def snippets(root: Path, symbols: list[ContextSymbol], store: Store) -> list[Snippet]:
    """Source of each kept symbol, read fresh from the work tree (innermost spans not repeated)."""
    languages = dict(store.conn.execute("SELECT path, language FROM files"))
    cache: dict[str, list[str]] = {}
    out: list[Snippet] = []
    spans: list[tuple[str, int, int]] = []
    for s in symbols:
        if any(f == s.file and a <= s.line and s.end_line <= b for f, a, b in spans):
            continue  # already inside a kept snippet
        if s.file not in cache:
            try:
                cache[s.file] = (root / s.file).read_text(errors="replace").splitlines()
            except OSError:
                cache[s.file] = []
        lines = cache[s.file][s.line - 1 : s.end_line]
        if not lines:
            continue
        spans.append((s.file, s.line, s.end_line))
        out.append(Snippet(s.id, s.file, s.line, s.end_line, languages.get(s.file, ""),
                           "\n".join(lines)))
    return out
