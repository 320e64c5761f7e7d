"""Indexing: walk → parse (parallel) → write (batched) → resolve references → deep edges."""

from __future__ import annotations

from graphiq_ci.index.run import IndexReport, find_root, run_index

__all__ = ["IndexReport", "find_root", "run_index"]
