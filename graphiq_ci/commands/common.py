"""What every subcommand shares: one-line errors, output, and bounded integer options.

The command line is the standard library's argparse: Typer validated every parameter through
pydantic at parse time, and its import with pydantic's cost more than the Python interpreter
itself on every call, a pre-commit hook's and a `--help` included.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from graphiq_ci.errors import GraphiqError, one_line

TYPE_CHECKING = False  # typing.TYPE_CHECKING without typing's import (see `path_arg`)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import TypeVar

    T = TypeVar("T")


class Exit(Exception):  # noqa: N818 (it is not an error: a command's chosen exit status)
    """End the command with `code` once what it printed is flushed."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def guarded(fn: Callable[[], T]) -> T:
    """Run a command body, turning `GraphiqError` into a one-line message and exit code 2.

    A database or file-system failure the environment causes (a full disk, a damaged index
    found mid-query, a permission) is reported the same way, never as a traceback.
    """
    try:
        return fn()
    except Exception as exc:
        import sqlite3  # loaded by any command that got this far; `--help` never needs it

        if not isinstance(exc, (GraphiqError, sqlite3.Error, OSError)) \
                or isinstance(exc, BrokenPipeError) or os.environ.get("GRAPHIQ_DEBUG"):
            raise  # a reader that left (`| head`) is no failure to explain: see cli.main
        echo(f"graphiq-ci: {one_line(exc)}", err=True)
        raise Exit(2) from None


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text + ("\n" if nl else ""))
    stream.flush()


def path_arg(text: str) -> Path:
    """argparse's `type` for a path (also of a string default): pathlib and typing load once
    a command runs, not for `--help`, whose whole time they were a seventh of (issue #14)."""
    from pathlib import Path

    return Path(text)


def at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse `type` for an integer within [low, high]: a usage error (exit 2) otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{value} is not {bound}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its messages
    return parse


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter (descriptions as written), told the terminal's width as argparse
    would find it: left to itself, it imports shutil for that on every parser it builds,
    ~3.5 ms of every command (bz2, lzma and fnmatch come with it), help or not."""

    def __init__(self, prog: str, **kwargs: object) -> None:
        kwargs.setdefault("width", _columns() - 2)
        super().__init__(prog, **kwargs)  # type: ignore[arg-type]


def _columns() -> int:
    """shutil.get_terminal_size().columns: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def add_command(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                name: str, run: Callable[[argparse.Namespace], int | None],
                doc: str) -> argparse.ArgumentParser:
    """A subcommand whose help is `doc` (its first line in the command list) and whose body
    is `run(args)`, returning the exit status (None: 0)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=doc.split("\n", 1)[0], description=doc, allow_abbrev=False,
        formatter_class=HelpFormatter)
    parser.set_defaults(run=run)
    return parser
