"""graphiq-ci: a repository plus a task → the files, symbols and snippets that matter."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without typing's import: every start pays it
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"
__all__ = ["build_context", "render_text"]


def __getattr__(name: str) -> Any:
    """`graphiq_ci.build_context` and `graphiq_ci.render_text`, imported on first use only."""
    if name == "build_context":
        from graphiq_ci.context import build_context

        return build_context
    if name == "render_text":
        from graphiq_ci.render.output import render_text

        return render_text
    raise AttributeError(name)
