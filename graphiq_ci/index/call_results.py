"""Calls made on another call's result (`doc.select(q).remove()`): what resolving them reads.

The extractor records such a receiver as the call itself (lang/receivers.py `CallResult`),
and resolution resolves that call first (index/resolve.py `_returned_type`). The answer
depends on more than the reference's own name and type, so these helpers say which names a
chain looks up and which types its calls return; index/redo.py says which stored chains an
incremental run resolves again when a definition or a type they go through changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from graphiq_ci.index.names import NameTable
from graphiq_ci.lang.receivers import call_parts


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


def returned_types(t: NameTable, receiver_types: Iterable[str]) -> set[str]:
    """The types the calls in these receivers declare they return, and their bases, once
    their definitions are loaded: what resolution looks up on the result (resolve.py
    `_member`) and checks is one type (`_one_type`, bases too). Left out, a base an
    incremental run had not loaded let it accept a return type a full index rejects (axum's
    RequestBuilder, whose base `IntoFuture` the repository also names)."""
    types: set[str] = set()
    for receiver_type in receiver_types:
        for name, _ in chain(receiver_type):
            for d in t.by_name.get(name, ()):
                if d.id in t.returns:
                    types.update(t.type_and_bases(t.returns[d.id]))
    return types
