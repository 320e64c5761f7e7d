"""`graphiq-ci affected`: the tests that reach the branch's change, for test selection in CI."""

from __future__ import annotations

import argparse
import sys

from graphiq_ci.commands.common import add_command, echo, guarded, path_arg
from graphiq_ci.errors import GraphiqError


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "affected", _run,
                    "List the test files and test ids that reach what the branch changed.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository (default: .).")
    p.add_argument("--base", metavar="REF",
                   help="Compare with this ref (default: the trunk's fork point).")
    p.add_argument("--stdin", action="store_true", help="Read the changed paths from "
                   "standard input, one per line, instead of asking git.")
    p.add_argument("--all", dest="everything", action="store_true", help="List every test "
                   "file with any evidence, not only the strongest (a CI step that would "
                   "rather run too many tests than miss one).")
    p.add_argument("--format", dest="fmt", default="text", help="text, json or pytest "
                   "(arguments for pytest, one per line; default: text).")


def _run(a: argparse.Namespace) -> int:
    from graphiq_ci.context.affected import affected as find_affected
    from graphiq_ci.context.workspace import Workspace
    from graphiq_ci.paths import one_line
    from graphiq_ci.render.affected import (
        AFFECTED_FORMATS,
        affected_json,
        affected_text,
        pytest_args,
        unpassable,
    )

    def run() -> str:
        if a.fmt not in AFFECTED_FORMATS:
            raise GraphiqError(f"unknown format {a.fmt!r}: use text, json or pytest")
        if a.stdin and a.base:
            raise GraphiqError("--stdin and --base both say what changed: pass one")
        paths = [line.strip() for line in sys.stdin.read().splitlines()
                 if line.strip()] if a.stdin else None
        with Workspace(a.repo) as ws:
            for note in ws.refresh():
                echo(f"graphiq-ci: {note}", err=True)
            found = find_affected(ws, a.base, paths, a.everything)
        for note in found.notes:
            echo(f"graphiq-ci: {note}", err=True)
        if a.fmt == "pytest":
            for path in unpassable(found):
                echo(f"graphiq-ci: left out of the pytest arguments, its name holds a control "
                     f"character: {one_line(path)}", err=True)
        render = {"text": affected_text, "json": affected_json, "pytest": pytest_args}[a.fmt]
        return render(found)

    echo(guarded(run), nl=False)
    return 0
