"""Calls that may reach a changed method though the index cannot say which method they call.

Resolution links a call to one definition or to none (index/resolve.py): `param.process(v)`
with two `process` methods in the repository and no type for `param`, or
`evaluator.matches(a, b)` on a Java type with two `matches` of two parameters, stay
unresolved. Dynamic dispatch makes exactly these the calls a reviewer of a changed method
must look at, and on the PR-review benchmark they were most of the changed methods whose
callers the comment missed (issue #11). So the comment lists them beside the resolved callers,
marked as possible, never as edges of the graph:

- the call names the method and was left unresolved;
- its receiver's type, where the file shows one, is the method's type or one of its supertypes
  (a call through a base type dispatches to the override); a call on an unrelated type is not
  the method's;
- where no type is shown, the name has at most MAX_NAMESAKES methods outside tests, and is
  not one the standard libraries define too (`get`, `send`): otherwise any object's call
  would do. Methods are counted, each once: an untyped `x.default(v)` dispatches among
  methods, while a module's function (zod's 38 locale files' `export default function`) is
  reached through its module, which resolution ties; and a TypeScript method's overload
  signatures are one method.
"""

from __future__ import annotations

from graphiq_ci.context.relations import SUPERTYPES, Place, place
from graphiq_ci.index.resolve import STANDARD_METHODS
from graphiq_ci.lang.receivers import as_written
from graphiq_ci.model import CALLABLE_KINDS, TYPE_KINDS
from graphiq_ci.paths import is_test_path
from graphiq_ci.search import GraphIndex
from graphiq_ci.store import Store

#: a shorter name (`run`, `add`) is every other object's too
MIN_NAME = 4
#: an untyped receiver's call is listed only when the name has at most this many definitions
MAX_NAMESAKES = 4
#: how far up the method's type its supertypes are followed
SUPERTYPE_LEVELS = 3
_CALLABLE = frozenset(k.value for k in CALLABLE_KINDS)
_TYPES = frozenset(k.value for k in TYPE_KINDS)


def possible_callers(store: Store, g: GraphIndex, i: int, limit: int) -> list[Place]:
    """Up to `limit` definitions outside tests holding an unresolved call that may run the
    method at `i`, each with the call's line; none for a function that is not a method."""
    owner = g.parent[i]
    name = g.names[i]
    if owner < 0 or g.kinds[owner] not in _TYPES or g.kinds[i] not in _CALLABLE \
            or len(name) < MIN_NAME or name in STANDARD_METHODS:
        return []
    types = _type_and_supertypes(g, owner)
    namesakes = {(g.file_of[j], g.qualified[j]) for j in g.by_name.get(name.lower(), ())
                 if g.names[j] == name and g.kinds[j] in _CALLABLE and not g.is_test(j)
                 and g.parent[j] >= 0 and g.kinds[g.parent[j]] in _TYPES}
    rows = store.conn.execute(
        "SELECT f.path, r.src_id, r.line, r.receiver_type FROM refs r JOIN files f "
        "ON f.id = r.file_id WHERE r.name = ? AND r.kind = 'calls' AND r.dst_id IS NULL "
        "AND r.bare = 0 ORDER BY f.path, r.line", (name,))
    found: dict[int, Place] = {}
    for path, src_id, line, receiver_type in rows:
        if is_test_path(path):
            continue
        receiver_type = as_written(receiver_type)  # left unresolved, a call's result has
        # only the type its text names, if any
        if receiver_type:
            if receiver_type.rsplit(".", 1)[-1] not in types:
                continue
        elif len(namesakes) > MAX_NAMESAKES:
            continue
        src = enclosing_definition(g, path, src_id)
        if src is not None and src != i and src not in found:
            found[src] = place(g, src, line)
            if len(found) == limit:
                break
    return list(found.values())


def _type_and_supertypes(g: GraphIndex, t: int) -> set[str]:
    """The names of type `t` and of its supertypes the graph knows, a few levels up."""
    names = {g.names[t]}
    frontier = [t]
    for _ in range(SUPERTYPE_LEVELS):
        frontier = [j for k in frontier for j, _, code in g.out[k] if code in SUPERTYPES]
        names |= {g.names[j] for j in frontier}
    return names


def enclosing_definition(g: GraphIndex, path: str, src_id: int | None) -> int | None:
    """The graph position of a reference's enclosing definition (its file's at top level)."""
    if src_id is not None:
        return g.pos_of_id.get(src_id)
    try:
        k = g.paths.index(path)
    except ValueError:
        return None
    pos = g.file_symbol[k]
    return pos if pos >= 0 else None
