"""A language's query narrowed to one tree: only the patterns, and alternatives, it can match.

Compiling TypeScript's query takes 90 ms, most of a one-file refresh (#14), and most of that is
tree-sitter analysing patterns for node types the file does not even contain (a script has no
enum, no decorator, no class). A pattern whose required node types are not all in the tree can
never match, nor can an alternative of `[...]` that needs one, so dropping them changes no
match; the kept text is the original's, byte for byte, minus the dropped parts.

"Required" is read conservatively: a node type counts only where the pattern cannot match
without it (not under `?` or `*`, not one of several alternatives); wildcards, supertypes and
`ERROR`/`MISSING` are never counted. Anything this reader does not follow keeps its pattern.
"""

from __future__ import annotations

import re

import tree_sitter as ts

_TOKEN = re.compile(r'\s+|;[^\n]*|"(?:\\.|[^"\\])*"|[()\[\]]|[?*+]|[^\s()\[\]";]+')
_SPECIAL = frozenset({"_", "ERROR", "MISSING"})


class _Element:
    """One pattern element: a node `(T …)`, a group `((a) (b))`, an alternation `[…]`, a string
    or a wildcard, with the text it spans."""

    def __init__(self, start: int, end: int = 0, *, kind: str = "", name: str = "") -> None:
        self.start = start
        self.end = end
        self.tail = 0  # the end of its quantifier and captures
        self.kind = kind  # "node", "group", "alternation", "string", "other"
        self.name = name  # a node's type, a string's text
        self.optional = False  # under `?` or `*`
        self.children: list[_Element] = []


class _Unreadable(Exception):
    """Query syntax this reader does not follow: the query is compiled whole."""


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)
            if not m.group().isspace() and not m.group().startswith(";")]


def _parse(toks: list[tuple[str, int, int]], i: int) -> tuple[_Element, int]:
    """The element at toks[i] (its quantifier included); the index after it."""
    tok, start, end = toks[i]
    if tok == "(":
        if i + 1 < len(toks) and toks[i + 1][0].startswith("#"):
            raise _Unreadable("a predicate where an element belongs")
        el = _Element(start)
        j = i + 1
        if j < len(toks) and toks[j][0] not in "([" and not toks[j][0].startswith('"'):
            el.kind, el.name = "node", toks[j][0]
            j += 1
        else:
            el.kind = "group"
        while j < len(toks) and toks[j][0] != ")":
            t = toks[j][0]
            if t.startswith(("@", "!")) or t == "." or t.endswith(":"):
                j += 1
            elif t == "(" and j + 1 < len(toks) and toks[j + 1][0].startswith("#"):
                j = _skip_predicate(toks, j)
            else:
                child, j = _parse(toks, j)
                el.children.append(child)
        if j >= len(toks):
            raise _Unreadable("unbalanced parentheses")
        el.end = toks[j][2]
        j += 1
    elif tok == "[":
        el, j = _Element(start, kind="alternation"), i + 1
        while j < len(toks) and toks[j][0] != "]":
            child, j = _parse(toks, j)
            el.children.append(child)
        if j >= len(toks):
            raise _Unreadable("unbalanced brackets")
        el.end = toks[j][2]
        j += 1
    elif tok.startswith('"'):
        el, j = _Element(start, end, kind="string", name=tok[1:-1]), i + 1
    elif tok in ")]" or tok.startswith(("@", "#")):
        raise _Unreadable(f"unexpected {tok!r}")
    else:
        el, j = _Element(start, end, kind="other", name=tok), i + 1
    el.tail = el.end
    while j < len(toks) and (toks[j][0] in "?*+" or toks[j][0].startswith("@")):
        if toks[j][0] in "?*":
            el.optional = True
        el.tail = toks[j][2]
        j += 1
    return el, j


def _skip_predicate(toks: list[tuple[str, int, int]], j: int) -> int:
    depth = 0
    while j < len(toks):
        depth += {"(": 1, ")": -1}.get(toks[j][0], 0)
        j += 1
        if depth == 0:
            return j
    raise _Unreadable("unbalanced predicate")


def _possible(el: _Element, kinds: frozenset[str], opaque: frozenset[str]) -> bool:
    """Whether `el` can match in a tree whose node types are `kinds` (True when unsure)."""
    if el.kind == "alternation":
        return any(_possible(c, kinds, opaque) for c in el.children)
    if el.kind == "string":
        return "\\" in el.name or el.name in kinds
    if el.kind == "node" and el.name not in _SPECIAL and "/" not in el.name \
            and el.name not in opaque and el.name not in kinds:
        return False
    return all(_possible(c, kinds, opaque) for c in el.children if not c.optional)


def _emit(el: _Element, text: str, kinds: frozenset[str], opaque: frozenset[str],
          out: list[str], at: int) -> int:
    """Append `el`'s text from `at` to `out`, up to where its last kept part was copied, without
    the alternatives that cannot match; return the position copied up to."""
    for child in el.children:
        if el.kind == "alternation" and not _possible(child, kinds, opaque) and any(
                _possible(c, kinds, opaque) for c in el.children):
            out.append(text[at:child.start])
            at = child.tail
        else:
            at = _emit(child, text, kinds, opaque, out, at)
    return at


def narrowed(text: str, kinds: frozenset[str], opaque: frozenset[str]) -> str | None:
    """`text` (a whole query) without what cannot match a tree of node types `kinds`; None
    when the query has syntax this reader does not follow. `opaque`: the language's supertype
    names, which no tree node carries though patterns may name them."""
    try:
        toks = _tokens(text)
        out: list[str] = []
        i = 0
        while i < len(toks):
            el, i = _parse(toks, i)
            if _possible(el, kinds, opaque):
                piece: list[str] = []
                at = _emit(el, text, kinds, opaque, piece, el.start)
                out.append("".join(piece) + text[at:el.tail] + "\n")
    except _Unreadable:
        return None
    return "".join(out)


def split_rooted(text: str, root: str) -> tuple[str, str] | None:
    """`text` (a whole query) as (its patterns whose outermost node is `root`, the rest), each
    pattern's text as written; None when the query has syntax this reader does not follow.

    A pattern rooted at the tree's root node type (`(program (_ (variable_declarator …)))`)
    can only match from the root, but as one of many patterns tree-sitter carries it through
    the whole walk: TypeScript's eight cost a quarter of its matching on zod. Apart, they run
    with a cursor that starts matches at the root alone (compiled.py)."""
    try:
        toks = _tokens(text)
        parts: tuple[list[str], list[str]] = ([], [])
        i = 0
        while i < len(toks):
            el, i = _parse(toks, i)
            parts[0 if el.kind == "node" and el.name == root else 1].append(
                text[el.start:el.tail] + "\n")
    except _Unreadable:
        return None
    return "".join(parts[0]), "".join(parts[1])


def tree_kinds(tree: ts.Tree) -> frozenset[str]:
    """Every node type in `tree`, named and anonymous."""
    kinds: set[str] = set()
    cursor = tree.walk()
    while True:
        kinds.add(cursor.node.type)  # type: ignore[union-attr]
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return frozenset(kinds)


def supertypes(language: ts.Language) -> frozenset[str]:
    return frozenset(n for i in language.supertypes
                     if (n := language.node_kind_for_id(i)) is not None)
