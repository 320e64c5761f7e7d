"""What each MCP tool returns as structured content; the SDK publishes these as JSON Schema.

The Markdown text of an answer is for the model to read; these are for a client that wants
the same facts as data (paths, lines, ids), so field names follow the CLI's JSON.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class Location(BaseModel):
    qualified: str
    kind: str
    file: str
    line: int
    end_line: int


class Use(Location):
    at: int = Field(description="the line of the call or reference inside this definition")


class RankedFile(BaseModel):
    path: str
    score: float
    why: list[str] = Field(description="the evidence, in words")


class Comparison(BaseModel):
    ref: str | None
    commit: str | None


class ContextAnswer(BaseModel):
    mode: str = Field(description="task, or pr (the branch's change is the starting point)")
    files: list[RankedFile]
    symbols: list[Location]
    tokens: int = Field(description="the text's size, characters / 4")
    notes: list[str]


class SearchHit(Location):
    score: float
    why: str


class SearchAnswer(BaseModel):
    query: str
    family: str = Field(description="how the query was read: symbol, path, error, natural…")
    results: list[SearchHit]


class SymbolAnswer(BaseModel):
    symbol: Location
    code: str
    shortened: bool = Field(description="the code was cut to fit max_tokens")
    callers: list[Use]
    callees: list[Location]
    tests: list[Use]
    others: list[Location] = Field(description="other definitions with the same name")


class LeftBehind(BaseModel):
    caller: str = Field(description="the definition holding the reference (its path at top "
                        "level)")
    file: str
    line: int


class RemovedDefinition(BaseModel):
    qualified: str
    kind: str
    file: str
    line: int = Field(description="where the base had it")
    references: int | None = Field(description="every reference the branch's code still makes "
                                   "to it; null when a method it inherits may answer them")
    left_behind: list[LeftBehind] = Field(description="the first few of those references")


class ImpactAnswer(BaseModel):
    compared_with: Comparison
    changed: list[Location]
    callers: list[Location]
    tests: list[Location]
    named_tests: list[RankedFile] = Field(
        description="test files no call links to the change, named after a changed file or "
        "definition, or a folder holding the change, then those edited in the commits that "
        "last wrote the changed definitions")
    cochanged: list[RankedFile]
    removed: list[RemovedDefinition] = Field(
        description="definitions the branch removed (a rename removes the old name), with the "
        "references its code still makes to them")
    tokens: int
    notes: list[str]


class ReachingCase(BaseModel):
    id: str = Field(description="path::Class::name, as pytest takes it; empty for a helper")
    qualified: str
    line: int
    via: list[str] = Field(description="the chain from this test to a changed symbol")


class AffectedFile(BaseModel):
    path: str
    changed: bool = Field(description="the branch changed this test file itself")
    named_after: str | None = Field(
        None, description="no call links it, but its name follows this changed file or "
        "definition (test_parse.py, res.send.js)")
    cochanged_with: str | None = Field(
        None, description="no call links it, but it changes with this file the branch changed")
    written_with: int | None = Field(
        None, description="how many of the commits that last wrote the changed definitions "
        "also edited this test file")
    cases: list[ReachingCase]


class AffectedAnswer(BaseModel):
    compared_with: Comparison
    changed: list[Location]
    files: list[AffectedFile]
    ids: list[str] = Field(description="the test ids, ready for a runner's command line")
    weaker: list[str] = Field(default_factory=list, description="test files with weaker "
                              "evidence, not listed above (everything=true lists them)")
    notes: list[str]


class FilesAnswer(BaseModel):
    files: list[RankedFile]


class StatusAnswer(BaseModel):
    root: str
    head: str = Field(description="the commit checked out, empty outside git")
    generation: int = Field(description="bumped by every index change; the graph follows it")
    files: int
    symbols: int
    edges: int
    languages: dict[str, int] = Field(description="indexed files per language")
    refreshed_files: list[str] = Field(description="files re-indexed before this answer")
    skipped: dict[str, int] = Field(description="files not indexed, by reason")
    notes: list[str]
