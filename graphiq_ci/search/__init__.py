"""Ranked retrieval over the code graph (GraphIQ's pipeline): `search`, or `rank` in-process."""

from __future__ import annotations

from graphiq_ci.search.graph import GraphIndex
from graphiq_ci.search.graph_cache import load_graph
from graphiq_ci.search.pipeline import Hit, SearchResult, rank, rank_or_names, search
from graphiq_ci.search.score import Boosts

__all__ = ["Boosts", "GraphIndex", "Hit", "SearchResult", "load_graph", "rank", "rank_or_names",
           "search"]
