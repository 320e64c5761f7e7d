"""graphiq-ci: a repository plus a task → the files, symbols and snippets that matter."""

from __future__ import annotations

__version__ = "0.1.0"
