"""Rendering a `Context` as Markdown, an LLM prompt or JSON, inside a token budget.

The prompt and markdown templates are Python (`render/builtin.py`); the PR comment and a user's
`--template` run in Jinja2's sandbox (`render/jinja_env.py`: a user's template is code we did
not write). Every piece of repository or task text goes through a filter that keeps it from
breaking the Markdown: code spans and fences longer than any backtick run inside, mentions
neutralised.
The budget is met in two steps: the skeleton (task, file list, sections) is drawn first, and
the rest goes to code, packed by `render/pack.py`; if the drawn text still runs over (the
packer's header estimate is a bound, not a count), the code budget shrinks by the excess and
the code is packed again. The result never exceeds `max_tokens`, and the count reported is the
count of the text returned.
In PR mode the changed lines may get room of their own on top of `max_tokens` (`change_room`):
the change is what a reviewer came for, and a budget sized for the context around it would
otherwise cut a large change short.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from graphiq_ci.context.model import Context, Snippet
from graphiq_ci.errors import GraphiqError
from graphiq_ci.render.builtin import BUILTIN
from graphiq_ci.render.mermaid import diagram as mermaid_diagram
from graphiq_ci.render.pack import DEFAULT_OVERHEAD, Overhead, change_tokens, pack
from graphiq_ci.render.safe import escape_md_inline, neutralise_mentions
from graphiq_ci.render.tokens import count_tokens, counter_name

FORMATS = ("markdown", "prompt", "json")
MAX_CONNECTIONS = 8
#: changed files listed when the lists must be shortened to fit the budget
CHANGED_FILES_KEPT = 20
#: packing again after an overshoot: at most this many times
REPACKS = 4
#: per format, what its text around the code costs (`pack.Overhead`), where the packer's
#: default is low: a markdown block's header also names up to six of its definitions. With
#: the default, a markdown render packed 2.2 times on average over the development splits'
#: tasks at 2,000 tokens; with this, 1.2-1.5 times, the budget still 99 % used
OVERHEAD = {"markdown": Overhead(block=30, marker=3)}
#: a template may not render more than this (with MAX_TEMPLATE_VALUE in render/jinja_env.py)
MAX_TEMPLATE_OUTPUT = 2_000_000

#: a template: the view in, the text out
Renders = Callable[[dict[str, Any]], str]


class Rendered(NamedTuple):
    """The text and exactly the code blocks in it, counted as the budget counts."""

    text: str
    tokens: int  # count_tokens(text), by `counter`
    counter: str
    snippets: list[Snippet]  # exactly the code blocks in `text`

    @property
    def snippets_shortened(self) -> int:
        return sum(sn.shortened for sn in self.snippets)


_CLAIM = re.compile(r"~(\d+) tokens")
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){2,}")
_HEADING = re.compile(r"^(#{1,6})(?=\s|$)")
_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")


def _one_blank_line(text: str) -> str:
    """At most one blank line in a row, anywhere: the reader gains nothing from more."""
    return _BLANK_RUN.sub("\n\n", text)


def _nested_task(text: str, levels: int = 2) -> str:
    """The task as a part of the template: its `# Summary` becomes `### Summary` (under the
    template's `# Task`, never beside `# Relevant code`), and a fence it leaves open is closed
    so the template's own text stays outside it. `# comment` inside a fence is code."""
    out, fence = [], ""
    for line in text.splitlines():
        m = _FENCE_LINE.match(line)
        if m and (not fence or m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)):
            fence = "" if fence else m.group(1)
        elif not fence:
            line = _HEADING.sub(lambda h: "#" * min(6, len(h.group(1)) + levels), line)
        out.append(line)
    if fence:
        out.append(fence)
    return "\n".join(out)


def _view(ctx: Context, snippets: list[Snippet], with_diagram: bool, tokens: int,
          limit: int | None = None) -> dict[str, Any]:
    """What templates see; `limit` shortens every list when even the skeleton is too long."""
    by_id = {s.id: s for s in ctx.symbols}
    related = [s for s in ctx.symbols if s.role != "entry"]
    first = next((line for line in ctx.query.splitlines() if line.strip()), "")
    return {
        "task": _nested_task(ctx.query),
        "task_line": escape_md_inline(first[:200]),
        "family": ctx.family,
        "files": ctx.files[: 10 if limit is None else limit],
        "top_files": ctx.files[: 5 if limit is None else min(5, limit)],
        "symbols": ctx.symbols,
        "entries": [s for s in ctx.symbols if s.role == "entry"],
        "related": related[:limit],
        "connections": [
            {"src": by_id[a].qualified, "dst": by_id[b].qualified, "kind": k}
            for a, b, k in ctx.edges[:MAX_CONNECTIONS] if a in by_id and b in by_id][:limit],
        "diagram": mermaid_diagram(ctx) if with_diagram and ctx.symbols else "",
        "snippets": snippets,
        "sections": ctx.sections,
        "in_section": {name: [by_id[i] for i in ctx.sections.get(name, []) if i in by_id]
                       for name in ("changed", "impact", "tests")},
        "cochanged": ctx.cochanged[:limit],
        "named_tests": ctx.named_tests[:limit],
        # every changed path is what a reviewer checks the rest against: kept longer
        "changed_files": ctx.changed_files[
            : None if limit is None else max(limit, CHANGED_FILES_KEPT)],
        "changed_files_total": len(ctx.changed_files),
        "changes": {c.id: c for c in ctx.changes},
        "removed": ctx.removed[:limit],
        # those the comment has no room for are counted (removed.MAX_REMOVED, `limit`)
        "removed_total": int(ctx.stats.get("removed_symbols", len(ctx.removed))),
        "test_chains": ctx.test_chains,
        "tokens": tokens,
        "counter": counter_name(),
        "notes": [neutralise_mentions(n) for n in ctx.notes],
    }


def _template(fmt: str, template: Path | None) -> Renders:
    """The built-in prompt and markdown in Python (no Jinja import); the PR comment and a
    user's template in Jinja's sandbox."""
    if template is None and fmt in BUILTIN:
        return BUILTIN[fmt]
    from graphiq_ci.render.jinja_env import jinja_template

    return jinja_template(fmt, template)


def render_text(ctx: Context, fmt: str = "markdown", *, max_tokens: int = 2000,
                change_room: int = 0, template: Path | None = None,
                with_diagram: bool = False) -> Rendered:
    """Markdown or prompt text within `max_tokens`, plus what a PR's changed lines cost up to
    `change_room` (a custom template replaces the built-in)."""
    if fmt not in ("markdown", "prompt", "pr_comment") and template is None:
        raise GraphiqError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    tpl = _template(fmt, template)

    limit: int | None = None

    def draw(snips: list[Snippet], diagram: bool) -> str:
        try:
            text = _one_blank_line(tpl(_view(ctx, snips, diagram, 0, limit)))
            if len(text) > MAX_TEMPLATE_OUTPUT:
                raise GraphiqError(f"template {template or fmt}: the template renders more "
                                   f"than {MAX_TEMPLATE_OUTPUT} characters")
            return _one_blank_line(tpl(_view(ctx, snips, diagram, count_tokens(text), limit)))
        except GraphiqError:
            raise
        except Exception as exc:
            if _jinja_error(exc):
                raise GraphiqError(f"template {template or fmt}: {exc}") from None
            if template is None:
                raise
            # a user's template fails like any program: 1 line, exit 2
            raise GraphiqError(f"template {template}: {type(exc).__name__}: {exc}") from None

    # The text around the code leaves room for a PR's changed lines (up to half the budget):
    # the change is what a reviewer came for, before a longer list of files.
    overhead = OVERHEAD.get(fmt, DEFAULT_OVERHEAD) if template is None else DEFAULT_OVERHEAD
    change = change_tokens(ctx.code, overhead)
    budget = max_tokens + min(change_room, change)
    room_wanted = budget - min(budget // 2, change)
    use_diagram = with_diagram
    base = draw([], use_diagram)
    if use_diagram and count_tokens(base) > room_wanted:
        use_diagram = False
        base = draw([], False)
    for shorter in (8, 4, 2, 0):  # shorter lists before cutting text
        if count_tokens(base) <= room_wanted:
            break
        limit = shorter
        base = draw([], use_diagram)
    terms = [str(t) for t in ctx.stats.get("terms", [])]
    room = budget - count_tokens(base)
    kept: list[Snippet] = pack(ctx.code, terms, room, overhead) if room > 0 else []
    text = draw(kept, use_diagram)
    for _ in range(REPACKS):
        over = count_tokens(text) - budget
        if over <= 0 or not kept:
            break
        room -= over + 2
        kept = pack(ctx.code, terms, room, overhead) if room > 0 else []
        text = draw(kept, use_diagram)
    if count_tokens(text) > budget:  # even the skeleton is too long: cut at a line
        text = _cut(text, budget)
    text = text.strip("\n") + "\n"
    claimed = _CLAIM.search(text)  # the header's "~N tokens" was drawn before any cut
    if claimed:
        true = count_tokens(text)
        text = text[:claimed.start(1)] + str(true) + text[claimed.end(1):]
        if count_tokens(text) > budget:  # the new number tokenised longer: one line less
            text = _cut(text, budget)
    kept = [sn for sn in kept if sn.code in text]  # a cut may have dropped a block
    return Rendered(text, count_tokens(text), counter_name(), kept)


def _jinja_error(exc: Exception) -> bool:
    """A Jinja TemplateError (a sandbox refusal, an undefined name); Jinja is imported only
    when a template needs it, and then its errors can only come from it."""
    jinja2 = sys.modules.get("jinja2")
    return jinja2 is not None and isinstance(exc, jinja2.TemplateError)


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
        "files": [f.as_json() for f in ctx.files],
        "symbols": [{k: v for k, v in s._asdict().items() if k not in ("id", "signature")}
                    | {"id": s.id} for s in ctx.symbols],
        "edges": [{"src": a, "dst": b, "kind": k} for a, b, k in ctx.edges],
        "snippets": [s._asdict() for s in rendered.snippets],
        "sections": ctx.sections,
        "cochanged": [f.as_json() for f in ctx.cochanged],
        "named_tests": [f.as_json() for f in ctx.named_tests],
        "changed_files": [f._asdict() for f in ctx.changed_files],
        "changes": [c._asdict() | {"call_sites": [s._asdict() for s in c.call_sites],
                                     "not_updated": [s._asdict() for s in c.not_updated]}
                    for c in ctx.changes],
        "removed": [r._asdict() | {"left_behind": [s._asdict() for s in r.left_behind]}
                    for r in ctx.removed],
        "test_chains": {str(k): v for k, v in ctx.test_chains.items()},
        "notes": ctx.notes,
        "prompt": rendered.text,
        "tokens": rendered.tokens,
        "stats": {**ctx.stats, "tokens": rendered.tokens, "token_counter": rendered.counter,
                  "snippets": len(rendered.snippets),
                  "snippets_shortened": rendered.snippets_shortened},
    }
    import json  # the JSON format only

    return json.dumps(obj, indent=2)

