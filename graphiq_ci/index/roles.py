"""Role hints: behavioural tags and structural motifs written into the FTS `hints` column.

A function named `ensure_fresh` that calls `is_expired` gets "cache validate check verify", so a
query in role vocabulary finds it at zero query-time cost (GraphIQ's hints).
"""

from __future__ import annotations

import re

from graphiq_ci.model import CALLABLE_KINDS, Symbol
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

_RAISES = re.compile(r"\b(raise|throw|panic!?|Err\()")
_RETURNS = re.compile(r"\breturn\b|=>")


def _motifs(symbol: Symbol, callees: int) -> list[str]:
    """The structural motifs a symbol shows from its own body (GraphIQ's 8 motifs)."""
    if symbol.kind not in CALLABLE_KINDS:
        return []
    out = []
    body = symbol.source
    returns = bool(_RETURNS.search(body))
    if callees == 0:
        out.append("leaf")
    elif callees >= 6:
        out.append("orchestrator")
    if _RAISES.search(body[:400]) and body.count("if") >= 1:
        out.append("guard")
    has_params = "()" not in symbol.signature
    if has_params and returns:
        out.append("transform")
    elif has_params and not returns:
        out.append("sink")
    elif not has_params and returns:
        out.append("source")
    if callees >= 3 and re.search(r"\b(connect|client|session|adapter|bridge)", body[:300]):
        out.append("connector")
    return out


def role_hints(symbol: Symbol, path: str, callee_names: list[str], inbound: int = 0) -> str:
    """The hints text of one symbol: role tags with their vocabulary, motifs, word stems."""
    name_words = split_identifier(symbol.name)
    words = set(name_words)
    for callee in callee_names:
        words.update(split_identifier(callee))
    words.update(split_identifier(path.rsplit("/", 1)[-1].split(".", 1)[0]))
    tags: list[str] = []
    for role, (triggers, hints) in ROLES.items():
        if words & triggers and (set(name_words) & triggers or len(words & triggers) >= 2):
            tags.append(role.replace("-", " "))
            tags.append(hints)
    tags += _motifs(symbol, len(callee_names))
    if inbound >= 10:
        tags.append("hub")
    stems = {stem(w) for w in name_words} - set(name_words)
    return " ".join(tags + sorted(stems))

