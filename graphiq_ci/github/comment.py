"""One sticky PR comment: created once, updated on every push, left alone when unchanged.

A hidden marker identifies our comment; the author check makes sure we never edit a
comment someone else wrote with the marker pasted in. GitHub rejects bodies over 65,536
characters, so an oversized context loses whole `<details>` sections from the end (the
least relevant ones, as the renderer orders them) and says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from graphiq_ci.github.client import GitHubClient, GitHubError, IssueComment
from graphiq_ci.render.safe import escape_md_inline, iter_fenced_lines

MARKER = "<!-- graphiq-ci:context -->"
MAX_COMMENT_CHARS = 65_536
DEFAULT_AUTHOR = "github-actions[bot]"

CommentAction = Literal["created", "updated", "unchanged", "step-summary", "skipped"]


@dataclass(frozen=True)
class CommentResult:
    """What happened to the sticky comment; `notice` is set when the caller should say why."""

    action: CommentAction
    url: str = ""
    notice: str = ""


def compose_comment(markdown: str, head_sha: str, *, limit: int = MAX_COMMENT_CHARS) -> str:
    """The full comment body: marker, context trimmed to `limit`, "updated for <sha>"."""
    footer = f"\n\n<sub>graphiq-ci · updated for {escape_md_inline(head_sha)}</sub>\n"
    text = markdown.strip("\n")
    dropped = 0
    while True:
        body = f"{MARKER}\n{text}{_trim_note(dropped, limit, cut=False)}{footer}"
        if len(body) <= limit:
            return body
        span = _last_details_section(text)
        if span is None:
            break
        text = (text[: span[0]] + text[span[1] :]).strip("\n")
        dropped += 1
    note = _trim_note(dropped, limit, cut=True)
    room = limit - len(MARKER) - 1 - len(note) - len(footer)
    return f"{MARKER}\n{_cut_outside_code(text, room)}{note}{footer}"


def find_sticky_comment(comments: Iterable[IssueComment], author: str) -> IssueComment | None:
    """Our earlier comment: it carries the marker and was written by `author`."""
    for comment in comments:
        if MARKER in comment.body and comment.author.lower() == author.lower():
            return comment
    return None


def upsert_comment(
    client: GitHubClient,
    number: int,
    body: str,
    *,
    author: str | None = None,
    step_summary: Path | None = None,
) -> CommentResult:
    """Create or update the sticky comment on PR `number`, or skip an unchanged one.

    A read-only token (`pull_request` from a fork gets one) is not a failure: the body
    goes to the job summary instead, so the run stays green and the context is visible.
    """
    login = author or client.authenticated_login() or DEFAULT_AUTHOR
    try:
        existing = find_sticky_comment(client.list_issue_comments(number), login)
        if existing is None:
            return CommentResult("created", client.create_issue_comment(number, body).url)
        if _normalise(existing.body) == _normalise(body):
            return CommentResult("unchanged", existing.url)
        return CommentResult("updated", client.update_issue_comment(existing.id, body).url)
    except GitHubError as exc:
        if not exc.is_read_only:
            raise
    why = "the GitHub token is read-only (a pull request from a fork gets one)"
    if step_summary is None:
        return CommentResult("skipped", notice=f"{why}; the comment was not posted")
    with step_summary.open("a", encoding="utf-8") as summary:
        summary.write(body + "\n")
    return CommentResult("step-summary", notice=f"{why}; the context is in the job summary")


def _normalise(body: str) -> str:
    return body.replace("\r\n", "\n").strip()


def _trim_note(dropped: int, limit: int, *, cut: bool) -> str:
    if not dropped and not cut:
        return ""
    parts = []
    if dropped:
        parts.append(f"{dropped} section{'s' if dropped != 1 else ''} left out")
    if cut:
        parts.append("the rest cut short")
    return (
        f"\n\n_Trimmed to fit GitHub's {limit:,}-character comment limit: {' and '.join(parts)}._"
    )


def _last_details_section(text: str) -> tuple[int, int] | None:
    """Offsets of the last top-level `<details>…</details>` block outside code, if any."""
    spans: list[tuple[int, int]] = []
    depth, start, offset, inside_code = 0, 0, 0, False
    for line, fence_after in iter_fenced_lines(text):
        if not inside_code and not fence_after:
            opens, closes = line.count("<details"), line.count("</details>")
            if depth == 0 and opens:
                start = offset
            before, depth = depth, max(0, depth + opens - closes)
            if depth == 0 and (before or opens):
                spans.append((start, offset + len(line)))
        inside_code = bool(fence_after)
        offset += len(line)
    return spans[-1] if spans else None


def _cut_outside_code(text: str, room: int) -> str:
    """The longest prefix of whole lines within `room` characters that ends outside code."""
    best, offset = 0, 0
    for line, fence_after in iter_fenced_lines(text):
        offset += len(line)
        if offset > room:
            break
        if not fence_after:
            best = offset
    return text[:best].rstrip("\n")
