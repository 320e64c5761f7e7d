"""The `graphiq-ci` command line: option parsing only, one module per subcommand.

Each subcommand lives in `graphiq_ci/commands/<name>.py` and exposes `register(app)`.
Errors users can cause are `GraphiqError` → one line on stderr, exit 2; `--debug` shows tracebacks.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable
from typing import TypeVar

import typer

from graphiq_ci.errors import GraphiqError, one_line

app = typer.Typer(
    name="graphiq-ci",
    help="Turn a repository plus a task or PR description into the code that matters.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help and usage errors: Typer's rich formatting imports rich and markdown-it on
    # every `--help` (~70 ms, half the command's start-up) for boxes around the same text.
    rich_markup_mode=None,
)

T = TypeVar("T")


def _register_commands() -> None:
    from graphiq_ci.commands import COMMANDS

    for register in COMMANDS:
        register(app)


def guarded(fn: Callable[[], T]) -> T:
    """Run a command body, turning `GraphiqError` into a one-line message and exit code 2.

    A database or file-system failure the environment causes (a full disk, a damaged index
    found mid-query, a permission) is reported the same way, never as a traceback.
    """
    try:
        return fn()
    except (GraphiqError, sqlite3.Error, OSError) as exc:
        if os.environ.get("GRAPHIQ_DEBUG"):
            raise
        typer.echo(f"graphiq-ci: {one_line(exc)}", err=True)
        raise typer.Exit(2) from None


def main() -> None:
    if sys.argv[1:] == ["index", "--hook"]:  # every commit runs this: skip Typer's start-up
        from pathlib import Path

        from graphiq_ci.hook import refresh_quietly

        sys.exit(refresh_quietly(Path(".")))
    if "--debug" in sys.argv:
        sys.argv.remove("--debug")
        os.environ["GRAPHIQ_DEBUG"] = "1"
    _register_commands()
    app()
