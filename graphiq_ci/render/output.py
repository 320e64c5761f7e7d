"""Rendering a `Context` as Markdown, an LLM prompt or JSON, inside a token budget.

Templates run in Jinja2's sandbox (a user's `--template` is code we did not write), and every
piece of repository or task text goes through a filter that keeps it from breaking the
Markdown: code spans and fences longer than any backtick run inside, mentions neutralised.
The budget is met by filling snippets in priority order: whole, else shortened to their
signature and head, else left out; the result never exceeds `max_tokens`.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from graphiq_ci.context.model import Context, Snippet
from graphiq_ci.errors import GraphiqError
from graphiq_ci.render.mermaid import diagram as mermaid_diagram
from graphiq_ci.render.safe import code_block, escape_md_inline, neutralise_mentions
from graphiq_ci.render.tokens import count_tokens, counter_name

FORMATS = ("markdown", "prompt", "json")
HEAD_LINES = 8
MAX_CONNECTIONS = 25


@dataclass(frozen=True)
class Rendered:
    text: str
    tokens: int
    counter: str
    snippets_full: int
    snippets_shortened: int
    snippets_dropped: int


def _code_span(text: str) -> str:
    longest = max((len(r) for r in re.findall(r"`+", text)), default=0)
    tick = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{tick}{pad}{' '.join(text.splitlines())}{pad}{tick}"


def _environment(search_path: str | None = None) -> SandboxedEnvironment:
    loader: jinja2.BaseLoader
    if search_path is None:
        loader = jinja2.PackageLoader("graphiq_ci", "templates")
    else:
        loader = jinja2.FileSystemLoader(search_path)
    env = SandboxedEnvironment(loader=loader, autoescape=False, keep_trailing_newline=True,
                               undefined=jinja2.StrictUndefined)
    env.filters["code"] = _code_span
    env.filters["inline"] = escape_md_inline
    env.filters["codeblock"] = lambda text, language="": code_block(text, language)
    return env


def _shorten(sn: Snippet) -> Snippet:
    lines = sn.code.splitlines()
    if len(lines) <= HEAD_LINES + 1:
        return sn
    return replace(sn, code="\n".join(lines[:HEAD_LINES] + ["    ..."]), shortened=True)


def _view(ctx: Context, snippets: list[Snippet], with_diagram: bool, tokens: int) -> dict[str, Any]:
    by_id = {s.id: s for s in ctx.symbols}
    first = next((line for line in ctx.query.splitlines() if line.strip()), "")
    return {
        "task": ctx.query,
        "task_line": escape_md_inline(first[:200]),
        "family": ctx.family,
        "files": ctx.files[:10],
        "symbols": ctx.symbols,
        "entries": [s for s in ctx.symbols if s.role == "entry"],
        "related": [s for s in ctx.symbols if s.role != "entry"],
        "connections": [
            {"src": by_id[a].qualified, "dst": by_id[b].qualified, "kind": k}
            for a, b, k in ctx.edges[:MAX_CONNECTIONS] if a in by_id and b in by_id],
        "diagram": mermaid_diagram(ctx) if with_diagram and ctx.symbols else "",
        "snippets": snippets,
        "sections": ctx.sections,
        "cochanged": ctx.cochanged,
        "tokens": tokens,
        "counter": counter_name(),
        "notes": [neutralise_mentions(n) for n in ctx.notes],
    }


def _template(fmt: str, template: Path | None) -> jinja2.Template:
    try:
        if template is not None:
            env = _environment(str(template.parent))
            return env.get_template(template.name)
        return _environment().get_template(f"{fmt}.md.j2")
    except jinja2.TemplateError as exc:
        raise GraphiqError(f"template {template or fmt}: {exc}") from None


def render_text(ctx: Context, fmt: str = "markdown", *, max_tokens: int = 2000,
                template: Path | None = None, with_diagram: bool = False) -> Rendered:
    """Markdown or prompt text within `max_tokens` (a custom template replaces the built-in)."""
    if fmt not in ("markdown", "prompt", "pr_comment") and template is None:
        raise GraphiqError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    tpl = _template(fmt, template)

    def draw(snips: list[Snippet], diagram: bool) -> str:
        try:
            text = tpl.render(**_view(ctx, snips, diagram, 0))
            return tpl.render(**_view(ctx, snips, diagram, count_tokens(text)))
        except jinja2.TemplateError as exc:
            raise GraphiqError(f"template {template or fmt}: {exc}") from None

    use_diagram = with_diagram
    base = draw([], use_diagram)
    if use_diagram and count_tokens(base) > max_tokens:
        use_diagram = False
        base = draw([], False)
    kept: list[Snippet] = []
    full = short = 0
    for sn in ctx.snippets:
        for option in (sn, _shorten(sn)):
            trial = draw(kept + [option], use_diagram)
            if count_tokens(trial) <= max_tokens:
                kept.append(option)
                full += not option.shortened
                short += option.shortened
                break
    text = draw(kept, use_diagram)
    if count_tokens(text) > max_tokens:  # even the skeleton is too long: cut at a line
        text = _cut(text, max_tokens)
    return Rendered(text, count_tokens(text), counter_name(), full, short,
                    len(ctx.snippets) - full - short)


def _cut(text: str, max_tokens: int) -> str:
    lines = text.splitlines()
    while lines and count_tokens("\n".join(lines) + "\n…") > max_tokens:
        lines.pop()
    return "\n".join(lines) + "\n…" if lines else ""


def render_json(ctx: Context, rendered: Rendered) -> str:
    """The documented JSON object; `files` and `symbols` ranked best first."""
    obj = {
        "query": ctx.query,
        "family": ctx.family,
        "entry_points": ctx.entry_points,
        "files": [asdict(f) for f in ctx.files],
        "symbols": [{k: v for k, v in asdict(s).items() if k not in ("id", "signature")}
                    | {"id": s.id} for s in ctx.symbols],
        "edges": [{"src": a, "dst": b, "kind": k} for a, b, k in ctx.edges],
        "snippets": [asdict(s) for s in ctx.snippets],
        "sections": ctx.sections,
        "cochanged": [asdict(f) for f in ctx.cochanged],
        "notes": ctx.notes,
        "tokens": rendered.tokens,
        "stats": {**ctx.stats, "tokens": rendered.tokens, "token_counter": rendered.counter,
                  "snippets_full": rendered.snippets_full,
                  "snippets_shortened": rendered.snippets_shortened,
                  "snippets_dropped": rendered.snippets_dropped},
    }
    return json.dumps(obj, indent=2)

