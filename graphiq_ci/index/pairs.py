"""A declaration and its definition are one answer.

C declares a function in a header (`int parse(const char *s);` in parse.h) and defines it in a
source file (`int parse(const char *s) {…}` in parse.c). A caller includes the header, so by
names and includes alone its call would reach the prototype, and a task naming `parse` would
find the header as readily as the body it will change. Each declaration (a symbol the
language's query marks `@declaration`) is therefore paired with its one definition: the same
qualified name, a compatible kind, a file of a related language (one sharing a query base, C
and C++ headers), when that is one definition, or one in a file of the same stem (parse.h ↔
parse.c) among several. Resolution then sends uses of the declaration to the definition, and a
`declares` edge lets the pair support each other in ranking.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from typing import NamedTuple

from graphiq_ci.lang import plugin_for
from graphiq_ci.model import CALLABLE_KINDS, EDGE_WEIGHTS, EdgeKind
from graphiq_ci.store import Store

_CALLABLE = frozenset(k.value for k in CALLABLE_KINDS)


class _Sym(NamedTuple):
    id: int
    file_id: int
    qualified: str
    kind: str
    path: str
    language: str
    declaration: bool


def _related(a: str, b: str) -> bool:
    """Languages whose files declare and define for each other: the same, or sharing a query
    base (a `.h` parsed as C declares what a `.cpp` defines)."""
    if a == b:
        return True
    try:
        return bool(set(plugin_for(a).base_queries) & set(plugin_for(b).base_queries))
    except KeyError:
        return False


def _compatible(decl: _Sym, d: _Sym) -> bool:
    same_kind = decl.kind == d.kind or (decl.kind in _CALLABLE and d.kind in _CALLABLE)
    return (not d.declaration and same_kind and d.qualified == decl.qualified
            and _related(decl.language, d.language))


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


def declaration_pairs(store: Store) -> dict[int, int]:
    """Each declaration's definition (symbol id → symbol id), where it is one."""
    by_name: dict[str, list[_Sym]] = defaultdict(list)
    for sid, fid, name, qualified, kind, decl, path, language in store.conn.execute(
        "SELECT s.id, s.file_id, s.name, s.qualified, s.kind, s.declaration, f.path, f.language "
        "FROM symbols s JOIN files f ON f.id = s.file_id "
        "WHERE s.name IN (SELECT name FROM symbols WHERE declaration = 1)"
    ):
        by_name[name].append(_Sym(sid, fid, qualified, kind, path, language, bool(decl)))
    pairs: dict[int, int] = {}
    for syms in by_name.values():
        for decl in (s for s in syms if s.declaration):
            defs = [d for d in syms if _compatible(decl, d)]
            if len(defs) > 1:
                defs = [d for d in defs if _stem(d.path) == _stem(decl.path)]
            if len(defs) == 1:
                pairs[decl.id] = defs[0].id
    return pairs


def link_declarations(store: Store, pairs: dict[int, int]) -> int:
    """Make the `declares` edges exactly `pairs`, writing only the difference (an unchanged
    edge is not rewritten, so the graph log names only symbols whose pairing changed)."""
    kind = EdgeKind.DECLARES.value
    weight = EDGE_WEIGHTS[EdgeKind.DECLARES]
    conn = store.conn
    wanted = set(pairs.items())
    kept: set[tuple[int, int]] = set()
    stale: list[tuple[int]] = []
    for rowid, src, dst in conn.execute(
            "SELECT rowid, src_id, dst_id FROM edges WHERE kind = ?", (kind,)).fetchall():
        if (src, dst) in wanted and (src, dst) not in kept:
            kept.add((src, dst))
        else:
            stale.append((rowid,))
    conn.executemany("DELETE FROM edges WHERE rowid = ?", stale)
    conn.executemany(
        "INSERT INTO edges(src_id, dst_id, kind, weight) VALUES (?, ?, ?, ?)",
        [(s, d, kind, weight) for s, d in sorted(wanted - kept)])
    return len(wanted)
