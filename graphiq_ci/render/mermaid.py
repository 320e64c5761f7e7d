"""A Mermaid flowchart of the kept subgraph, bounded in size, labels escaped."""

from __future__ import annotations

import re

from graphiq_ci.context.model import Context

MAX_NODES = 30
MAX_EDGES = 60
_UNSAFE = re.compile(r"[^\w .:/()-]")


def _label(text: str) -> str:
    """Mermaid labels are quoted; quotes, brackets and markup become plain characters."""
    return _UNSAFE.sub("_", text)[:60]


#: PR mode's node shapes, by section; the PR template prints the same legend
SECTION_SHAPES = {"changed": ('[["', '"]]'), "impact": ('("', '")'), "tests": ('{{"', '"}}')}


def diagram(ctx: Context, highlight: set[int] | None = None) -> str:
    """Task mode: the kept symbols, entry points in double boxes. PR mode (`ctx.sections`):
    only the changed symbols, their callers and the tests that reach them, one shape per
    section, and no diagram when they are none (a branch that only removed a method drew
    the task ranking's symbols as double boxes, which the legend calls changed)."""
    role = {sid: name for name in SECTION_SHAPES for sid in ctx.sections.get(name, [])}
    shown = [s for s in ctx.symbols if s.id in role] if ctx.sections else ctx.symbols
    if not shown:
        return ""
    ids = [s.id for s in shown[:MAX_NODES]]
    node = {sid: f"n{k}" for k, sid in enumerate(ids)}
    bold = highlight if highlight is not None else set(ctx.entry_points)
    lines = ["flowchart LR"]
    for s in shown[:MAX_NODES]:
        shape = (SECTION_SHAPES[role[s.id]] if ctx.sections else
                 ('[["', '"]]') if s.id in bold else ('["', '"]'))
        lines.append(f"  {node[s.id]}{shape[0]}{_label(s.qualified)}{shape[1]}")
    edges = [(a, b, k) for a, b, k in ctx.edges if a in node and b in node and a != b]
    for a, b, kind in edges[:MAX_EDGES]:
        lines.append(f"  {node[a]} -->|{kind}| {node[b]}")
    return "\n".join(lines)
