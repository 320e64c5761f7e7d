"""The MCP tools' answers: Markdown for the model, the same facts as typed data.

Each function is thin over a stage that already exists (the context builder, the ranker, the
PR view, the graph's relations), reads the `Workspace` the server holds, and raises
`GraphiqError` with one sentence for input it cannot answer. Refreshing the index is the
server's job, once before every call, so an answer never re-indexes twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from graphiq_ci.context import (
    Context,
    ContextFile,
    ContextSymbol,
    Options,
    build_context,
    nothing_found,
)
from graphiq_ci.context.affected import affected as affected_tests
from graphiq_ci.context.code import languages_of
from graphiq_ci.context.relations import Place, find_symbols, place, relations
from graphiq_ci.context.workspace import Workspace
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index.run import current_head
from graphiq_ci.paths import one_line, repo_relative
from graphiq_ci.render import Rendered, render_text
from graphiq_ci.render.affected import affected_text
from graphiq_ci.render.safe import code_block
from graphiq_ci.render.tokens import count_tokens
from graphiq_ci.search import Hit, rank_or_names
from graphiq_ci.serve import schemas as S
from graphiq_ci.store.stats import index_stats

#: a task or query longer than this is refused, not silently cut (the CLI cuts at 20,000)
MAX_TEXT_CHARS = 100_000
SYMBOL_TOKENS = 1200


@dataclass(frozen=True)
class Answer:
    text: str
    data: BaseModel


def _text(value: str, what: str, *, required: bool = True) -> str:
    if required and not value.strip():
        raise GraphiqError(f"the {what} is empty: say what to look for")
    if len(value) > MAX_TEXT_CHARS:
        raise GraphiqError(f"the {what} is {len(value):,} characters; the limit is "
                           f"{MAX_TEXT_CHARS:,}")
    return value


def _location(p: Place | ContextSymbol) -> S.Location:
    return S.Location(qualified=p.qualified, kind=p.kind, file=p.file, line=p.line,
                      end_line=p.end_line)


def _use(p: Place) -> S.Use:
    return S.Use(**_location(p).model_dump(), at=p.at or p.line)


def _ranked_file(f: ContextFile) -> S.RankedFile:
    why = ([f"uses the task's words: {' '.join(f.matched)}"] if f.matched else []) + (
        [f"defines {', '.join(f.defines)}"] if f.defines else []) + f.why
    return S.RankedFile(path=f.path, score=round(f.score, 4), why=why or f.reasons)


def _options(ws: Workspace) -> Options:
    budgets = ws.config()[0].budgets
    return Options(max_nodes=budgets.max_nodes, depth=budgets.depth, refresh=False)


def _render(ws: Workspace, ctx: Context, fmt: str, max_tokens: int | None) -> Rendered:
    """An agent that passes `max_tokens` gets a hard limit: it sized its prompt around it.
    Otherwise `.graphiq.yml`'s budget, plus room for a PR's changed lines
    (`budgets.change_tokens`), as the CLI gives."""
    if max_tokens is not None:
        return render_text(ctx, fmt, max_tokens=max_tokens)
    budgets = ws.config()[0].budgets
    return render_text(ctx, fmt, max_tokens=budgets.max_tokens,
                       change_room=budgets.change_tokens)


def _build(ws: Workspace, task: str, base: str | None, diff: bool = False) -> Context:
    ctx = build_context(ws.root, task, _options(ws), diff=diff, base=base or None, workspace=ws)
    if not ctx.files and not ctx.symbols:
        raise GraphiqError(nothing_found(ctx.stats).replace("--base REF", "a base"))
    return ctx


def context(ws: Workspace, task: str, max_tokens: int | None, base: str | None) -> Answer:
    """`graphiq-ci context --format prompt`; with `base`, PR mode."""
    ctx = _build(ws, _text(task, "task", required=base is None), base)
    rendered = _render(ws, ctx, "prompt", max_tokens)
    return Answer(rendered.text, S.ContextAnswer(
        mode=str(ctx.stats.get("mode", "task")), files=[_ranked_file(f) for f in ctx.files],
        symbols=[_location(s) for s in ctx.symbols], tokens=rendered.tokens, notes=ctx.notes))


def _why(hit: Hit) -> str:
    """One line: how the hit was found, and its three largest score terms."""
    additive = {k: v for k, v in hit.features.items()
                if not k.startswith("x_") and k != "confidence_lock"}
    top = sorted(additive.items(), key=lambda kv: -kv[1])[:3]
    lead = "a confident match; " if "confidence_lock" in hit.features else ""
    return (f"{lead}found by {', '.join(hit.sources) or 'the graph'}"
            + (f"; {', '.join(f'{k} +{v:.2f}' for k, v in top)}" if top else ""))


def search(ws: Workspace, query: str, top: int) -> Answer:
    result = rank_or_names(ws.store, ws.graph(), _text(query, "query"), top=top)
    hits = [S.SearchHit(qualified=h.qualified, kind=h.kind, file=h.path, line=h.line,
                        end_line=h.end_line, score=round(h.score, 4), why=_why(h))
            for h in result.hits]
    lines = [f"{n}. `{h.qualified}` ({h.kind}) at `{one_line(h.file)}:{h.line}`: {h.why}"
             for n, h in enumerate(hits, 1)]
    text = "\n".join(lines) if lines else f"Nothing found for {query.strip()!r}."
    if result.as_names:  # "the add function": say why `add` was searched for
        text = ("Nothing matched the query's other words: its common words were searched "
                f"as names.\n\n{text}")
    return Answer(text + "\n", S.SearchAnswer(query=query, family=result.query.family.value,
                                              results=hits))


def _code(ws: Workspace, p: Place, max_tokens: int) -> tuple[str, bool]:
    """The definition's lines from the work tree, whole lines only, within `max_tokens`."""
    try:
        lines = (ws.root / p.file).read_text(errors="replace").splitlines()
    except OSError as exc:
        raise GraphiqError(f"cannot read {p.file}: {exc.strerror}") from None
    body = lines[p.line - 1:p.end_line]
    kept: list[str] = []
    for line in body:
        if count_tokens("\n".join([*kept, line])) > max_tokens:
            break
        kept.append(line)
    shortened = len(kept) < len(body)
    if shortened:
        kept.append(f"… ({len(body) - len(kept)} more lines)")
    return "\n".join(kept), shortened


def symbol(ws: Workspace, name_or_id: str, max_tokens: int | None) -> Answer:
    g = ws.graph()
    if "/" in name_or_id or "\\" in name_or_id:
        repo_relative(name_or_id)  # a path climbing out of the repository: refused, said so
    found = find_symbols(g, _text(name_or_id, "symbol name"))
    if not found:
        raise GraphiqError(f"no definition named {name_or_id.strip()!r} in the index "
                           "(search finds partial names)")
    rel = relations(ws.store, g, found[0])
    code, shortened = _code(ws, rel.symbol, max_tokens or SYMBOL_TOKENS)
    others = [place(g, i) for i in found[1:10]]
    language = languages_of(ws.store, [rel.symbol.file]).get(rel.symbol.file, "")
    parts = [f"### `{rel.symbol.qualified}` ({rel.symbol.kind}) at "
             f"`{one_line(rel.symbol.file)}:{rel.symbol.line}-{rel.symbol.end_line}`",
             code_block(code, language)]
    for title, items in (("Callers", rel.callers), ("Calls", rel.callees),
                         ("Tests", rel.tests), ("Other definitions with this name", others)):
        if items:
            parts.append(f"**{title}**\n" + "\n".join(
                f"- `{p.qualified}` at `{one_line(p.file)}:{p.at or p.line}`" for p in items))
    return Answer("\n\n".join(parts) + "\n", S.SymbolAnswer(
        symbol=_location(rel.symbol), code=code, shortened=shortened,
        callers=[_use(p) for p in rel.callers], callees=[_location(p) for p in rel.callees],
        tests=[_use(p) for p in rel.tests], others=[_location(p) for p in others]))


def _git_only(ws: Workspace, tool: str) -> None:
    if not (ws.root / ".git").exists():
        raise GraphiqError(f"{tool} compares branches, and {ws.root} is not a git repository")


def impact(ws: Workspace, base: str | None, max_tokens: int | None) -> Answer:
    """The PR review's sections: changed symbols, their callers, the tests that reach them."""
    _git_only(ws, "impact")
    ctx = _build(ws, "", base, diff=True)
    rendered = _render(ws, ctx, "pr_comment", max_tokens)
    by_id = {s.id: s for s in ctx.symbols}

    def section(name: str) -> list[S.Location]:
        return [_location(by_id[i]) for i in ctx.sections.get(name, []) if i in by_id]

    ref = ctx.stats.get("compared_with") or {}
    return Answer(rendered.text, S.ImpactAnswer(
        compared_with=S.Comparison(ref=ref.get("ref"), commit=ref.get("commit")),
        changed=section("changed"), callers=section("impact"), tests=section("tests"),
        named_tests=[S.RankedFile(path=f.path, score=f.score, why=f.reasons)
                     for f in ctx.named_tests],
        cochanged=[S.RankedFile(path=f.path, score=round(f.score, 3), why=f.reasons)
                   for f in ctx.cochanged],
        removed=[S.RemovedDefinition(
            qualified=r.qualified, kind=r.kind, file=r.file, line=r.line,
            references=r.references, left_behind=[
                S.LeftBehind(caller=c.caller, file=c.file, line=c.line) for c in r.left_behind])
            for r in ctx.removed], tokens=rendered.tokens, notes=ctx.notes))


def affected(ws: Workspace, base: str | None, everything: bool = False) -> Answer:
    found = affected_tests(ws, base or None, everything=everything)  # outside git: says so
    files = [S.AffectedFile(path=f.path, changed=f.changed,
                            named_after=f.named_after or None,
                            cochanged_with=f.cochanged.partner if f.cochanged else None,
                            written_with=f.written_with.together if f.written_with else None,
                            cases=[
        S.ReachingCase(id=t.case_id, qualified=t.place.qualified, line=t.place.line,
                       via=list(t.via)) for t in f.cases]) for f in found.files]
    return Answer(affected_text(found), S.AffectedAnswer(
        compared_with=S.Comparison(**found.compared_with),
        changed=[_location(p) for p in found.changed], files=files, ids=found.case_ids,
        weaker=[f.path for f in found.weaker], notes=found.notes))


def files(ws: Workspace, query: str | None, top: int) -> Answer:
    """Ranked files for `query`; with no query on a branch, the PR's files."""
    ctx = _build(ws, _text(query or "", "query", required=False), None)
    ranked = [_ranked_file(f) for f in ctx.files[:top]]
    text = "\n".join(f"{n}. `{one_line(f.path)}`: {'; '.join(f.why)}"
                     for n, f in enumerate(ranked, 1))
    return Answer(text + "\n", S.FilesAnswer(files=ranked))


def status(ws: Workspace) -> Answer:
    head = current_head(ws.root) if (ws.root / ".git").exists() else ""
    st = index_stats(ws.store, head)
    report = ws.last_refresh
    refreshed = sorted((report.parsed + report.deleted) if report else [])
    data = S.StatusAnswer(
        root=str(ws.root), head=head, generation=st["freshness"]["generation"],
        files=st["files"], symbols=st["symbols"], edges=st["edges"],
        languages=st["files_by_language"], refreshed_files=refreshed, skipped=st["skipped"],
        notes=report.notes if report else [])
    langs = ", ".join(f"{k} {v}" for k, v in data.languages.items()) or "none"
    text = (f"Index of `{data.root}` at {head[:12] or 'no commit'}: fresh (refreshed "
            f"{len(refreshed)} files just now), generation {data.generation}.\n"
            f"{data.files} files ({langs}), {data.symbols} symbols, {data.edges} edges.\n")
    return Answer(text, data)
