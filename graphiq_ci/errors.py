"""The one exception type users can cause; the CLI maps it to exit code 2."""

from __future__ import annotations


class GraphiqError(Exception):
    """A problem with the user's input or environment, explained in one line."""
