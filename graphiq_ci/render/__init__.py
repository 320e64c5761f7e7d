"""Rendering: templates, Markdown safety, token counting, Mermaid.

Kept import-light: `graphiq_ci.render.safe` is used by the GitHub client, which must not pay
for Jinja2. `render_text` and friends load on first use.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMATS", "Rendered", "render_json", "render_text"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from graphiq_ci.render import output

        return getattr(output, name)
    raise AttributeError(name)
