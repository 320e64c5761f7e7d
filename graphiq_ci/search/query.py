"""A parsed query: its family, policy, terms and their stems, computed once per search."""

from __future__ import annotations

import re
from typing import NamedTuple

from graphiq_ci.search.families import classify
from graphiq_ci.search.weights import POLICIES, Family, Policy
from graphiq_ci.text import split_identifier, stem, terms, written_as_code

_NUMBER = re.compile(r"(?<![\w.])(0x[0-9a-fA-F]+|\d+\.\d+|\d{2,})(?![\w.])")
_QUOTED = re.compile(r"[\"'`]([^\"'`\n]{4,80})[\"'`]")
_TEST_WORDS = frozenset({"test", "tests", "testing", "spec", "specs", "fixture", "fixtures"})
#: a title with one of these is about documentation or examples (`docs: …`, `fix(docs): …`,
#: "Update the tutorial"): the files under docs/ or examples/ are then the answer, not noise
_DOCS_WORDS = frozenset({"doc", "docs", "documentation", "example", "examples", "tutorial",
                         "tutorials", "sample", "samples", "demo", "demos"})


class Query(NamedTuple):
    """A query parsed once: its family picks the policy every scorer reads."""

    text: str
    family: Family
    policy: Policy
    terms: tuple[str, ...]  # identifier parts, stopwords removed, in order, distinct
    stems: tuple[str, ...]  # one per term
    numbers: tuple[str, ...]
    phrases: tuple[str, ...]  # quoted text, for the ErrorDebug source scan
    about_tests: bool
    about_docs: bool

    @property
    def stem_set(self) -> frozenset[str]:
        return frozenset(self.stems)


def _title(text: str) -> str:
    """The first non-empty line: a PR body mentioning tests is not a task about tests."""
    return next((line for line in text.splitlines() if line.strip()), "")


def parse_query(text: str, family: Family | None = None) -> Query:
    fam = family or classify(text)
    words = list(dict.fromkeys(terms(text, {w.lower() for w in written_as_code(text)})))
    if not words:  # a query of only stopwords or a bare identifier part: keep what is there
        words = list(dict.fromkeys(p for w in text.split() for p in split_identifier(w)))
    stems = list(dict.fromkeys(stem(w) for w in words))
    title = set(terms(_title(text)))
    return Query(
        text=text,
        family=fam,
        policy=POLICIES[fam],
        terms=tuple(words),
        stems=tuple(stems),
        numbers=tuple(dict.fromkeys(_NUMBER.findall(text))),
        phrases=tuple(dict.fromkeys(_QUOTED.findall(text))),
        about_tests=bool(_TEST_WORDS & title),
        about_docs=bool(_DOCS_WORDS & title),
    )
