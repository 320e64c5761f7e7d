"""Calls made on another call's result (`doc.select(q).remove()`): what resolving them reads.

The extractor records such a receiver as the call itself (lang/receivers.py `CallResult`),
and resolution resolves that call first (index/resolve.py `_returned_type`). The answer
depends on more than the reference's own name and type, so these helpers say which names a
chain looks up, which types its calls return, and which stored references an incremental
run must resolve again when a definition or a type they go through changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from graphiq_ci.index.names import NameTable
from graphiq_ci.lang.receivers import CALL_RESULT, call_parts
from graphiq_ci.store import Store, chunks

#: up to this many names and types, SQLite picks the chains that mention one (a substring
#: test each); more, as a full run's edits bring, and every chain is read
SQL_TERMS = 64

def chain(receiver_type: str) -> Iterator[tuple[str, str]]:
    """Each call of a receiver that is a chain of calls, outermost first, as its name and
    the namespace it goes through, and ("", the type its text names) where it names one;
    then ("", the type the innermost one is called on). A receiver type that is a type's
    name is ("", it) alone."""
    while (call := call_parts(receiver_type)) is not None:
        yield call.name, call.namespace
        if call.written:
            yield "", call.written
        receiver_type = call.receiver_type
    yield "", receiver_type


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


def returned_types(t: NameTable, receiver_types: Iterable[str]) -> set[str]:
    """The types the calls in these receivers declare they return, once their definitions
    are loaded: what resolution looks up on the result (resolve.py `_member`)."""
    types: set[str] = set()
    for receiver_type in receiver_types:
        for name, _ in chain(receiver_type):
            types.update(t.returns[d.id] for d in t.by_name.get(name, ()) if d.id in t.returns)
    return types
