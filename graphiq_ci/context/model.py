"""The context a task gets: ranked files and symbols, the kept subgraph, code to show, stats.

Records are NamedTuples, and the few that are filled in step by step (a `Context`, a ranked
`ContextFile`, a `CodeUnit` gaining reasons) plain classes: every `context` call imports these,
and creating them as dataclasses (generated code, compiled at import) plus importing
`dataclasses` itself was about a sixth of a warm call on zod (#14, bench_index_ab.py --context).
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: kinds of data members (fields, constants, variables, imports): shown with their container,
#: and weaker evidence than a type or function of the same name
DATA_KINDS = frozenset({"field", "constant", "variable", "import"})


class ChangedFile(NamedTuple):
    """A path the branch changed, with its +/- line counts (PR mode's changed-files list)."""

    path: str
    status: str  # added | modified | deleted | renamed
    added: int | None  # lines; None for a binary file
    deleted: int | None


class CallSite(NamedTuple):
    """Where a changed symbol is called: the caller and the call's line."""

    caller: str  # qualified name
    file: str
    line: int  # the call's line
    updated: bool  # the PR changed a line of the caller
    possible: bool = False  # an unresolved call of its name that may dispatch to it
    test: bool = False  # a test's call: listed only when the signature changed (it breaks too)


class SymbolChange(NamedTuple):
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


class RemovedSymbol(NamedTuple):
    """A definition the branch removed (a rename removes the old name), as the PR comment
    reports it: each reference the work tree still makes to it now names what is not there."""

    qualified: str
    kind: str
    file: str  # where the base had it (a renamed file's old path)
    line: int
    references: int | None  # every reference left to it; None: an inherited one may answer
    left_behind: list[CallSite]  # the first few


class ContextSymbol(NamedTuple):
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


class ContextFile:
    """A ranked file, with its score and the evidence for it (the words come later:
    `builder._explain_files`)."""

    def __init__(self, path: str, score: float, reasons: list[str]) -> None:
        self.path = path
        self.score = score
        self.reasons = reasons  # the score's arithmetic, by feature name (what --explain prints)
        self.why: list[str] = []  # the other evidence, in words
        self.matched: list[str] = []  # task words its text uses
        self.defines: list[str] = []  # its best definitions for the task

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "score": self.score, "reasons": self.reasons,
                "why": self.why, "matched": self.matched, "defines": self.defines}


class Snippet(NamedTuple):
    """Code as rendered: one block per file, `…` lines where lines are left out."""

    symbol_id: int  # 0 when the block holds several definitions
    file: str
    line: int
    end_line: int
    language: str
    code: str
    shortened: bool
    ranges: str  # the lines shown, e.g. "12-40, 88-95"
    symbols: list[str]  # the definitions it shows


class CodeUnit:
    """One candidate piece of code: a definition's lines (a container's own lines only).

    A plain class: hundreds are built per query, and the copies that keep a unit with the
    same code in another file add to the kept unit's `reasons`."""

    __slots__ = ("end_line", "file", "focus", "kind", "line", "name", "qualified", "reasons",
                 "runs", "score", "symbol_id")

    def __init__(self, file: str, name: str, qualified: str, kind: str, line: int,
                 end_line: int, runs: list[tuple[int, int]], score: float, symbol_id: int = 0,
                 reasons: list[str] | None = None, focus: tuple[int, ...] = ()) -> None:
        self.file = file
        self.name = name
        self.qualified = qualified
        self.kind = kind
        self.line = line
        self.end_line = end_line
        self.runs = runs  # the lines it shows, as inclusive 1-based runs
        self.score = score
        self.symbol_id = symbol_id  # 0: the lines outside every definition
        self.reasons = [] if reasons is None else reasons
        self.focus = focus  # lines to show first when it is shortened (what a PR changed)

    def with_score(self, score: float) -> CodeUnit:
        """This unit scored `score` (its reasons are the same list)."""
        return CodeUnit(self.file, self.name, self.qualified, self.kind, self.line,
                        self.end_line, self.runs, score, self.symbol_id, self.reasons,
                        self.focus)

    def __repr__(self) -> str:
        return f"CodeUnit({self.qualified!r} {self.file}:{self.line}, score={self.score:.4g})"


class CodeCandidates(NamedTuple):
    """The code units a render may show, best first, with the sources they point into."""

    units: list[CodeUnit]  # best first
    sources: dict[str, list[str]]  # path → its lines, read fresh from the work tree
    languages: dict[str, str]
    #: symbol ids whose code repeats a unit's word for word: neither shown nor listed
    copies: frozenset[int] = frozenset()


class Context:
    """Everything one `context` call found: what every format renders from. The builder and
    PR mode fill it in step by step; every list and mapping starts empty unless given."""

    def __init__(self, query: str, family: str, *, entry_points: list[int] | None = None,
                 files: list[ContextFile] | None = None,
                 symbols: list[ContextSymbol] | None = None,
                 edges: list[tuple[int, int, str]] | None = None,
                 stats: dict[str, Any] | None = None,
                 sections: dict[str, list[int]] | None = None,
                 cochanged: list[ContextFile] | None = None,
                 named_tests: list[ContextFile] | None = None,
                 test_chains: dict[int, list[str]] | None = None,
                 changed_files: list[ChangedFile] | None = None,
                 changes: list[SymbolChange] | None = None,
                 removed: list[RemovedSymbol] | None = None, notes: list[str] | None = None,
                 code: CodeCandidates | None = None) -> None:
        self.query = query
        self.family = family
        self.entry_points = [] if entry_points is None else entry_points
        self.files = [] if files is None else files
        self.symbols = [] if symbols is None else symbols
        self.edges = [] if edges is None else edges
        self.stats = {} if stats is None else stats
        #: PR mode: named groups of symbol ids ("changed", "impact", "tests")
        self.sections = {} if sections is None else sections
        self.cochanged = [] if cochanged is None else cochanged
        #: PR mode: test files named after a changed file or definition (`test_parse.py`)
        self.named_tests = [] if named_tests is None else named_tests
        #: PR mode: for a test reaching the change through calls, the chain (test first)
        self.test_chains = {} if test_chains is None else test_chains
        #: PR mode: every file the branch changed, code or not, with its line counts
        self.changed_files = [] if changed_files is None else changed_files
        #: PR mode: per changed symbol, its signature change, callers and call sites
        self.changes = [] if changes is None else changes
        #: PR mode: the definitions the branch removed, with the references left to them
        self.removed = [] if removed is None else removed
        self.notes = [] if notes is None else notes
        #: the code worth showing, best first; the renderer packs it into the token budget
        self.code = CodeCandidates([], {}, {}) if code is None else code
