"""Line runs: a definition's lines as sorted, disjoint (first, last) pairs, and what shapes them.

A unit of code (context/code.py) is the lines a definition owns: its span, started at the
decorators and attributes written above it, less the spans of a container's children (a
function keeps what is nested in it), without blank lines at either end.
"""

from __future__ import annotations

import re

from graphiq_ci.lang import plugin_for

#: a line of a comment (`//`, `/** … */`, `#`, `--`); not a C preprocessor directive
_COMMENT = re.compile(r"(//|/\*|\*|--|#(?!\s*(include|define|undef|if|ifdef|ifndef|else|elif|"
                      r"endif|pragma|import)\b|\[|!\[))")


def attached_start(lines: list[str], line: int, language: str) -> int:
    """The first line of the decorators, annotations or attributes directly above `line`
    (`@server.tool(...)`, `#[cfg(test)]`): they belong to the definition below them. Left to
    the container instead, a class's or a function's own lines were its children's decorators
    between `…` markers, and the child was shown without them."""
    prefixes = plugin_for(language).attribute_prefixes if language else ()
    while (prefixes and 1 < line <= len(lines) + 1
           and lines[line - 2].lstrip().startswith(prefixes)):
        line -= 1
    return line


def leading_start(lines: list[str], line: int, language: str) -> int:
    """The first line written above a definition for it: its attributes and the comment
    directly above them or it (a Javadoc, `///`, `#` lines). A change there is a change to
    that definition: a Javadoc edit above jsoup's `Document.createShell` was reported as a
    change to the class `Document`, whose thousand callers then filled the PR comment."""
    start = attached_start(lines, line, language)
    while 1 < start <= len(lines) + 1:
        above = lines[start - 2].strip()
        if above.endswith("*/"):  # a block comment, its inner lines as they are written
            opens = next((n for n in range(start - 1, 0, -1) if "/*" in lines[n - 1]), None)
            if opens is None or not lines[opens - 1].lstrip().startswith("/*"):
                break  # `import …; /* why */`: code that ends in a comment is no doc comment
            start = opens
        elif _COMMENT.match(above):
            start -= 1
        else:
            break
        start = attached_start(lines, start, language)
    return start


def gaps(lines: list[int]) -> list[tuple[int, int]]:
    """The runs between consecutive line numbers of a sorted list."""
    return [(a + 1, b - 1) for a, b in zip(lines, lines[1:], strict=False) if b > a + 1]


def trimmed(runs: list[tuple[int, int]], lines: list[str]) -> list[tuple[int, int]]:
    """Runs without blank lines at either end: a container's own lines, once its methods
    are cut out, are otherwise blank runs that render as `…`, a blank line, `…`."""
    kept = []
    for a, b in runs:
        while a <= b and not lines[a - 1].strip():
            a += 1
        while b >= a and not lines[b - 1].strip():
            b -= 1
        if a <= b:
            kept.append((a, b))
    return kept


def subtract(runs: list[tuple[int, int]], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`runs` (sorted, disjoint) minus `holes`, in one sweep: a big file has thousands of
    definitions, and cutting them out one at a time was quadratic."""
    merged: list[list[int]] = []
    for ha, hb in sorted(holes):
        if merged and ha <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hb)
        elif ha <= hb:
            merged.append([ha, hb])
    out: list[tuple[int, int]] = []
    j = 0
    for a, b in runs:
        while j < len(merged) and merged[j][1] < a:
            j += 1
        cur, k = a, j
        while k < len(merged) and merged[k][0] <= b:
            ha, hb = merged[k]
            if ha > cur:
                out.append((cur, ha - 1))
            cur = max(cur, hb + 1)
            k += 1
        if cur <= b:
            out.append((cur, b))
    return out
