"""The query-family router: GraphIQ's priority cascade, cross-cutting first, descriptive last."""

from __future__ import annotations

import re

from graphiq_ci.search.weights import Family

_CROSS = re.compile(r"^\s*(all|every|each|list (all|every))\b|\b(all|every) \w+s\b", re.I)
_ERROR = re.compile(
    r"\b(error|errors|exception|panic|panics|fail|fails|failed|failing|failure|crash|crashes|"
    r"timeout|traceback|stack ?trace|raises?|throws?|bug|broken|segfault|undefined is not)\b",
    re.I,
)
# an exception type named inside a longer query (`PaymentError "card declined"`); alone it is
# a symbol lookup
_ERROR_TYPE = re.compile(r"[a-z0-9](Error|Exception|Panic)\b")
_RELATION = re.compile(
    r"\b(what calls|who calls|callers? of|called by|calls to|uses of|depends on|dependenc(y|ies)"
    r"|relationship between|connects?|between \w+ and \w+)\b|\bvs\.?\b",
    re.I,
)
_PATH = re.compile(r"[\w.-]+/[\w./-]+|\b[\w-]+\.(py|ts|tsx|js|jsx|go|rs|java|rb|php|c|h|cc|cpp|"
                   r"hpp|cs|kt|md|json|ya?ml|toml)\b")
_ABSTRACT = re.compile(r"^\s*(how|why|what|where|when|explain|describe)\b", re.I)
_SYMBOLISH = re.compile(
    r"^\s*[A-Za-z_$][\w$]*((::|\.|#)[A-Za-z_$][\w$]*)*\s*$"
)


def _looks_like_symbol(q: str) -> bool:
    """PascalCase, camelCase, snake_case or a scoped name; one token."""
    if not _SYMBOLISH.match(q):
        return False
    word = q.strip()
    return bool(
        re.search(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]|_|::|#|\.", word) or word[:1].isupper()
    )


def classify(query: str) -> Family:
    q = query.strip()
    if _CROSS.search(q):
        return Family.CROSS_CUTTING
    if _ERROR.search(q):
        return Family.ERROR_DEBUG
    if _RELATION.search(q):
        return Family.RELATIONSHIP
    if len(q.split()) > 1 and _ERROR_TYPE.search(q):
        return Family.ERROR_DEBUG
    if _PATH.search(q) and len(q.split()) <= 3:
        return Family.FILE_PATH
    if _looks_like_symbol(q):
        return Family.SYMBOL_EXACT
    if re.fullmatch(r"[a-z][a-z0-9]*", q):
        return Family.SYMBOL_PARTIAL
    if _ABSTRACT.match(q):
        return Family.NATURAL_ABSTRACT
    return Family.NATURAL_DESCRIPTIVE
