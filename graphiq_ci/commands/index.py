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


def summary(report: IndexReport) -> str:
    return (f"indexed {len(report.parsed)} files ({len(report.deleted)} deleted, "
            f"{len(report.skipped)} skipped, {len(report.parse_errors)} with syntax errors) "
            f"of {report.files_seen} in {report.seconds:.2f}s")


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
            from graphiq_ci.index import run_index

            try:
                report = run_index(repo)
            except Exception as exc:  # a hook must never block a commit over the index
                typer.echo(f"graphiq-ci: index not refreshed: {exc}", err=True)
                return
            if report.changed:
                typer.echo(summary(report))
            return
        report = guarded(lambda: index_with_progress(repo, full))
        for note in report.notes:
            typer.echo(f"graphiq-ci: {note}", err=True)
        typer.echo(summary(report))
