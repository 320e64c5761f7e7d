"""`graphiq-ci index`: bring the index up to date (incrementally unless --full)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from graphiq_ci.cli import guarded

if TYPE_CHECKING:
    from graphiq_ci.index import IndexReport


def index_with_progress(repo: Path, full: bool = False) -> IndexReport:
    from graphiq_ci.index import run_index
    from graphiq_ci.index.progress import StderrProgress

    progress = StderrProgress()
    try:
        return run_index(repo, full=full, progress=progress)
    finally:
        progress.close()


def register(app: typer.Typer) -> None:
    @app.command()
    def index(
        repo: Path = typer.Option(Path("."), "--repo", help="Repository (or any directory)."),
        full: bool = typer.Option(False, "--full", help="Rebuild from scratch."),
        hook: bool = typer.Option(
            False, "--hook",
            help="For git hooks: print only when something changed, never fail the hook."),
    ) -> None:
        """Index a repository into .graphiq/graphiq.db (incremental by default)."""
        if hook:
            from graphiq_ci.hook import refresh_quietly

            raise typer.Exit(refresh_quietly(repo))
        report = guarded(lambda: index_with_progress(repo, full))
        for note in report.notes:
            typer.echo(f"graphiq-ci: {note}", err=True)
        from graphiq_ci.index.run import summary

        typer.echo(summary(report))
