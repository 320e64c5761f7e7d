"""The context a task gets: ranked files and symbols, the kept subgraph, code to show, stats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: kinds of data members (fields, constants, variables, imports): shown with their container,
#: and weaker evidence than a type or function of the same name
DATA_KINDS = frozenset({"field", "constant", "variable", "import"})


@dataclass
class ChangedFile:
    """A path the branch changed, with its +/- line counts (PR mode's changed-files list)."""

    path: str
    status: str  # added | modified | deleted | renamed
    added: int | None  # lines; None for a binary file
    deleted: int | None


@dataclass
class CallSite:
    """Where a changed symbol is called: the caller and the call's line."""

    caller: str  # qualified name
    file: str
    line: int  # the call's line
    updated: bool  # the PR changed a line of the caller
    possible: bool = False  # an unresolved call of its name that may dispatch to it


@dataclass
class SymbolChange:
    """A changed symbol as the PR comment reports it: its callers, and whether its signature
    changed (then the callers the branch left alone are a warning)."""

    id: int
    signature_changed: bool
    callers: int  # every caller in the repository
    call_sites: list[CallSite]  # the first few, with the call's line
    added: bool = False  # new on the branch: no signature changed, no caller left behind

    @property
    def not_updated(self) -> list[CallSite]:
        """When the signature changed: the callers this PR did not touch."""
        return [c for c in self.call_sites if not c.updated] if self.signature_changed else []


@dataclass
class ContextSymbol:
    """A symbol of the answer, with why it is there and its role in it."""

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
    """A ranked file, with its score and the evidence for it."""

    path: str
    score: float
    reasons: list[str]  # the score's arithmetic, by feature name (what --explain prints)
    why: list[str] = field(default_factory=list)  # the other evidence, in words
    matched: list[str] = field(default_factory=list)  # task words its text uses
    defines: list[str] = field(default_factory=list)  # its best definitions for the task


@dataclass
class Snippet:
    """Code as rendered: one block per file, `…` lines where lines are left out."""

    symbol_id: int  # 0 when the block holds several definitions
    file: str
    line: int
    end_line: int
    language: str
    code: str
    shortened: bool = False
    ranges: str = ""  # the lines shown, e.g. "12-40, 88-95"
    symbols: list[str] = field(default_factory=list)  # the definitions it shows


@dataclass
class CodeUnit:
    """One candidate piece of code: a definition's lines (a container's own lines only)."""

    file: str
    name: str
    qualified: str
    kind: str
    line: int
    end_line: int
    runs: list[tuple[int, int]]  # the lines it shows, as inclusive 1-based runs
    score: float
    symbol_id: int = 0  # 0: the lines outside every definition
    reasons: list[str] = field(default_factory=list)
    focus: tuple[int, ...] = ()  # lines to show first when it is shortened (what a PR changed)


@dataclass
class CodeCandidates:
    """The code units a render may show, best first, with the sources they point into."""

    units: list[CodeUnit]  # best first
    sources: dict[str, list[str]]  # path → its lines, read fresh from the work tree
    languages: dict[str, str]
    #: symbol ids whose code repeats a unit's word for word: neither shown nor listed
    copies: frozenset[int] = frozenset()


@dataclass
class Context:
    """Everything one `context` call found: what every format renders from."""

    query: str
    family: str
    entry_points: list[int] = field(default_factory=list)
    files: list[ContextFile] = field(default_factory=list)
    symbols: list[ContextSymbol] = field(default_factory=list)
    edges: list[tuple[int, int, str]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    #: PR mode: named groups of symbol ids ("changed", "impact", "tests") and co-changed files
    sections: dict[str, list[int]] = field(default_factory=dict)
    cochanged: list[ContextFile] = field(default_factory=list)
    #: PR mode: test files named after a changed file or definition (`test_parse.py`)
    named_tests: list[ContextFile] = field(default_factory=list)
    #: PR mode: for a test reaching the change through calls, the chain (test first)
    test_chains: dict[int, list[str]] = field(default_factory=dict)
    #: PR mode: every file the branch changed, code or not, with its line counts
    changed_files: list[ChangedFile] = field(default_factory=list)
    #: PR mode: per changed symbol, its signature change, callers and call sites
    changes: list[SymbolChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the code worth showing, best first; the renderer packs it into the token budget
    code: CodeCandidates = field(default_factory=lambda: CodeCandidates([], {}, {}))
