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

The queries supply the facts as `@binding` matches (`@name` or `@attribute` for the variable,
`@type` for the type name) and `@receiver` on calls; this module only looks them up, walking
out from the call's scope. Anything else (a call's result, an import, two candidate types)
yields "" and resolution falls back to names alone, as before: a guess is never made here.
"""

from __future__ import annotations

from typing import Protocol

from graphiq_ci.model import TYPE_KINDS, Kind

SELF_NAMES = frozenset({"self", "this", "cls", "$this", "Self"})
DATA_KINDS = frozenset({Kind.FIELD, Kind.CONSTANT, Kind.VARIABLE})
MAX_RECEIVER_CHARS = 80


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
            owner = enclosing_type(scope)
            type_name = owner.qualified if owner else _owner_of(scope)
        else:
            type_name = self._variable(head, scope)
            if not type_name and head[:1].isupper() and head not in self.imported \
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
