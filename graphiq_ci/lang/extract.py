"""One extractor for every language: run the language's `.scm` query, map captures to the model.

Capture names in `lang/queries/*.scm` are the whole contract between a language and the rest:

    @definition.<kind>  a definition node (<kind> is a `Kind` value), with @name inside it
                        and optionally @doc (a docstring node)
    @reference.call     a call; @name is the callee name, @receiver what it is called on
    @reference.type     a type used by name; @name
    @reference.extends / @reference.implements   a supertype; @name
    @reference.through  a name read through a @receiver (`tui.Width`): a reference where
                        the receiver is a name an import binds, and no call there has it
    @reference.import   an import; @name is the module as written, @alias each bound name
                        (without one, @alias.path: a path whose last segment it binds)
    @deep.field         a field or property accessed (data shape)
    @deep.literal       a number or string literal (shared constants)
    @comment            a comment (names mentioned in it become comment references)
    @binding            a variable whose type the file shows: @name (or @attribute, a member
                        of the enclosing class) and its declared @type, or the type a
                        constructor call @constructs, or @constructs.new: a constructor
                        function named New/new and the type (Go's `NewProgram(…)`: a
                        Program), or the call it is @assigned from (`p = shop.pool()`),
                        whose declared return type resolution reads; see receivers.py
    @owner              inside a definition: the type a method belongs to when it is not
                        nested in it (a Go receiver)
    @declaration        on a definition node too: it only declares the name (a C prototype),
                        the body is elsewhere (index/pairs.py finds it)
    @body               inside a definition's match: its body, when the grammar puts it beside
                        the definition node rather than in it (Dart's method_signature, then
                        function_body): the symbol's range runs to the body's end

The query itself, compiled, and our `#has-parent?` predicate: lang/compiled.py.

Queries run in C; Python only walks the captures once, so a 10k-line file costs milliseconds.
"""

from __future__ import annotations

import bisect
import re
from functools import cache

import tree_sitter as ts
from tree_sitter_language_pack import get_language

from graphiq_ci.lang.compiled import has_parent, matches, narrowed_query, parser, query
from graphiq_ci.lang.node_facts import (
    argument_count,
    clean_comment,
    decorated_at,
    is_bare,
    leading_comment,
    literal_token,
    moved_into,
    node_text,
    parameter_count,
    return_type,
    signature_of,
    visibility_of,
)
from graphiq_ci.lang.receivers import Bindings, CallResult, binding_scope, self_type
from graphiq_ci.lang.spec import LanguageSpec
from graphiq_ci.model import (
    TYPE_KINDS,
    DeepToken,
    EdgeKind,
    Kind,
    ParsedFile,
    Reference,
    Symbol,
    scope_keys,
)

MAX_SOURCE_CHARS = 6000
_ERROR_NAME = re.compile(r"(Error|Exception|Err|Fault|Failure)$")
_CODE_NAME = re.compile(r"\b(?:[A-Z][a-z0-9]+[A-Z]\w*|[a-z]+_[a-z_0-9]+|[A-Za-z_]\w*\(\))")
_PRIMITIVES = frozenset(
    "int str float bool bytes None any string number boolean void object unknown never "
    "null undefined u8 u16 u32 u64 i8 i16 i32 i64 usize isize f32 f64 char long short double "
    "byte Self self this list dict set tuple List Dict Set Tuple Optional Any Union".split()
)
#: the references that may name their target through an imported module (their alias)
_THROUGH = frozenset({EdgeKind.CALLS, EdgeKind.REFERENCES})
_REFERENCE_KINDS = {
    "call": EdgeKind.CALLS,
    "type": EdgeKind.REFERENCES,
    "extends": EdgeKind.EXTENDS,
    "implements": EdgeKind.IMPLEMENTS,
    "import": EdgeKind.IMPORTS,
}


class _Def:
    """A definition found in a file's matches; its parent and qualified name come after."""

    __slots__ = ("body", "declaration", "doc_node", "end", "key", "kind", "name", "node",
                 "owner", "parent", "qualified", "start")

    def __init__(self, start: int, end: int, node: ts.Node, name: str, kind: Kind,
                 doc_node: ts.Node | None, owner: str = "", declaration: bool = False,
                 body: ts.Node | None = None) -> None:
        self.start = start
        self.end = end
        self.node = node
        self.name = name
        self.kind = kind
        self.doc_node = doc_node
        self.owner = owner
        self.declaration = declaration
        self.body = body  # a body beside the definition node (Dart), in its range
        self.parent: _Def | None = None
        self.qualified = ""
        self.key = ""  # its qualified name, made unique in its file (model.scope_keys)


@cache
def _keywords(grammar: str) -> frozenset[str]:
    """The grammar's keywords (its anonymous, word-like tokens): no definition inside an error
    recovery is named one. Outside one they may be names (Python's `def match`, JavaScript's
    `catch()` method, Rust's `fn default`)."""
    language = get_language(grammar)  # type: ignore[arg-type]
    return frozenset(kind for i in range(language.node_kind_count)
                     if not language.node_kind_is_named(i) and language.node_kind_is_visible(i)
                     and (kind := language.node_kind_for_id(i)) and kind.isidentifier())


def _nest(defs: list[_Def]) -> None:
    """Give each definition its innermost enclosing definition and a qualified name."""
    stack: list[_Def] = []
    for d in defs:
        while stack and stack[-1].end <= d.start:
            stack.pop()
        if stack and d.end <= stack[-1].end:
            d.parent = stack[-1]
        if d.kind is Kind.FUNCTION and d.parent is not None and d.parent.kind in TYPE_KINDS:
            d.kind = Kind.METHOD
        if d.parent is None and d.owner:
            d.qualified = f"{d.owner}.{d.name}"
        else:
            d.qualified = f"{d.parent.qualified}.{d.name}" if d.parent else d.name
        stack.append(d)
    for d, key in zip(defs, scope_keys((d.qualified, d.kind) for d in defs), strict=True):
        d.key = key


class _Scopes:
    """Innermost definition enclosing a byte offset, by bisection over sorted starts."""

    def __init__(self, defs: list[_Def]) -> None:
        self.defs = defs
        self.starts = [d.start for d in defs]

    def at(self, offset: int) -> str:
        d = self.def_at(offset)
        return d.key if d else ""

    def def_at(self, offset: int) -> _Def | None:
        i = bisect.bisect_right(self.starts, offset) - 1
        d = self.defs[i] if i >= 0 else None
        while d is not None and not (d.start <= offset < d.end):
            d = d.parent
        return d


def extract(spec: LanguageSpec, path: str, data: bytes, narrow: bool = False) -> ParsedFile:
    """Symbols, references and deep tokens of one file (tree-sitter recovers from syntax errors).

    `narrow`: compile only what this file can match, for a process that parses no other file
    of the language (the facts are the same; the whole query compiles once for many files)."""
    assert spec.grammar and spec.query
    tree = parser(spec.grammar).parse(data)
    queries = narrowed_query(spec, tree) if narrow else query(spec)
    out = ParsedFile(path=path, language=spec.name)

    defs: dict[tuple[int, int], _Def] = {}
    uses: list[_Use] = []
    deep: list[tuple[int, EdgeKind, str]] = []
    bindings: list[tuple[int, str, bool, str, bool]] = []  # at, var, attribute?, type, declared?
    results: list[tuple[int, str, bool, tuple[int, int]]] = []  # at, var, attribute?, call span
    decorators: list[tuple[int, int, int]] = []  # start, end, where its uses count
    through: list[tuple[int, int, str, str]] = []  # at, line, name, receiver: `pkg.Value`
    calls: dict[tuple[int, int], int] = {}  # a call's span → its index in `uses`
    receivers: dict[int, tuple[int, int]] = {}  # index in `uses` → its receiver's span
    roles = _ROLES  # a local: read once per capture
    for rule, caps in matches(queries, tree):
        if rule is not None and not has_parent(caps[rule[0]][0], rule[1]):
            continue
        for key, nodes in caps.items():
            role = roles.get(key)
            if role is None:
                role = roles[key] = _role(key)
            if not role:  # a part of the match (its name, receiver, doc…), read below
                continue
            node = nodes[0]
            if role == _DEFINITION:
                names = caps.get("name")
                doc = caps.get("doc")
                known = defs.get((node.start_byte, node.end_byte))
                if known is not None and doc and known.doc_node is None:
                    known.doc_node = doc[0]  # the same definition, matched by its docstring pattern
                if not names or known is not None or not node_text(names[0]).strip():
                    continue  # a zero-width or blank name (error recovery) defines nothing
                if node.has_error and node_text(names[0]) in _keywords(spec.grammar):
                    continue  # `else if (x) {…}` recovered as a function named `if`
                owner = caps.get("owner")
                body = caps.get("body")
                defs[(node.start_byte, node.end_byte)] = _Def(
                    node.start_byte, body[0].end_byte if body else node.end_byte, node,
                    node_text(names[0]).strip("`"), Kind(key.split(".", 1)[1]),
                    doc[0] if doc else None, node_text(owner[0]) if owner else "",
                    "declaration" in caps, body[0] if body else None,
                )
            elif role == _REFERENCE:
                names = caps.get("name")
                if key == "reference.through":  # kept below if its receiver is a module
                    receiver = caps.get("receiver")
                    if names and receiver:
                        through.append((node.start_byte, node.start_point[0] + 1,
                                        node_text(names[0]), node_text(receiver[0])))
                    continue
                edge = _REFERENCE_KINDS.get(key.split(".", 1)[1])
                if not names or edge is None:
                    continue
                alias = tuple(node_text(a) for a in caps.get("alias", []))
                if edge is EdgeKind.IMPORTS and not alias and "alias.path" in caps:
                    alias = (node_text(caps["alias.path"][0]).rsplit("/", 1)[-1],)
                name = node_text(names[0]).strip("'\"`")
                receiver = caps.get("receiver")
                if edge is EdgeKind.CALLS:
                    calls[(node.start_byte, node.end_byte)] = len(uses)
                    if receiver:
                        receivers[len(uses)] = (receiver[0].start_byte, receiver[0].end_byte)
                uses.append((node.start_byte, node.start_point[0] + 1, edge, name, alias,
                             node_text(receiver[0]) if receiver else "",
                             edge is EdgeKind.CALLS and not receiver and is_bare(node, names[0]),
                             argument_count(node) if edge is EdgeKind.CALLS else -1))
                if edge in (EdgeKind.REFERENCES, EdgeKind.CALLS) and _ERROR_NAME.search(name):
                    deep.append((node.start_byte, EdgeKind.SHARES_ERROR_TYPE, name))
                elif edge is EdgeKind.REFERENCES and name not in _PRIMITIVES:
                    deep.append((node.start_byte, EdgeKind.SHARES_TYPE, name))
            elif role == _FIELD:
                deep.append((node.start_byte, EdgeKind.SHARES_DATA_SHAPE, node_text(node)))
            elif role == _LITERAL:
                literal = literal_token(node_text(node))
                if literal:
                    deep.append((node.start_byte, EdgeKind.SHARES_CONSTANT, literal))
            elif role == _BINDING:
                named = caps.get("name") or caps.get("attribute")
                typed = caps.get("type") or caps.get("constructs")
                made = caps.get("constructs.new")  # `NewProgram` -> Program
                type_name = node_text(typed[0]) if typed else node_text(made[0])[3:] if made \
                    else ""
                assigned = caps.get("assigned")  # `p = shop.pool()`: typed once uses are read
                if named and assigned:
                    results.append((node.start_byte, node_text(named[0]), "attribute" in caps,
                                    (assigned[0].start_byte, assigned[0].end_byte)))
                elif named and type_name:
                    bindings.append((node.start_byte, node_text(named[0]), "attribute" in caps,
                                     type_name, "type" in caps))
            elif role == _DECORATOR:
                decorators.append((node.start_byte, node.end_byte, decorated_at(node)))
            else:  # a comment
                for mention in dict.fromkeys(_CODE_NAME.findall(node_text(node))):  # in order
                    deep.append((node.start_byte, EdgeKind.COMMENT_REF, mention.rstrip("()")))

    ordered = sorted(defs.values(), key=lambda d: (d.start, -d.end))
    _nest(ordered)
    for d in ordered:
        signature = signature_of(d.node, data)
        doc_text = clean_comment(node_text(d.doc_node)) if d.doc_node else leading_comment(d.node)
        out.symbols.append(
            Symbol(
                name=d.name, qualified=d.qualified, kind=d.kind,
                line=d.node.start_point[0] + 1, end_line=(d.body or d.node).end_point[0] + 1,
                signature=signature, doc=doc_text,
                source=data[d.start:d.end].decode("utf-8", "replace")[:MAX_SOURCE_CHARS],
                visibility=visibility_of(d.name, signature),
                parent=d.parent.key if d.parent else (d.owner or None),
                declaration=d.declaration,
                arity=parameter_count(d.node),
                returns=_returns(d) if d.kind in _CALLABLES else "",
            )
        )
    scopes = _Scopes(ordered)
    types = Bindings(imported={a.rsplit(".", 1)[-1] for *_, edge, _, alias, _, _, _ in uses
                               if edge is EdgeKind.IMPORTS for a in alias})
    for at, variable, is_attribute, type_name, is_declared in bindings:
        types.add(binding_scope(scopes.def_at(at), is_attribute), variable, type_name,
                  is_declared)
    chains = _Chains(uses, calls, receivers, types)
    for at, variable, is_attribute, span in results:  # in file order: `b = a.g()` reads `a`
        scope = scopes.def_at(at)
        where = binding_scope(scope, is_attribute)
        # weaker than what the file states: a constructor or annotation typing the name too
        # (Rust's shadowing `let stream = Body::from_stream(stream)`) is kept alone
        if span in calls and not types.binds(where, variable):
            # where the call tells nothing, the name's own reading stands (a capitalised
            # `VERSION_PATTERN = re.compile(…)` reads as a type no file here defines)
            types.add(where, variable, chains.call(
                calls[span], scope, variable if types.names_a_type(variable) else ""), False)
    decorators.sort()
    called = {(at, name) for at, _, edge, name, *_ in uses if edge is EdgeKind.CALLS}
    uses += [(at, line, EdgeKind.REFERENCES, name, (), receiver, False, -1)
             for at, line, name, receiver in through
             if receiver in types.imported and (at, name) not in called]

    for k, (at, line, edge, name, alias, receiver_text, bare, arguments) in enumerate(uses):
        scope = scopes.def_at(moved_into(decorators, at))
        if edge in _THROUGH and receiver_text in types.imported:
            alias = (receiver_text,)  # through an imported name: `util.merge(a)`, `tea.Model`
        out.references.append(Reference(scope.key if scope else "", name, edge, line,
                                        alias, chains.receiver_type(k, scope), bare,
                                        arguments))
    seen: set[tuple[str, EdgeKind, str]] = set()
    for offset, edge, token in deep:
        found = (scopes.at(offset), edge, token)
        if found[0] and found not in seen:
            seen.add(found)
            out.deep_tokens.append(DeepToken(*found))
    if tree.root_node.has_error:
        out.error = "syntax errors (symbols before and after them are still indexed)"
    return out


#: the definitions a declared return type is read from
_CALLABLES = frozenset({Kind.FUNCTION, Kind.METHOD})
#: how many calls deep a chain's receiver is followed (`a.b().c().d()`)
MAX_CHAIN = 3


_Use = tuple[int, int, EdgeKind, str, tuple[str, ...], str, bool, int]


class _Chains:
    """Receiver types of a file's uses, where a receiver may be another call's result."""

    def __init__(self, uses: list[_Use], calls: dict[tuple[int, int], int],
                 receivers: dict[int, tuple[int, int]], types: Bindings) -> None:
        self.uses = uses  # (at, line, edge, name, alias, receiver text, bare, arguments)
        self.calls = calls  # a call's span → its index in `uses`
        self.receivers = receivers  # index in `uses` → its receiver's span
        self.types = types

    def receiver_type(self, k: int, scope: _Def | None, depth: int = 0) -> str:
        """Use `k`'s receiver type: what the file shows (receivers.py), or, for a receiver
        that is itself a call (`doc.select(q).remove()`), that call, for resolution to read
        its target's declared return type (index/resolve.py)."""
        written = self.types.receiver_type(self.uses[k][5], scope)
        inner = self.calls.get(self.receivers.get(k, (0, 0)))
        if inner is None or depth >= MAX_CHAIN:
            return written
        return self.call(inner, scope, written, depth + 1)

    def call(self, k: int, scope: _Def | None, written: str = "", depth: int = 0) -> str:
        """Call `k` as a receiver type (`CallResult`): a receiver, or what a variable is
        assigned (`p = shop.pool()`, `@assigned` in the queries); `written`, the type its
        text names, stands where resolution learns nothing better."""
        _, _, _, name, _, text, bare, arguments = self.uses[k]
        namespace = text if text in self.types.imported else ""
        return CallResult(name, bare, arguments, namespace, written,
                          self.receiver_type(k, scope, depth)).encoded()


def _returns(d: _Def) -> str:
    """The type `d` declares it returns (`return_type`): its enclosing type for `Self`, ""
    for a primitive or a container (`int`, `List`, `Optional`): no method call on the result
    is this repository's then, or none can be told from the name alone."""
    name = return_type(d.node)
    if name in ("Self", "self", "static", "this"):
        return self_type(d)
    return "" if name in _PRIMITIVES else name


#: what a capture name makes of its node; 0: a part of a match another capture reads
_DEFINITION, _REFERENCE, _FIELD, _LITERAL, _BINDING, _DECORATOR, _COMMENT = range(1, 8)
_ROLES: dict[str, int] = {"binding": _BINDING, "decorator": _DECORATOR, "deep.field": _FIELD,
                          "deep.literal": _LITERAL, "comment": _COMMENT}


def _role(key: str) -> int:
    """A capture name's role (the first time it is seen: `_ROLES` keeps it), by its prefix
    for definitions and references: one dict read per capture instead of a chain of string
    tests, a tenth of sqlalchemy's extraction."""
    if key.startswith("definition."):
        return _DEFINITION
    return _REFERENCE if key.startswith("reference.") else 0
