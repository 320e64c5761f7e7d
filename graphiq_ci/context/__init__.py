"""The context builder (CodeGraph's method on top of the ranked retrieval), task and PR mode."""

from __future__ import annotations

from graphiq_ci.context.api import build_context, nothing_found
from graphiq_ci.context.builder import Options, assemble
from graphiq_ci.context.model import Context, ContextFile, ContextSymbol, Snippet

__all__ = ["Context", "ContextFile", "ContextSymbol", "Options", "Snippet", "assemble",
           "build_context", "nothing_found"]
