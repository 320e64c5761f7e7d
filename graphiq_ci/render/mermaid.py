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


def diagram(ctx: Context, highlight: set[int] | None = None) -> str:
    ids = [s.id for s in ctx.symbols[:MAX_NODES]]
    node = {sid: f"n{k}" for k, sid in enumerate(ids)}
    bold = highlight if highlight is not None else set(ctx.entry_points)
    lines = ["flowchart LR"]
    for s in ctx.symbols[:MAX_NODES]:
        shape = ('[["', '"]]') if s.id in bold else ('["', '"]')
        lines.append(f"  {node[s.id]}{shape[0]}{_label(s.qualified)}{shape[1]}")
    edges = [(a, b, k) for a, b, k in ctx.edges if a in node and b in node and a != b]
    for a, b, kind in edges[:MAX_EDGES]:
        lines.append(f"  {node[a]} -->|{kind}| {node[b]}")
    return "\n".join(lines)
