"""The common symbol model every stage speaks: symbols, references, edges.

Language plugins emit `ParsedFile`s; the indexer resolves their references into edges of an
`EdgeKind`; search and context only ever see these types, never a language name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum
from typing import NamedTuple


class Kind(str, Enum):
    """What a symbol is. Plugins may only use these values (rq's shared Kind vocabulary)."""

    FILE = "file"
    MODULE = "module"
    NAMESPACE = "namespace"
    CLASS = "class"
    INTERFACE = "interface"
    STRUCT = "struct"
    ENUM = "enum"
    TRAIT = "trait"
    TYPE = "type"
    FUNCTION = "function"
    METHOD = "method"
    CONSTRUCTOR = "constructor"
    FIELD = "field"
    CONSTANT = "constant"
    VARIABLE = "variable"
    IMPORT = "import"


#: Kinds that define behaviour or types; the scorer boosts these, the context builder expands them.
CALLABLE_KINDS = frozenset({Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR})
TYPE_KINDS = frozenset(
    {Kind.CLASS, Kind.INTERFACE, Kind.STRUCT, Kind.ENUM, Kind.TRAIT, Kind.TYPE}
)


class EdgeKind(str, Enum):
    # structural: from syntax
    CALLS = "calls"
    REFERENCES = "references"
    IMPORTS = "imports"
    CONTAINS = "contains"
    EXTENDS = "extends"
    IMPLEMENTS = "implements"
    TESTS = "tests"
    # deep: from shared tokens (GraphIQ's deep graph)
    SHARES_TYPE = "shares_type"
    SHARES_ERROR_TYPE = "shares_error_type"
    SHARES_DATA_SHAPE = "shares_data_shape"
    SHARES_CONSTANT = "shares_constant"
    COMMENT_REF = "comment_ref"
    # a declaration → its one definition (C's prototype in a header → the body in a .c file);
    # last, so the codes of the kinds above (their enum index) stay what cached graphs hold
    DECLARES = "declares"


EDGE_WEIGHTS: dict[EdgeKind, float] = {
    EdgeKind.CALLS: 1.0,
    EdgeKind.REFERENCES: 0.8,
    EdgeKind.IMPORTS: 0.6,
    EdgeKind.CONTAINS: 0.7,
    EdgeKind.EXTENDS: 0.9,
    EdgeKind.IMPLEMENTS: 0.9,
    EdgeKind.TESTS: 0.3,
    EdgeKind.SHARES_TYPE: 0.5,
    EdgeKind.SHARES_ERROR_TYPE: 0.5,
    EdgeKind.SHARES_DATA_SHAPE: 0.4,
    EdgeKind.SHARES_CONSTANT: 0.4,
    EdgeKind.COMMENT_REF: 0.5,
    EdgeKind.DECLARES: 0.9,
}

STRUCTURAL_EDGES = frozenset(
    {
        EdgeKind.CALLS,
        EdgeKind.REFERENCES,
        EdgeKind.IMPORTS,
        EdgeKind.CONTAINS,
        EdgeKind.EXTENDS,
        EdgeKind.IMPLEMENTS,
        EdgeKind.TESTS,
        EdgeKind.DECLARES,
    }
)
DEEP_EDGES = frozenset(EdgeKind) - STRUCTURAL_EDGES


#: what `scope_keys` puts between a qualified name and its occurrence number; no name has it
SCOPE_SEP = "\x1f"


def scope_keys(definitions: Iterable[tuple[str, str]]) -> list[str]:
    """Each of a file's definitions (qualified name, kind), in order, as a reference's scope
    and a symbol's parent name it: its qualified name; but a function, method or
    constructor whose name an earlier definition has (an overload, a property's setter, a
    clause) gets that name, SCOPE_SEP and its occurrence number. Named by the qualified name
    alone, the calls inside a second `parse(...)` overload counted as the first one's: its
    callers' lines and its tests were the wrong method's. A type's namesakes (an `impl`
    block, an extension, a companion object) still name the first: they are one type."""
    seen: Counter[str] = Counter()
    keys = []
    for name, kind in definitions:
        seen[name] += 1
        keys.append(f"{name}{SCOPE_SEP}{seen[name]}" if seen[name] > 1 and kind in
                    CALLABLE_KINDS else name)
    return keys


def qualified_of_key(key: str) -> str:
    """The qualified name a `scope_keys` key stands for."""
    return key.partition(SCOPE_SEP)[0]


class Symbol(NamedTuple):
    """One definition. `parent` is the enclosing symbol's key (`scope_keys`; lexical nesting
    only), or the type a method is declared on from outside it."""

    name: str
    qualified: str
    kind: Kind
    line: int
    end_line: int
    signature: str = ""
    doc: str = ""
    source: str = ""
    visibility: str = ""  # "public" | "private" | "" (unknown: no signal)
    parent: str | None = None
    # only declared here, defined elsewhere: a prototype `int f(int);` (index/pairs.py links it
    # to its definition, so a use of `f` reaches the body)
    declaration: bool = False
    arity: str = ""  # parameters of a callable: "2", "1+" (a trailing varargs); "": not known
    returns: str = ""  # the type a callable declares it returns, by name (lang/node_facts.py)


class Reference(NamedTuple):
    """A use of a name inside `scope` (the enclosing symbol's key, `scope_keys`; "" = file level).

    For imports `name` is the imported module or path as written and `alias` the names bound;
    for a call through a name an import binds (`util.merge()`), `alias` is that name.
    `receiver_type` is the type a method is called on, when the file shows it (`c.send()`
    with `c: Client` → "Client"; a call when the receiver is one's result, see
    lang/receivers.py), else "". `bare`: a call whose name
    nothing qualifies (`f()`, `new Foo()`; not `x.f()` or `a::f()`), which in most languages
    cannot reach a method.
    """

    scope: str
    name: str
    kind: EdgeKind
    line: int
    alias: tuple[str, ...] = ()
    receiver_type: str = ""
    bare: bool = False
    arity: int = -1  # a call's argument count (-1: not known)


class DeepToken(NamedTuple):
    """A token a symbol exposes to the deep graph (a type in its signature, a field it reads…)."""

    scope: str
    kind: EdgeKind  # one of DEEP_EDGES
    token: str


class ParsedFile:
    """Everything a plugin extracts from one file (filled in as the extractor reads it)."""

    def __init__(self, path: str, language: str, error: str = "") -> None:
        self.path = path
        self.language = language
        self.symbols: list[Symbol] = []
        self.references: list[Reference] = []
        self.deep_tokens: list[DeepToken] = []
        self.error = error  # non-fatal: e.g. "syntax errors at lines 3, 9"

    def __eq__(self, other: object) -> bool:
        """The same facts (two extractions of one file, whole query and narrowed, compare)."""
        return isinstance(other, ParsedFile) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return (f"ParsedFile({self.path!r}, {len(self.symbols)} symbols, "
                f"{len(self.references)} references, error={self.error!r})")
