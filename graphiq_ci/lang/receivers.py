"""The type a method call's receiver has, where one file shows it cheaply; else nothing.

`obj.send()` names `send`, and a repository may define many. The type of `obj` picks one when
the file itself says what `obj` is:

    self / this / cls            the enclosing class (a Rust `impl` block), or the type a method
                                 is declared on from outside it (Lua's `function M:f()`)
    a capitalised name           itself, a type (`Jsoup.parse()`, `Config.load()`), unless the
                                 file binds it otherwise (a variable, an import alias)
    a parameter or variable      with a type annotation (`c: Client`, `Client c`, `c *Client`)
    a variable                   assigned from a constructor (`c = Client()`, `new Client()`,
                                 `Client::new()`, `Client{}`)
    a constructor call itself    `Client().send()`, `new Client(x).send()`,
                                 `Client::new().send()`: a capitalised name called
    self.attr / recv.attr        an attribute or field annotated or constructed in its class
    another call                 `doc.select(q).remove()`: that call (`CallResult`), whose
                                 target's declared return type resolution reads

The queries supply the facts as `@binding` matches (`@name` or `@attribute` for the variable,
`@type` for the type name) and `@receiver` on calls; this module only looks them up, walking
out from the call's scope. Anything else (a call's result, an import, two candidate types)
yields "" and resolution falls back to names alone, as before: a guess is never made here.

A receiver that is a call is recorded as the call itself (`CallResult`): the file cannot tell
which definition it calls, the whole index can (index/resolve.py), and the type that
definition declares it returns is the receiver's type.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from graphiq_ci.model import TYPE_KINDS, Kind

SELF_NAMES = frozenset({"self", "this", "cls", "$this", "Self"})
DATA_KINDS = frozenset({Kind.FIELD, Kind.CONSTANT, Kind.VARIABLE})
MAX_RECEIVER_CHARS = 80
#: how a receiver type that is a call's result starts (`CallResult.encoded`)
CALL_RESULT = "()"


class Scope(Protocol):
    qualified: str
    kind: Kind
    owner: str  # the type a definition belongs to when it is not nested in it (`@owner`)

    @property
    def parent(self) -> Scope | None: ...


def enclosing_type(scope: Scope | None) -> Scope | None:
    while scope is not None and scope.kind not in TYPE_KINDS:
        scope = scope.parent
    return scope


def self_type(scope: Scope | None) -> str:
    """What `self` / `this` / `Self` is inside `scope`: the enclosing type, else the type
    an enclosing method is declared on from outside its body."""
    owner = enclosing_type(scope)
    return owner.qualified if owner else _owner_of(scope)


class CallResult(NamedTuple):
    """A receiver that is a call: that call as resolution resolves it, and `written`, the
    type its text alone names (`Client(a)`: Client; see `Bindings.receiver_type`), which
    stands where the call's target declares no return type this repository defines."""

    name: str
    bare: bool
    arguments: int
    namespace: str  # the imported name it goes through (`util.make()`)
    written: str
    receiver_type: str  # its own receiver's: last, as it may be a call again

    def encoded(self) -> str:
        return (f"{CALL_RESULT}{self.name}|{int(self.bare)}|{self.arguments}|{self.namespace}"
                f"|{self.written}|{self.receiver_type}")


def call_parts(receiver_type: str) -> CallResult | None:
    """The call a receiver type encodes (`CallResult.encoded`), or None for a type's name."""
    if not receiver_type.startswith(CALL_RESULT):
        return None
    name, bare, arguments, namespace, written, inner = \
        receiver_type[len(CALL_RESULT):].split("|", 5)
    return CallResult(name, bare == "1", int(arguments), namespace, written, inner)


def as_written(receiver_type: str) -> str:
    """The type a receiver's text alone names: a call's `written` type, else the type
    itself. What reads stored references without resolving their calls reads this."""
    call = call_parts(receiver_type)
    return receiver_type if call is None else call.written


def _owner_of(scope: Scope | None) -> str:
    """The type an enclosing method belongs to from outside its body (`@owner`: a Go
    receiver's type, Lua's `M` of `function M:f()`): what `self` is there."""
    while scope is not None and not scope.owner:
        scope = scope.parent
    return scope.owner if scope else ""


def binding_scope(scope: Scope | None, attribute: bool) -> str:
    """Where a binding lives: an attribute in its class; a variable in its function, or in
    the class when the variable is itself a field (`private Client client;`)."""
    if attribute:
        owner = enclosing_type(scope)
        return owner.qualified if owner else ""
    while scope is not None and scope.kind in DATA_KINDS:
        scope = scope.parent
    return scope.qualified if scope else ""


class Bindings:
    """(scope qualified name, variable) → type name, for one file."""

    def __init__(self, imported: set[str] | None = None) -> None:
        self.imported = imported or set()  # names an import binds (`import * as Utils`)
        self.types: dict[tuple[str, str], str] = {}
        self.declared: set[tuple[str, str]] = set()
        self.ambiguous: set[tuple[str, str]] = set()

    def add(self, scope: str, name: str, type_name: str, declared: bool) -> None:
        """A declared type (an annotation) outranks what constructors assign (a subclass,
        say); two different types of the same rank make the variable unknown."""
        key = (scope, name)
        if key in self.declared and not declared:
            return
        if declared and key not in self.declared:
            self.declared.add(key)
            self.ambiguous.discard(key)
        elif self.types.get(key, type_name) != type_name:
            self.ambiguous.add(key)
        self.types[key] = type_name

    def names_a_type(self, name: str) -> bool:
        """A capitalised name no import binds reads as a type (or a module) of its own."""
        return name[:1].isupper() and name not in self.imported

    def binds(self, scope: str, name: str) -> bool:
        """Whether anything types `name` in `scope` (a shadowing `let` included)."""
        return (scope, name) in self.types

    def get(self, scope: str, name: str) -> str:
        key = (scope, name)
        return "" if key in self.ambiguous else self.types.get(key, "")

    def receiver_type(self, receiver: str, scope: Scope | None) -> str:
        """The type name of `receiver` (as written) used inside `scope`, or ""."""
        if not receiver or len(receiver) > MAX_RECEIVER_CHARS:
            return ""
        constructed = _constructed(receiver)
        if constructed:
            return constructed  # an import may bind it: a namespace is never called
        head, *rest = receiver.split(".")
        if not head.replace("$", "").replace("_", "").isalnum():
            return ""  # another call, an index, a literal: not cheap to type
        if head in SELF_NAMES:
            type_name = self_type(scope)
        else:
            type_name = self._variable(head, scope)
            if not type_name and self.names_a_type(head) \
                    and all(part[:1].isupper() for part in rest):
                # a static or class-level call on a type, or a module: `Jsoup.parse(html)`,
                # Elixir's `Shop.Repo.get(id)`
                return receiver
        for attr in rest:
            type_name = self.get(type_name, attr) if type_name else ""
        return type_name

    def _variable(self, name: str, scope: Scope | None) -> str:
        while scope is not None:
            found = self.get(scope.qualified, name)
            if found:
                return found
            scope = scope.parent
        return self.get("", name)


def _constructed(receiver: str) -> str:
    """`Client` for a receiver that is one constructor call (`Client(a)`, `new Client<T>(a)`,
    `Client::new(a)`): a capitalised name, then one balanced argument list that ends the text.
    `Client().pool` or `client()` is not one, and yields ""."""
    text = receiver.removeprefix("new ").strip()
    name, paren, rest = text.partition("(")
    name = name.removesuffix("::new").split("<", 1)[0].strip()
    if not paren or not name[:1].isupper() or not name.replace("_", "").isalnum():
        return ""
    arguments = paren + rest  # from the first "(" to the end: must close exactly at the end
    depth = 0
    for k, ch in enumerate(arguments):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return name if k == len(arguments) - 1 else ""
    return ""
