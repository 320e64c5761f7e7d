"""`graphiq-ci affected`: the tests that reach the branch's change, for test selection in CI."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from graphiq_ci.cli import guarded
from graphiq_ci.errors import GraphiqError


def register(app: typer.Typer) -> None:
    @app.command()
    def affected(
        repo: Path = typer.Option(Path("."), "--repo", help="Repository."),
        base: str = typer.Option(None, "--base", help="Compare with this ref "
                                 "(default: the trunk's fork point)."),
        stdin: bool = typer.Option(False, "--stdin", help="Read the changed paths from "
                                   "standard input, one per line, instead of asking git."),
        fmt: str = typer.Option("text", "--format", help="text, json or pytest (arguments "
                                "for pytest, one per line)."),
    ) -> None:
        """List the test files and test ids that reach what the branch changed."""
        from graphiq_ci.context.affected import affected as find_affected
        from graphiq_ci.context.workspace import Workspace
        from graphiq_ci.render.affected import (
            AFFECTED_FORMATS,
            affected_json,
            affected_text,
            pytest_args,
        )

        def run() -> str:
            if fmt not in AFFECTED_FORMATS:
                raise GraphiqError(f"unknown format {fmt!r}: use text, json or pytest")
            if stdin and base:
                raise GraphiqError("--stdin and --base both say what changed: pass one")
            paths = [line.strip() for line in sys.stdin.read().splitlines()
                     if line.strip()] if stdin else None
            with Workspace(repo) as ws:
                for note in ws.refresh():
                    typer.echo(f"graphiq-ci: {note}", err=True)
                found = find_affected(ws, base, paths)
            for note in found.notes:
                typer.echo(f"graphiq-ci: {note}", err=True)
            render = {"text": affected_text, "json": affected_json, "pytest": pytest_args}[fmt]
            return render(found)

        typer.echo(guarded(run), nl=False)
