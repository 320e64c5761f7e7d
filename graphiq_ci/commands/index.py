"""`graphiq-ci index`: bring the index up to date (incrementally unless --full)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from graphiq_ci.cli import guarded

if TYPE_CHECKING:
    from graphiq_ci.index import IndexReport

PROGRESS_AFTER_S = 0.5


class _ProgressBar:
    """A one-line bar on a terminal, shown only once indexing has run ~0.5 s."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not sys.stderr.isatty() or time.monotonic() - self.start < PROGRESS_AFTER_S:
            return
        width = 30
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\rindexing [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")


def index_with_progress(repo: Path, full: bool = False) -> IndexReport:
    from graphiq_ci.index import run_index

    bar = _ProgressBar()
    try:
        return run_index(repo, full=full, progress=bar)
    finally:
        bar.close()


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
