"""The context builder (CodeGraph's method on top of the ranked retrieval)."""

from __future__ import annotations

from graphiq_ci.context.builder import Options, assemble, build_context
from graphiq_ci.context.model import Context, ContextFile, ContextSymbol, Snippet

__all__ = ["Context", "ContextFile", "ContextSymbol", "Options", "Snippet", "assemble",
           "build_context"]
