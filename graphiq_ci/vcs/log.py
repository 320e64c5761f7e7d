"""Streaming `git log --name-only -z` parser shared by recency and co-change.

One git process walks the history once; callers stop iterating when they have
what they need, which also stops git.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import closing

from graphiq_ci.vcs.repo import Repo, git_stream

# Two NULs before each commit header: file names are never empty, so an empty
# token can only come from this marker, whatever bytes the names contain.
_MARK = "%x00%x00"


def iter_commits_with_files(
    repo: Repo, header_format: str, *args: str
) -> Generator[tuple[str, list[str]], None, None]:
    """Yield (formatted header, repo-relative paths touched) per commit, newest first.

    `args` are extra `git log` arguments (revisions, -n, --no-merges…);
    renames are not followed, so a rename shows as its new path.
    """
    with closing(
        git_stream(
            repo, "log", "-z", "--name-only", "--no-renames", f"--format={_MARK}{header_format}",
            *args,
        )
    ) as stream:
        yield from _parse(stream)


def _parse(stream: Iterator[bytes]) -> Iterator[tuple[str, list[str]]]:
    pending = b""
    header: str | None = None
    files: list[str] = []
    empties = 0
    first_name = False
    for chunk in stream:
        tokens = (pending + chunk).split(b"\0")
        pending = tokens.pop()  # possibly incomplete
        for raw in tokens:
            if not raw:
                empties += 1
                continue
            text = raw.decode("utf-8", "surrogateescape")
            if empties >= 2:  # a header follows the double-NUL marker
                if header is not None:
                    yield header, files
                header, files, first_name = text, [], True
            else:
                # git separates the header from the first name with a newline
                files.append(text[1:] if first_name and text.startswith("\n") else text)
                first_name = False
            empties = 0
    if pending:
        text = pending.decode("utf-8", "surrogateescape").rstrip("\n")
        if empties >= 2:
            if header is not None:
                yield header, files
            header, files = text, []
        elif text:
            files.append(text[1:] if first_name and text.startswith("\n") else text)
    if header is not None:
        yield header, files
