"""Path conventions shared by index and search (test files, vendored code, minified files)."""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

from graphiq_ci.errors import GraphiqError


def storable(path: str) -> bool:
    """Whether a path can be stored and shown as text. git lists names as bytes; one that is
    not UTF-8 is decoded with surrogates (to reach the file on disk), and SQLite, JSON and the
    rendered Markdown take text only: such a file is left out of the index, and said so."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def as_text(text: str) -> str:
    """`text` as git gave it (bytes decoded with surrogates), its bytes that are not UTF-8
    replaced: storable and printable."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_QUOTED = re.compile(r'[\x00-\x1f\x7f"\\]')
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def one_line(path: str) -> str:
    """`path` for a line of plain output (`path:line`, one path per line): as it is, unless it
    holds a control character (anyone who can push can name a file `a\\nb.py`); then in double
    quotes with C escapes, as git quotes such names."""
    if not _CONTROL.search(path):
        return path
    return '"' + _QUOTED.sub(lambda m: _ESCAPES.get(m.group(), f"\\{ord(m.group()):03o}"),
                             path) + '"'


#: SwiftPM keeps tests in `Tests/<Module>Tests/…Tests.swift`, .NET often in `Tests/`
_TEST = re.compile(
    r"(^|/)(tests?|Tests|__tests__|specs?|testing|__mocks__|fixtures?)/"
    r"|(^|/)test_[^/]*$|_tests?\.[A-Za-z]+$|\.(test|spec)\.[A-Za-z]+$"
    r"|(^|/)[^/]*Tests?\.(java|cs|kt|php|swift|scala|dart)$|(^|/)conftest\.py$"
)
_VENDORED = re.compile(
    r"(^|/)(node_modules|vendor|third_party|bower_components|\.venv|venv|site-packages|dist|build)/"
)


@lru_cache(maxsize=65536)
def is_test_path(path: str) -> bool:
    """Cached: resolution asks it for both ends of every call edge (32k times on zod, 670
    distinct paths), and the regular expression was a fifth of resolution's time."""
    return bool(_TEST.search(path))


#: what a test file's name adds to its subject's: `test_parse.py`, `parse_test.go`,
#: `ParseTest.java`, `parse.test.ts`, `parse.spec.js`, `parse_spec.rb`
_TEST_AFFIX = re.compile(r"^(?:tests?_)|(?:_tests?|_spec|\.test|\.spec|Tests?|Spec)$")


def subject_of_test(path: str) -> str:
    """What a test file is named after, lower-case, without underscores: `test_parse_url.py`
    and `ParseUrlTest.java` → `parseurl`; `res.send.js` → `res.send` (JavaScript suites name a
    file after the object and method they test)."""
    name, previous = posixpath.splitext(posixpath.basename(path))[0], ""
    while name != previous:
        name, previous = _TEST_AFFIX.sub("", name), name
    return name.lower().replace("_", "")


_DOCS = re.compile(r"(^|/)(docs?|docs_src|documentation|examples?|samples?|demos?|tutorials?)/")


def is_docs_path(path: str) -> bool:
    """Documentation and example code: read by people, rarely what a change is about."""
    return bool(_DOCS.search(path))


def is_vendored_path(path: str) -> bool:
    return bool(_VENDORED.search(path))


def is_minified(path: str, data: bytes) -> bool:
    """`.min.js`-style names, or long lines with almost no line breaks."""
    if re.search(r"\.min\.[a-z]+$", path):
        return True
    if len(data) < 2000:
        return False
    return data.count(b"\n") < len(data) / 1000


#: a line longer than this is generated data, not code anyone reads (see `giant_line`)
MAX_LINE_BYTES = 100_000


def giant_line(data: bytes) -> int:
    """The length of the file's longest line when it passes MAX_LINE_BYTES, else 0. Nobody
    writes such a line; a parser reads it as a structure hundreds of thousands deep, and some
    grammars' queries then take minutes (the fuzz benchmark's 300 KB `a+a+…` line in Elixir:
    86 s, where a file of ordinary lines takes milliseconds)."""
    if len(data) <= MAX_LINE_BYTES:
        return 0
    longest = max(map(len, data.split(b"\n")))
    return longest if longest > MAX_LINE_BYTES else 0


def repo_relative(path: str) -> str:
    """`path` as the index names it (relative, `/`-separated, normalised), or a one-line
    error for a path that is absolute or climbs out of the repository: untrusted input (a CI
    step's list, an agent's argument) never makes graphiq-ci look outside the repository."""
    text = path.strip().replace("\\", "/")
    norm = posixpath.normpath(text) if text else ""
    if not norm or norm == "." or text.startswith("/") or re.match(r"[A-Za-z]:/", text) \
            or norm == ".." or norm.startswith("../"):
        raise GraphiqError(f"{path.strip()!r} is not a path inside the repository")
    return norm
