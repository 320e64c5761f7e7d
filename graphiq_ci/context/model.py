"""The context a task gets: ranked files and symbols, the kept subgraph, snippets, stats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ContextSymbol:
    id: int
    name: str
    qualified: str
    kind: str
    file: str
    line: int
    end_line: int
    score: float
    reasons: list[str]
    role: str = "related"  # entry | related | test | changed | caller | callee
    signature: str = ""


@dataclass
class ContextFile:
    path: str
    score: float
    reasons: list[str]


@dataclass
class Snippet:
    symbol_id: int
    file: str
    line: int
    end_line: int
    language: str
    code: str
    shortened: bool = False


@dataclass
class Context:
    query: str
    family: str
    entry_points: list[int] = field(default_factory=list)
    files: list[ContextFile] = field(default_factory=list)
    symbols: list[ContextSymbol] = field(default_factory=list)
    edges: list[tuple[int, int, str]] = field(default_factory=list)
    snippets: list[Snippet] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    #: PR mode: named groups of symbol ids ("changed", "impact", "tests") and co-changed files
    sections: dict[str, list[int]] = field(default_factory=dict)
    cochanged: list[ContextFile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
