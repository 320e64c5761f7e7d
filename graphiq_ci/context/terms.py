"""What a task text names: symbol-shaped words, code spans and paths, with Markdown noise removed.

PR bodies arrive full of Markdown: links, images, HTML comments, checklists, emoji. Those are
stripped first so "https://github.com/org/repo/pull/12" does not become the words "github pull".
"""

from __future__ import annotations

import re
from typing import NamedTuple

from graphiq_ci.text import STOPWORDS, split_identifier, written_as_code

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_URL = re.compile(r"https?://\S+|www\.\S+")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_MENTION = re.compile(r"(?<![\w`])@[\w-]+")
#: a word that introduces an issue or PR number (`ref #2804`, `see #12`, `Refs: #7`) names
#: the thread, not the code: "ref" would match every `ref` in a code base
_ISSUE_POINTER = re.compile(r"\b(?:refs?|see|cf|re|reverts?|supplements?)\b\.?:?\s*(?=#\d)",
                            re.I)
_FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]+\.[A-Za-z]{1,5}|[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|"
    r"rs|java|rb|php|c|h|cc|cpp|hpp|cs|kt|swift|scala|vue))(?![\w/])"
)
# letters in any script: `Rückerstattung` is one word, not the fragments `R` and `ckerstattung`
_IDENT = re.compile(r"(?:[^\W\d]|\$)[\w$]*(?:(?:\.|::|#)(?:[^\W\d]|\$)[\w$]*)*")


class TaskTerms(NamedTuple):
    """What a task text asks about, split by how each part is searched for."""

    text: str  # the cleaned text the search pipeline sees
    symbols: tuple[str, ...]  # code-shaped names: CamelCase, snake_case, dotted, code spans
    paths: tuple[str, ...]
    words: tuple[str, ...]  # plain identifiers that are not common English words
    scope: tuple[str, ...] = ()  # the area a commit title names first: `fix(sse):`, `walker:`


def clean_markdown(text: str) -> str:
    text = _HTML_COMMENT.sub(" ", text)
    text = _IMAGE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _URL.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _MENTION.sub(" ", text)
    text = _ISSUE_POINTER.sub(" ", text)
    text = re.sub(r"^\s*[-*]\s*\[[ xX]\]\s*", "", text, flags=re.M)  # checklists
    return text


def _code_shaped(word: str) -> bool:
    """CamelCase, camelCase, snake_case, SCREAMING_CASE, dotted/scoped or call-shaped."""
    return bool(
        re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]|_\w|\.|::|#", word)
        or (word[:1].isupper() and any(c.isupper() for c in word[1:]))
    )


def extract_terms(text: str) -> TaskTerms:
    cleaned = clean_markdown(text)
    fenced = [m for block in _FENCE.findall(cleaned) for m in _IDENT.findall(block)]
    inline = [s.strip() for s in _CODE_SPAN.findall(cleaned)]
    paths = list(dict.fromkeys(p.strip("./") for p in _PATH.findall(cleaned)))
    as_code = written_as_code(cleaned)  # `close()`: a name, although a common word
    symbols: list[str] = []
    for span in fenced + inline:
        for ident in _IDENT.findall(span):
            ident = ident.rstrip(".")
            if len(ident) > 1 and (ident.lower() not in STOPWORDS or ident in as_code) \
                    and not _PATH.fullmatch(ident):
                symbols.append(ident)
    # a `Handler` in backticks is a name even though it looks like prose
    marked = {ident.rstrip(".") for span in inline for ident in _IDENT.findall(span)}
    words: list[str] = []
    # fenced code was read above; its info string (```python) is not a word of the task
    prose = _CODE_SPAN.sub(" ", _FENCE.sub(" ", cleaned))
    for found in _IDENT.finditer(prose):
        ident = found.group().strip(".")
        if _PATH.fullmatch(ident) or any(ident.endswith(p) for p in paths):
            continue
        if _code_shaped(ident):
            symbols.append(ident)
        elif _capitalised_glue(prose, found.start(), ident):
            symbols.append(ident)
            marked.add(ident)
        elif ident.lower() in STOPWORDS:
            if ident in as_code and len(ident) > 1:  # add(): a common word called is a name
                symbols.append(ident)
        elif len(ident) > 2:
            words.append(ident.lower())
    # scoped names also contribute their leaf (`Session.request` → `request`)
    leaves = [re.split(r"\.|::|#", s)[-1] for s in symbols if re.search(r"\.|::|#", s)]
    all_symbols = [s for s in dict.fromkeys(symbols + leaves)
                   if split_identifier(s) and not _is_prose(s, s in marked)]
    return TaskTerms(cleaned, tuple(all_symbols), tuple(paths), tuple(dict.fromkeys(words)),
                     _scope(cleaned))


#: `scope: …`, `type(scope): …`, or a path as the scope: `ignore/types: …`, `net/http: …`
#: (Go's and many Rust projects' convention), whose every word must then be in the path
_TITLE_SCOPE = re.compile(r"\s*([A-Za-z][\w./-]*)(?:\(([^)\n]+)\))?!?:\s")
#: conventional-commit types: `fix:` says what kind of change, not where
_CHANGE_TYPES = frozenset({"feat", "fix", "chore", "docs", "doc", "refactor", "test", "tests",
                           "perf", "build", "ci", "style", "revert", "deps"})


def _scope(text: str) -> tuple[str, ...]:
    """The words of a title's scope: `fix(sse): …` → sse, `walker: …` → walker,
    `ignore/types: …` → ignore, types. A commit title names the area it changes before the
    colon; the words after it describe it."""
    m = _TITLE_SCOPE.match(text)
    if not m:
        return ()
    scope = m.group(2) or ("" if m.group(1).lower() in _CHANGE_TYPES else m.group(1))
    return tuple(w for w in re.split(r"[^a-z0-9]+", scope.lower()) if len(w) > 1)


#: what precedes a word inside a sentence: a lower-case word, a number or a comma, and a space
_MID_SENTENCE = re.compile(r"[a-z0-9,] ")


def _capitalised_glue(prose: str, at: int, word: str) -> bool:
    """A glue word capitalised inside a sentence ("Make And and Or constructors public") is a
    name: prose capitalises `and`, `or`, `set` only where a sentence starts."""
    return (word.lower() in STOPWORDS and bool(re.fullmatch(r"[A-Z][a-z]+", word))
            and bool(_MID_SENTENCE.fullmatch(prose, max(0, at - 2), at)))


def _is_prose(word: str, in_backticks: bool = False) -> bool:
    """Sentence-start capitals and version strings are not code names. A capitalised word in
    backticks is: the author marked it as code (`Handler`, `Router`), and dropping it lost the
    type a task is about (it is no plain word of the task either, as code spans are not prose).
    In a fenced block it is not: logs and error output are full of capitalised words."""
    if in_backticks and re.fullmatch(r"[A-Z][a-z]+", word):
        return False
    return bool(re.fullmatch(r"[A-Z][a-z]+|v?\d+(\.\d+)*|[A-Z]", word))
