"""Role hints: behavioural tags and structural motifs written into the FTS `hints` column.

A function named `ensure_fresh` that calls `is_expired` gets "cache validate check verify", so a
query in role vocabulary finds it at zero query-time cost (GraphIQ's hints).
"""

from __future__ import annotations

import re

from graphiq_ci.model import CALLABLE_KINDS, Symbol
from graphiq_ci.store import Store
from graphiq_ci.text import split_identifier, stem

#: role → (trigger words seen in the name, callees or path; words written as hints)
ROLES: dict[str, tuple[frozenset[str], str]] = {
    role: (frozenset(triggers.split()), hints)
    for role, triggers, hints in (
        ("validator", "valid validate validator check verify assert ensure sanitize is",
         "validator validate check verify"),
        ("cache", "cache cached memo memoize lru ttl expire expired fresh stale",
         "cache memoize store expire"),
        ("handler", "handle handler on listener callback hook",
         "handler handle event callback"),
        ("retry", "retry retries backoff attempt attempts", "retry backoff attempt"),
        ("auth-gate", "auth authenticate authorize login logout permission token credential "
         "credentials password", "auth authenticate authorize permission credential"),
        ("parser", "parse parser lex lexer tokenize tokenizer decode read scan",
         "parser parse decode read"),
        ("serializer", "serialize serializer encode dump dumps stringify marshal json to",
         "serializer serialize encode dump"),
        ("router", "route router routes dispatch mount path url endpoint",
         "router route dispatch endpoint"),
        ("middleware", "middleware use next pipeline interceptor",
         "middleware interceptor pipeline"),
        ("config", "config configure configuration settings setting option options env",
         "config configuration settings options"),
        ("logger", "log logger logging debug warn trace", "logger log logging"),
        ("error-handler", "error errors exception except raise throw fail failure catch",
         "error exception raise failure"),
        ("factory", "create make build factory new construct init", "factory create build"),
        ("converter", "convert converter transform coerce cast normalize",
         "convert transform coerce normalize"),
        ("formatter", "format formatter render template pretty print display",
         "format render display"),
        ("io", "read write open file stream load save flush close", "io read write file"),
        ("network", "request response http https fetch send socket client proxy header "
         "headers cookie url", "network http request response"),
        ("lifecycle", "setup teardown start stop close shutdown init initialize dispose",
         "lifecycle setup teardown start stop"),
        ("event", "emit event events subscribe publish listen signal", "event emit subscribe"),
    )
}

#: distinct callers or referrers that make a symbol a hub
HUB_INBOUND = 10

_RAISES = re.compile(r"\b(raise|throw|panic!?|Err\()")
_RAISE_WORDS = ("raise", "throw", "panic", "Err(")  # what every _RAISES match holds
_RETURNS = re.compile(r"\breturn\b|=>")
_CONNECTS = re.compile(r"\b(connect|client|session|adapter|bridge)")


def _motifs(symbol: Symbol, callees: int) -> list[str]:
    """The structural motifs a symbol shows from its own body (GraphIQ's 8 motifs). A body
    without the text a pattern needs is not searched with it: most bodies have no `raise`."""
    if symbol.kind not in CALLABLE_KINDS:
        return []
    out = []
    body = symbol.source
    returns = ("return" in body or "=>" in body) and bool(_RETURNS.search(body))
    if callees == 0:
        out.append("leaf")
    elif callees >= 6:
        out.append("orchestrator")
    head = body[:400]
    if "if" in body and any(w in head for w in _RAISE_WORDS) and _RAISES.search(head):
        out.append("guard")
    has_params = "()" not in symbol.signature
    if has_params and returns:
        out.append("transform")
    elif has_params and not returns:
        out.append("sink")
    elif not has_params and returns:
        out.append("source")
    if callees >= 3 and _CONNECTS.search(body[:300]):
        out.append("connector")
    return out


def role_hints(symbol: Symbol, path: str, callee_names: list[str]) -> str:
    """The hints text of one symbol: role tags with their vocabulary, motifs, word stems."""
    name_words = split_identifier(symbol.name)
    words = set(name_words)
    for callee in callee_names:
        words.update(split_identifier(callee))
    words.update(split_identifier(path.rsplit("/", 1)[-1].split(".", 1)[0]))
    hits: dict[int, int] = {}  # role → how many of the words trigger it
    for word in words:
        for k in _TRIGGERED.get(word, ()):
            hits[k] = hits.get(k, 0) + 1
    named = {k for w in name_words for k in _TRIGGERED.get(w, ())}
    tags: list[str] = []
    for k in sorted(hits):  # in ROLES' order
        if k in named or hits[k] >= 2:
            tags += _TAGS[k]
    tags += _motifs(symbol, len(callee_names))
    stems = {stem(w) for w in name_words} - set(name_words)
    return " ".join(tags + sorted(stems))


def _roles_by_word() -> dict[str, tuple[int, ...]]:
    by_word: dict[str, tuple[int, ...]] = {}
    for k, (triggers, _) in enumerate(ROLES.values()):
        for word in triggers:
            by_word[word] = (*by_word.get(word, ()), k)
    return by_word


#: each trigger word's roles (their places in ROLES), and each role's tag and hint words:
#: a symbol's few words are looked up, not every role's trigger set intersected
_TRIGGERED = _roles_by_word()
_TAGS = [(role.replace("-", " "), hints) for role, (_, hints) in ROLES.items()]


def mark_hubs(store: Store, logged: int | None = None) -> int:
    """The `hub` motif needs the whole graph: symbols many others call or reference.

    Run after resolution; only symbols whose hub status changed are rewritten (hints column
    and FTS row), so an incremental run touches a handful of rows. With `logged`, only the
    symbols the graph log names for that generation are looked at: a symbol's inbound edges
    change only with a logged edge at it, and a re-written row (its hints without the mark) is
    logged too, so the others keep their status; a full scan of the edges is 10 ms on zod (#14).
    Returns how many changed.
    """
    conn = store.conn
    inbound = ("SELECT dst_id FROM edges WHERE {} IN ('calls', 'references') GROUP BY dst_id "
               "HAVING count(DISTINCT src_id) >= ?")
    is_marked = "' ' || hints || ' ' LIKE '% hub %'"
    if logged is None:
        hubs = {r[0] for r in conn.execute(inbound.format("kind"), (HUB_INBOUND,))}
        marked = {r[0] for r in conn.execute(f"SELECT id FROM symbols WHERE {is_marked}")}
    else:  # `+kind`: the edges at the logged ids by their index, not every call edge by kind
        log = "IN (SELECT symbol_id FROM graph_log WHERE generation = ?)"
        hubs = {r[0] for r in conn.execute(inbound.format(f"dst_id {log} AND +kind"),
                                           (logged, HUB_INBOUND))}
        marked = {r[0] for r in conn.execute(
            f"SELECT id FROM symbols WHERE id {log} AND {is_marked}", (logged,))}
    changed = 0
    for sid in hubs ^ marked:
        row = conn.execute("SELECT hints FROM symbols WHERE id = ?", (sid,)).fetchone()
        if row is None:
            continue
        words = [w for w in row[0].split() if w != "hub"] + (["hub"] if sid in hubs else [])
        hints = " ".join(words)
        conn.execute("UPDATE symbols SET hints = ? WHERE id = ?", (hints, sid))
        conn.execute("UPDATE symbols_fts SET hints = ? WHERE rowid = ?", (hints, sid))
        changed += 1
    return changed

