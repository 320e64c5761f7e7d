"""Make untrusted text (PR titles and bodies, file names, code) safe to render into Markdown.

Anyone who can open a pull request controls its title and body, and anyone who can push
controls file names and code. Rendered into the bot's comment, such text must not ping
people (@-mentions), inject HTML (`<img>`, `</details>` closing our sections), swallow the
rest of the comment (an unclosed code fence), or grow the comment without bound.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

ZERO_WIDTH_JOINER = "\u200d"

# A mention is `@` after a non-word character, followed by a user or `org/team` name;
# `a@b.com` is not one (GitHub doesn't ping it), so it stays untouched.
_MENTION = re.compile(r"(?<![\w`])@(?=[A-Za-z0-9])")
_BACKTICK_RUN = re.compile(r"`+")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_INLINE_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&])")


def neutralise_mentions(text: str) -> str:
    """`@octocat` → `@<ZWJ>octocat`: reads the same, but GitHub no longer notifies anyone."""
    return _MENTION.sub("@" + ZERO_WIDTH_JOINER, text)


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run in `text`, so `text` can't close it."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def code_block(text: str, language: str = "") -> str:
    """`text` as a fenced code block that no content can break out of."""
    fence = fence_for(text)
    info = re.sub(r"[^\w+.-]", "", language)
    return f"{fence}{info}\n{text.rstrip(chr(10))}\n{fence}"


def escape_md_inline(text: str) -> str:
    """Text safe inside a Markdown line or table cell: for file and symbol names.

    Every Markdown-significant character is backslash-escaped (CommonMark renders `\\<` as
    `<`, never as a tag), line breaks become spaces, and mentions are neutralised.
    """
    flat = " ".join(text.splitlines())
    return neutralise_mentions(_INLINE_SPECIAL.sub(r"\\\1", flat))


def iter_fenced_lines(text: str) -> Iterator[tuple[str, str]]:
    """Each line of `text` (newline kept) with the code fence still open after it, or "".

    Follows CommonMark: a fence opens with 3+ backticks or tildes (indented at most three
    spaces) and closes with the same character, at least as many times, and nothing else.
    A line paired with "" is prose or a closing fence: cutting after it never splits a
    code block, and escaping it never alters code.
    """
    fence = ""
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        if fence:
            closing = stripped.strip()
            if closing.startswith(fence) and closing == fence[0] * len(closing):
                fence = ""
        else:
            match = _FENCE_OPEN.match(stripped)
            if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                fence = match.group(1)
        yield line, fence
