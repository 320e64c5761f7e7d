"""Turn stored references into edges: a name becomes an edge only when it names one definition.

Order of evidence for a name used in file F: for a method call whose receiver's type the file
shows (`c.send()`, `c: Client`), that type's member or its bases'; for a call through a name
an import binds (`util.merge()`), the definition in the file it is bound to or that file passes
on (index/bindings.py), and never one in F; then a definition in F, one in a file F imports
(or passes on), the only definition of that name in the repository. Anything else stays an
unresolved reference (refs.dst_id NULL) rather than a guess at a wrong target.

What a name can denote is narrowed by language facts first (lang/spec.py): a constructor is
its type, a bare `f()` reaches no method unless the language has an implicit `this`,
same-named definitions in one scope are one function unless the language overloads, and where
the language picks an overload by argument count (Java) the call's count does too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator

from graphiq_ci.index.bindings import FileImports, ImportTable
from graphiq_ci.index.call_results import returned_types
from graphiq_ci.index.names import Def, NameTable
from graphiq_ci.index.redo import Row, looked_up, sources_to_redo
from graphiq_ci.index.ref_edges import (
    is_test_to_subject,
    naming_convention_tests,
    replace_edges,
)
from graphiq_ci.lang.receivers import CALL_RESULT, CallResult, call_parts
from graphiq_ci.model import EDGE_WEIGHTS, EdgeKind
from graphiq_ci.paths import is_test_path
from graphiq_ci.store import Store, chunks

#: Method names every language's standard library defines: a use of one is the library's far
#: more often than the single definition a repository happens to have, so that alone does not
#: resolve it (a definition in the same file or an imported one still does).
STANDARD_METHODS = frozenset("""
get set put has keys values items entries append extend insert remove pop push shift unshift
clear copy update add delete discard index count find sort reverse join split strip replace
format startswith endswith lower upper map filter reduce forEach some every includes slice
splice concat then catch finally resolve reject call apply bind toString valueOf length size
read write close open flush send recv emit on off next iter len str repr hash equals compareTo
hashCode contains isEmpty run start stop wait notify parse dump dumps load loads encode
decode match search test exec log error warn info debug
""".split())
#: a stored kind → its EdgeKind, a dict lookup per reference instead of an Enum call
_EDGE_KINDS = {k.value: k for k in EdgeKind}


def _pick(defs: list[Def], scope: str) -> Def | None:
    """One definition: the only one, or the one whose enclosing names the use shares most of.

    Names are compared whole (`_Option` is not a prefix of `_OptionParser`): comparing
    characters let `arg.process()` inside `_OptionParser` pick `_Option.process` over
    `_Argument.process`, a guess."""
    if len(defs) == 1:
        return defs[0]
    if not defs or not scope:
        return None
    where = scope.split(".")
    scored = sorted(defs, key=lambda d: -_shared_parts(d.qualified, where))
    best = _shared_parts(scored[0].qualified, where)
    return scored[0] if best > _shared_parts(scored[1].qualified, where) else None


def _shared_parts(qualified: str, scope: list[str]) -> int:
    """How many leading names a definition's qualified name shares with the use's scope."""
    n = 0
    for a, b in zip(qualified.split("."), scope, strict=False):
        if a != b:
            break
        n += 1
    return n


def _member(t: NameTable, imports: FileImports, file_id: int, name: str, defs: list[Def],
            receiver_type: str, scope: str = "") -> Def | None | bool:
    """The member `name` of `receiver_type` or of its nearest base that has one; False when
    the type is not this repository's (an external receiver: no definition here is it); None
    when nothing is known, and names alone decide. Where the type's name is defined twice,
    the nearer file decides, then the one whose enclosing names `scope` shares most of (two
    test modules' own `Enum`)."""
    if not t.defines_type(receiver_type):
        return False
    for type_name in t.type_and_bases(receiver_type):
        members = [d for d in defs if d.qualified == f"{type_name}.{name}"
                   or d.qualified.endswith(f".{type_name}.{name}")]
        if len(members) > 1:
            members = ([d for d in members if d.file_id == file_id]
                       or [d for d in members if d.file_id in imports.files] or members)
        if len(members) > 1:
            picked = _pick(members, scope)
            members = [picked] if picked is not None else members
        if len(members) == 1:
            return members[0]
        if members:
            return False  # ambiguous: never guessed
    return None


def _inherited(t: NameTable, imports: FileImports, file_id: int, name: str, defs: list[Def],
               scope: str) -> Def | bool | None:
    """A bare call's member of the enclosing types' bases, innermost type first, where the
    language has an implicit `this`: `nullableAnnotationFor(x)` in a subclass of the class
    defining it (no definition in the file, two in the repository: names alone gave none).
    False where an enclosing type has several such members the call cannot tell apart
    (jsoup's Document calling `select(q)`: Element's `select(String)` and
    `select(Evaluator)`): the call is one of them, not another file's namesake."""
    parts = scope.split(".")
    for n in range(len(parts), 0, -1):
        owner = ".".join(parts[:n])
        member = _member(t, imports, file_id, name, defs, owner)
        if isinstance(member, Def):
            return member
        if member is False and t.defines_type(owner):
            return False  # its own members, ambiguous (`_member`: an external type is False too)
    return None


def _resolve_name(t: NameTable, table: ImportTable, file_id: int, name: str,
                  scope: str, receiver_type: str = "", bare: bool = False,
                  arguments: int = -1, namespace: str = "", call: bool = False,
                  by_name_alone: bool = True) -> int | None:
    """`by_name_alone`: whether the last evidence may decide, a name only one imported file
    (or only one file at all) defines. A call on a typed receiver whose result is another
    call's receiver does without it (`_returned_type`): that type has no such member here
    (`Request::builder()` of a type alias of http's `Request`), and a guess would decide
    the call on its result too."""
    imports = table[file_id]
    defs = t.by_name.get(name, [])
    if bare and defs and not t.implicit_self(file_id):
        defs = [d for d in defs if not d.is_member]  # `render()` in Go is never `t.render()`
    if arguments >= 0 and len(defs) > 1 and t.arity_picks_overload(file_id):
        defs = [d for d in defs if d.takes(arguments)]  # `size(2)` is not `size(s, n)`
    if not defs:
        return None
    if receiver_type.startswith(CALL_RESULT):
        receiver_type = _returned_type(t, table, file_id, receiver_type, scope)
    if receiver_type:
        member = _member(t, imports, file_id, name, defs, receiver_type, scope)
        if member is False:
            return None
        if isinstance(member, Def):
            return member.id
    if namespace:  # `util.merge()`: the definition in the file the import binds `util` to
        origin = imports.origin(namespace, scope)
        if origin is not None:
            member = table.namespace_member(origin, namespace, name, defs)
            if member is not None:
                return member.id
        # an imported type, called through: `Client::new()`, `Client.create()`
        typed = _member(t, imports, file_id if origin is None else origin, name, defs,
                        namespace, scope)
        if isinstance(typed, Def):
            return typed.id
        if origin is not None and namespace in imports.modules:
            module = t.module_files(origin)
            if all(d.file_id not in module for d in defs):
                return None  # its module defines no such name (a branch removed it)
    # a call through an imported name never reaches this file's own definitions; a bare
    # name or a type reaches its package's top level (Go: `New()` in another file of the
    # folder; not a struct's field `fn`)
    local = [] if namespace else [d for d in defs if d.file_id == file_id] or [
        d for d in defs if d.qualified == name and d.file_id in t.package_files(file_id)
        and (bare or not call)]
    if local:
        hit = _pick(local, scope)
        return hit.id if hit else None
    if bare and scope and t.implicit_self(file_id):
        inherited = _inherited(t, imports, file_id, name, defs, scope)
        if isinstance(inherited, Def):
            return inherited.id
        if inherited is False:
            return None
    origin = imports.origin(name, scope)
    if origin is not None:
        there = [d for d in defs if d.file_id == origin]
        if len(there) == 1:
            return there[0].id
        if there:
            return None
        passed = table.passed_on(origin, name, defs)  # an entry file passing it on
        if passed is not None:
            return passed.id
        # the module itself, called by its name (`debug()` of `require('debug')`); a call
        # through an object (`attrs.identifier()`) is no call of Rust's `mod identifier;`
        if bare or not call:
            return t.file_symbol.get(origin)
    if not by_name_alone:
        return None
    if call and not bare:
        # `res.redirect(url)` calls a property of some object. A variable or constant of
        # another file is no property of anything here: reached through its module, the
        # namespace above found it. Left in, express's `var redirect = express()` in an
        # example made the call ambiguous with `res.redirect = function redirect(url)`.
        defs = [d for d in defs if not d.is_value]
    imported = [d for d in defs if d.file_id in imports.files]
    if len(imported) == 1:
        return imported[0].id
    if name in STANDARD_METHODS:
        return None  # `env.items()` is a dict's, not the one `items` this repository defines
    return defs[0].id if len(defs) == 1 else None


def _returned_type(t: NameTable, table: ImportTable, file_id: int, receiver: str,
                   scope: str) -> str:
    """The type of the call `receiver` (lang/receivers.py `CallResult`): the type it
    constructs, or the return type its definition declares where this repository defines
    it, and it alone (`_one_type`); else the type the call's text names (`Client(a)`), or
    none, as before calls were followed: a return type of `int`, `List<Foo>` or a type
    parameter `T` tells nothing."""
    key = (file_id, receiver, scope)
    if key not in table.returned:
        table.returned[key] = _call_result_type(t, table, file_id, receiver, scope)
    return table.returned[key]


def _call_result_type(t: NameTable, table: ImportTable, file_id: int, receiver: str,
                      scope: str) -> str:
    """`_returned_type`, worked out."""
    call = call_parts(receiver)
    assert call is not None
    dst = _resolve_name(t, table, file_id, call.name, scope, call.receiver_type, call.bare,
                        call.arguments, call.namespace, call=True,
                        by_name_alone=not call.receiver_type)
    if dst is not None and call.namespace and not _under_namespace(t, table, file_id, dst,
                                                                   call.namespace, scope):
        return call.written  # `vendor.Pool()`: another package's, whatever this one defines
    if dst is None:
        returns = _overloads_agree(t, table, file_id, call, scope)
    elif any(d.id == dst and d.is_type for d in t.by_name.get(call.name, ())):
        return call.name  # a constructor call: `new Pool()`, `Pool()`
    else:
        returns = t.returns.get(dst, "")
    return returns if returns and _one_type(t, returns) and all(
        _one_type(t, base) for base in t.type_and_bases(returns)[1:]
        if base in t.by_name) else call.written


def _under_namespace(t: NameTable, table: ImportTable, file_id: int, dst: int,
                     namespace: str, scope: str) -> bool:
    """Whether a call through `namespace` that resolved to `dst` is evidence enough for the
    call on its result: the import binds a file of this repository, or, where the index
    cannot follow it (a src layout's `import requests`, a Go module path), `dst`'s path
    names it (`src/requests/models.py`, bubbletea's `tea.go`). `vendor.Pool()` is another
    package's Pool, though names alone reach this repository's."""
    if table[file_id].origin(namespace, scope) is not None:
        return True
    path = t.path_of.get(t.file_of_symbol.get(dst, -1), "")
    return namespace in path.rsplit(".", 1)[0].split("/")


def _overloads_agree(t: NameTable, table: ImportTable, file_id: int, call: CallResult,
                     scope: str) -> str:
    """The return type all the overloads a call may be declare alike, where its receiver's
    type (or, for a bare call, an enclosing type) has several members of its name that its
    argument count cannot tell apart (jsoup's `select(String)` and `select(Evaluator)` both
    return Elements): which one runs is unknown, what it returns is not."""
    if call.receiver_type:
        owner = (_returned_type(t, table, file_id, call.receiver_type, scope)
                 if call.receiver_type.startswith(CALL_RESULT) else call.receiver_type)
        owners = [owner] if owner else []
    elif call.bare and t.implicit_self(file_id):
        parts = scope.split(".")
        owners = [".".join(parts[:n]) for n in range(len(parts), 0, -1)]
    else:
        return ""
    defs = t.by_name.get(call.name, [])
    for owner in owners:
        for type_name in t.type_and_bases(owner):
            members = [d for d in defs if (d.qualified == f"{type_name}.{call.name}"
                                           or d.qualified.endswith(f".{type_name}.{call.name}"))
                       and (call.arguments < 0 or d.takes(call.arguments))]
            if members:
                returns = {t.returns.get(d.id, "") for d in members}
                return returns.pop() if len(returns) == 1 else ""
    return ""


def _one_type(t: NameTable, name: str) -> bool:
    """`name` is one type of this repository: a return type names a type by its name alone,
    and where two files define the name (zod's v3 class `ZodString` and v4's interface and
    constant of that name) which one is meant is left unresolved, as any ambiguity is."""
    defs = [d for d in t.by_name.get(name, ()) if not d.is_member]
    return any(d.is_type for d in defs) and len({d.file_id for d in defs}) == 1


def resolve(store: Store, file_ids: set[int] | None, names: set[str],
            pairs: dict[int, int], partial: dict[int, set[int]] | None = None) -> int:
    """Re-resolve the references of `file_ids` (None: all) and of every use of `names`;
    `pairs` are the declarations whose definitions uses reach instead (index/pairs.py).
    `partial`: files of `file_ids` of which only these sources' references changed (the
    writer's `changed_sources`): the rest of such a file resolves as it did.

    Returns how many references were resolved. Edges of each affected source symbol are
    regenerated from all of its references, so the result equals a full resolution.
    """
    conn = store.conn
    select = ("SELECT rowid, file_id, coalesce(src_id, -file_id), name, kind, alias, "
              "receiver_type, dst_id, bare, arity FROM refs")
    batches: Iterable[list[Row]]
    if file_ids is None:
        t = NameTable.load(store, pairs)
        srcs = None
        involved_files = {f for (f,) in conn.execute("SELECT DISTINCT file_id FROM refs")}
        batches = _in_batches(conn, select)
    else:
        t = NameTable.load_files(store)
        found = sources_to_redo(store, t, file_ids, names, partial or {})
        srcs = {src for src, _ in found}
        # a source's references are all in its file: read those files' (by the refs_file
        # index) rather than scan every reference for the sources
        rows = [row for part in chunks(sorted({f for _, f in found}))
                for row in conn.execute(
                    f"{select} WHERE file_id IN ({','.join('?' * len(part))})", part)
                if row[2] in srcs]
        t.add_symbols_of(store, {r[1] for r in rows})
        t.add_names(store, looked_up(t, rows), pairs)
        t.add_names(store, returned_types(t, (row[6] for row in rows)), pairs)
        involved_files = {r[1] for r in rows}
        batches = [rows]
    imports = ImportTable(store, t, involved_files)
    test_files = {f for f in involved_files if is_test_path(t.path_of.get(f, ""))}
    test_callers: set[int] = set()
    resolved = 0
    edges: dict[tuple[int, int, str], float] = {}
    qualified_of = t.qualified_of
    answers: dict[tuple[str, str, str, int, int, str, bool], int | None] = {}
    answered_in = 0
    for rows in batches:
        changed: list[tuple[int | None, int]] = []  # only these rows are written back
        for rowid, file_id, src, name, kind, alias, receiver_type, old_dst, bare, args in rows:
            if src > 0 and file_id in test_files:
                test_callers.add(src)
            src_id = src if src > 0 else t.file_symbol.get(file_id)
            if src_id is None or file_id not in t.path_of:
                continue
            edge = _EDGE_KINDS[kind]
            if edge is EdgeKind.IMPORTS:
                target_file = t.import_target(name, file_id)
                dst = t.file_symbol.get(target_file) if target_file is not None else None
            else:
                scope = qualified_of.get(src_id, "")
                call = edge is EdgeKind.CALLS
                # a name used twice in one scope the same way resolves the same: on zod,
                # 59k references ask 22k questions. A file's references are written together,
                # so the answers kept are one file's (not a million symbols' at once).
                if file_id != answered_in:
                    answers, answered_in = {}, file_id
                    imports.returned.clear()
                # a call's or a type's alias is the module it goes through: `tea.Model`
                namespace = alias if call or edge is EdgeKind.REFERENCES else ""
                question = (name, scope, receiver_type, bare, args, namespace, call)
                if question in answers:
                    dst = answers[question]
                else:
                    dst = answers[question] = _resolve_name(
                        t, imports, file_id, name, scope, receiver_type, bool(bare), args,
                        namespace, call)
            resolved += dst is not None
            if dst != old_dst:
                changed.append((dst, rowid))
            if dst is None or dst == src_id:
                continue
            edges[(src_id, dst, edge.value)] = EDGE_WEIGHTS[edge]
            if edge in (EdgeKind.CALLS, EdgeKind.REFERENCES) and \
                    is_test_to_subject(t, src_id, dst):
                edges[(src_id, dst, EdgeKind.TESTS.value)] = EDGE_WEIGHTS[EdgeKind.TESTS]
        conn.executemany("UPDATE refs SET dst_id = ? WHERE rowid = ?", changed)
    naming_convention_tests(t, sorted(test_callers & t.qualified_of.keys()), edges)

    replace_edges(store, None if srcs is None else
                  [t.file_symbol.get(-s, 0) if s < 0 else s for s in sorted(srcs)], edges)
    return resolved


_BATCH = 1 << 16


def _in_batches(conn: sqlite3.Connection, select: str) -> Iterator[list[Row]]:
    """Every reference, a batch at a time in rowid order: holding all of them at once was
    half of a full index's peak memory (2.3 GiB at 1M symbols, issue #14). Each batch is
    its own query, so the batch's results can be written back before the next is read."""
    last = 0
    while rows := conn.execute(f"{select} WHERE rowid > ? ORDER BY rowid LIMIT ?",
                               (last, _BATCH)).fetchall():
        yield rows
        last = rows[-1][0]

