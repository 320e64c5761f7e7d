"""Which stored references an incremental run resolves again: no more than an edit can change.

A re-parse keeps the ids, rows and resolved targets of whatever reads as before
(index/writer.py) and reports what did not: the files written, the sources whose references
changed (`partial`), and `names`: every definition that came, went or changed its arity or
return type, and every type whose bases changed. From those alone this says which sources'
references may now resolve differently (`sources_to_redo`), and `looked_up` which names
resolving them reads, so only those definitions are loaded; index/resolve.py resolves exactly
these, and the result equals a full resolution (the incremental-equals-full tests).
"""

from __future__ import annotations

from graphiq_ci.index.call_results import chain
from graphiq_ci.index.names import NameTable
from graphiq_ci.index.ref_edges import TEST_NAME, test_sources
from graphiq_ci.lang.receivers import CALL_RESULT
from graphiq_ci.model import EdgeKind
from graphiq_ci.store import Store, chunks

#: up to this many names and types, SQLite picks the chains that mention one (a substring
#: test each); more, as a full run's edits bring, and every chain is read
SQL_TERMS = 64
#: a stored reference as resolve.py reads it: rowid, file, source (a file's own: the negated
#: file id), name, kind, alias, receiver type, target, bare, arguments
Row = tuple[int, int, int, str, str, str, str, int | None, int, int]


def sources_to_redo(store: Store, t: NameTable, file_ids: set[int], names: set[str],
                    partial: dict[int, set[int]]) -> set[tuple[int, int]]:
    """(source, its file) of each reference to resolve again: a file symbol's source is the
    negated file id, as resolve.py reads it."""
    conn = store.conn
    whole = file_ids - partial.keys()
    in_files = f"file_id IN ({','.join(map(str, whole)) or 'NULL'})"
    found = set(conn.execute(
        f"SELECT DISTINCT coalesce(src_id, -file_id), file_id FROM refs WHERE {in_files}"))
    # every symbol of the files, and the files' own: a re-parse kept their ids and edges,
    # also of those whose references are gone now
    found |= {(-f, f) for f in whole} | set(conn.execute(
        f"SELECT id, file_id FROM symbols WHERE kind != 'file' AND {in_files}"))
    found |= {(src, f) for f, sources in partial.items() if f in file_ids
              for src in sources}
    # the references by these names, and the calls through the files' types named among
    # them (new, or rebased: index/writer.py) or below those (`receiver_type != ''` lets
    # SQLite use the partial index refs_receiver). A member that came, went or changed
    # its arity is in `names` itself; types that read as before re-route no call (an
    # edit of sqlalchemy's compiler.py re-resolved ~2k calls through its subclasses)
    here = t.types_in(store, file_ids) & names
    for where, values in (("name IN", names),
                          ("receiver_type != '' AND receiver_type IN",
                           t.with_derived(here))):
        for chunk in chunks(sorted(values)):
            found |= set(conn.execute(
                f"SELECT DISTINCT coalesce(src_id, -file_id), file_id FROM refs WHERE "
                f"{where} ({','.join('?' * len(chunk))})", chunk))
    # a call on a call's result reaches a type through that call, not through its own
    # receiver: a member added or removed is in `names`, and a type whose bases changed
    # too (index/writer.py), so only those types' changes re-resolve chains through them
    found |= on_call_results(store, names, t.with_derived(here))
    return found


def on_call_results(store: Store, names: set[str], types: set[str]) -> set[tuple[int, int]]:
    """(source, file) of the calls made on a call's result whose resolution may change with
    `names` (a definition of a call in the chain came, went, or declares another return
    type) or `types` (a type the chain's first receiver is, or a call in it returns, whose
    bases changed, and the types below it)."""
    conn = store.conn
    returning = {name for chunk in chunks(sorted(types)) for (name,) in conn.execute(
        "SELECT DISTINCT name FROM symbols WHERE returns != '' AND returns IN "
        f"({','.join('?' * len(chunk))})", chunk)}
    wanted = names | returning
    terms = sorted(wanted | types)
    if not terms:
        return set()  # nothing a chain goes through came, went or was rebased
    # every receiver type starting with CALL_RESULT, "()", sorts between "()" and "(*"
    select = ("SELECT DISTINCT coalesce(src_id, -file_id), file_id, receiver_type FROM refs "
              "WHERE receiver_type != '' AND receiver_type > ? AND receiver_type < ?")
    params = [CALL_RESULT, "(*", *terms]
    if len(terms) <= SQL_TERMS:
        # a chain through a name holds it as text: SQLite drops the others in C, where
        # parsing every chain of the repository in Python was most of a one-file refresh's
        # resolution (zod: 10k chains, 30-70 ms for an edited comment)
        select += f" AND ({' OR '.join(['instr(receiver_type, ?)'] * len(terms))})"
    else:
        del params[2:]
    return {(src, file_id) for src, file_id, receiver in conn.execute(select, params)
            if any(call in wanted if call else through in types
                   for call, through in chain(receiver))}


def looked_up(t: NameTable, rows: list[Row]) -> set[str]:
    """Every name resolving `rows` looks up in `t.by_name`: their names, the imported name a
    call or type goes through (`util.merge()`, `QueryParser.parse()`: `_member` on it), their
    receivers' types (`_member`) or the calls their receivers are (`_returned_type`; the
    types those return are loaded after these, `call_results.returned_types`), a bare call's
    enclosing names (`_inherited`), the subjects their test functions are named after
    (`ref_edges.naming_convention_tests`). A lookup added there must be added here."""
    names: set[str] = set()
    for _rowid, _file, src, name, kind, alias, receiver_type, _dst, bare, _args in rows:
        if kind != EdgeKind.IMPORTS.value:
            names.add(name)
            if alias:
                names.update(alias.split(","))
        for call, type_name in chain(receiver_type):
            if call:  # a call's result: that call's name, the namespace it goes through
                names.update((call, type_name) if type_name else (call,))
            elif type_name:  # a type by its last name, a module (`Shop.Repo`) by its whole one
                names.update((type_name, type_name.rsplit(".", 1)[-1]))
        if bare or receiver_type.startswith(CALL_RESULT):
            # the enclosing types a bare call (in the chain, too) may inherit from
            names.update(t.qualified_of.get(src, "").split("."))
    for sid in test_sources(t, rows):
        m = TEST_NAME.match(t.qualified_of[sid].rsplit(".", 1)[-1])
        if m:
            names |= {m.group(1), m.group(1).lstrip("_")}
    return names
