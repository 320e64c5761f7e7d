"""Identifier splitting, stemming and stopwords: the one vocabulary index and search share."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d+)?")
_SEPARATORS = re.compile(r"[_$\-.]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

#: English glue words plus words every PR text uses and no code name carries meaning by.
STOPWORDS = frozenset(
    """
a about above after again against all also am an and any are as at be because been before being
below between both but by can cannot could did do does doing done down during each few for from
further had has have having he her here hers him his how i if in into is it its itself just me
more most my no nor not now of off on once only or other our out over own same she should so some
such than that the their them then there these they this those through to too under until up upon
very was we were what when where which while who whom why will with would you your yours via etc
eg ie e g i e let lets instead using used use uses make makes made new add adds added adding fix
fixes fixed fixing change changes changed update updates updated allow allows allowed support
supports supported remove removes removed ensure ensures like still may might must need needs
needed want wants way work works one two get gets set sets pr issue issues close closes closed
resolve resolves resolved see also should thanks please e.g i.e https http www com github org
""".split()
)


def split_identifier(ident: str) -> list[str]:
    """`RateLimiter` / `rate_limiter` / `rateLimiter` → ['rate', 'limiter']."""
    return list(_split(ident))


@lru_cache(maxsize=200_000)
def _split(ident: str) -> tuple[str, ...]:
    return tuple(p.lower() for chunk in _SEPARATORS.split(ident) if chunk
                 for p in _CAMEL.findall(chunk))


@lru_cache(maxsize=200_000)
def _ident_tokens(ident: str) -> tuple[str, ...]:
    parts = _split(ident)
    return parts + (ident.lower().strip("_$"),) if len(parts) > 1 else parts


def tokens(text: str) -> list[str]:
    """Lower-cased parts of every identifier in `text`, plus each multi-part identifier whole."""
    out: list[str] = []
    for ident in _IDENT.findall(text):
        out.extend(_ident_tokens(ident))
    return out


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return str(_stemmer().stemWord(word.lower()))


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer  # built on first use: a no-change refresh never stems

    return snowballstemmer.stemmer("english")


#: how many of a stem's last characters may differ from the word it came from: Snowball's
#: English stemmer rewrites only a word's end, `happy` -> `happi` (1) and its exceptions
#: `dying`, `lying`, `tying` -> `die`, `lie`, `tie` (2), the most on 75k distinct identifier
#: parts of sqlalchemy, zod and the development splits' repositories
STEM_TAIL = 2


def stem_probe(stems: frozenset[str]) -> re.Pattern[str]:
    """A pattern that every lower-cased text using a word with one of `stems` matches: each
    stem's start, which the word it came from begins with (STEM_TAIL). Asking it first lets
    the lines that cannot match skip tokenising and stemming, most lines of a long file."""
    probes = sorted({s[:max(1, len(s) - STEM_TAIL)] for s in stems if s}, key=len)
    return re.compile("|".join(map(re.escape, probes)) if probes else r"(?!)")


def terms(text: str, keep: AbstractSet[str] = frozenset()) -> list[str]:
    """Meaningful query terms: identifier parts minus stopwords (but those in `keep`) and
    1-letter noise, in order."""
    return [t for t in tokens(text)
            if len(t) > 1 and (t not in STOPWORDS or t in keep) and not t.isdigit()]


#: a name written as code on its own: alone in backticks (`close`, `Session.close()`) or
#: called without arguments (add(), x.get())
_NAME = r"(?:[^\W\d]|\$)[\w$]*(?:(?:\.|::|#)(?:[^\W\d]|\$)[\w$]*)*"
_WRITTEN_AS_CODE = re.compile(rf"`[.:#]*({_NAME})(?:\(\s*\))?`|(?<![\w$.:#`])({_NAME})\(\)")
_SCOPE = re.compile(r"\.|::|#")


def written_as_code(text: str) -> frozenset[str]:
    """The names `text` writes as code on their own, and the members of a qualified one
    (`Session.close` → `close`; not the `org` of `org.jspecify`, a package or receiver). Such a
    name is one even when it is a common word: "`close()` leaks the socket" asks about
    `close`, which as prose would be a stopword (`new Builder()` in backticks is no lone name:
    its `new` is a keyword)."""
    out: set[str] = set()
    for a, b in _WRITTEN_AS_CODE.findall(text):
        parts = _SCOPE.split(a or b)
        out.update(parts[1:] or parts)
    return frozenset(out)


#: stopwords that are also common names of code (`add`, `get`, `close`, `update`): searched
#: for only when written as code, or when the task's other words found nothing
_NAMEABLE = frozenset("add allow change close ensure fix get issue let make need new remove "
                      "resolve set support update use want work".split())


def common_words_as_code(text: str) -> str:
    """`text` with its common words that name code written as code: "the add function" ->
    "the `add` function". What a task is searched as when nothing matched its other words."""
    return _nameable_word().sub(r"`\1`", text)


@lru_cache(maxsize=1)
def _nameable_word() -> re.Pattern[str]:
    """Compiled on first use (a quarter of a millisecond): only a query that found nothing
    asks for it."""
    return re.compile(r"(?<![\w`.])(" + "|".join(sorted(_NAMEABLE)) + r")(?![\w`(])", re.I)
