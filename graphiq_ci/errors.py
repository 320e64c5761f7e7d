"""The one exception type users can cause, and the one line any failure they meet becomes.

The CLI prints `one_line` and exits 2; the MCP server returns it as a tool error.
"""

from __future__ import annotations


class GraphiqError(Exception):
    """A problem with the user's input or environment, explained in one line."""


def one_line(exc: Exception) -> str:
    """What a user is told about a `GraphiqError`, a database error (a damaged index found
    mid-query, a full disk) or a file-system error, in one sentence and never a traceback."""
    import sqlite3  # not at import time: `--help` never needs it

    if isinstance(exc, sqlite3.Error):
        return f"index error: {exc} (`graphiq-ci index --full` rebuilds it)"
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return str(exc)
