"""`graphiq-ci index`: bring the index up to date (incrementally unless --full); or write one
shard of it (`--shard I/N`), or merge the shards into it (`--merge`)."""

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
        shard: str = typer.Option(
            "", "--shard", metavar="I/N",
            help="Parse and write only shard I of N (by path hash) into .graphiq/shard-I-of-N.db;"
                 " one CI job per shard, then --merge."),
        out: Path = typer.Option(None, "--out", help="Where --shard writes its file."),
        merge: bool = typer.Option(
            False, "--merge", help="Merge the SHARD files into .graphiq/graphiq.db and resolve."),
        shards: list[Path] = typer.Argument(
            None, metavar="SHARD", help="Shard files, with --merge.", show_default=False),
    ) -> None:
        """Index a repository into .graphiq/graphiq.db (incremental by default), or one shard of
        it for a CI job (--shard), or merge the shards into it (--merge)."""
        if shard or merge or out or shards:
            guarded(lambda: _check_modes(shard, out, merge, shards or [], full or hook))
            if merge:
                return _merge(repo, shards)
            return _shard(repo, shard, out)
        if hook:
            from graphiq_ci.hook import refresh_quietly

            raise typer.Exit(refresh_quietly(repo))
        report = guarded(lambda: index_with_progress(repo, full))
        for note in report.notes:
            typer.echo(f"graphiq-ci: {note}", err=True)
        from graphiq_ci.index.run import summary

        typer.echo(summary(report))


def _check_modes(shard: str, out: Path | None, merge: bool, shards: list[Path],
                 other: bool) -> None:
    from graphiq_ci.errors import GraphiqError

    if shard and merge:
        raise GraphiqError("--shard writes one shard and --merge combines them: use one")
    if other:
        raise GraphiqError("--shard and --merge index from scratch: drop --full and --hook")
    if out and not shard:
        raise GraphiqError("--out names the file --shard writes")
    if shards and not merge:
        raise GraphiqError(f"unexpected argument {shards[0]} (shard files go after --merge)")


def _shard(repo: Path, spec: str, out: Path | None) -> None:
    from graphiq_ci.index.progress import StderrProgress
    from graphiq_ci.index.run import summary
    from graphiq_ci.index.shard import index_shard, parse_spec

    progress = StderrProgress()
    try:
        report, path = guarded(lambda: index_shard(repo, parse_spec(spec), out, progress))
    finally:
        progress.close()
    for note in report.notes:
        typer.echo(f"graphiq-ci: {note}", err=True)
    typer.echo(f"{summary(report)}; shard {spec.strip()} written to {path}")


def _merge(repo: Path, shards: list[Path] | None) -> None:
    from graphiq_ci.index.merge import merge_shards, summary

    report = guarded(lambda: merge_shards(repo, shards or []))
    for note in report.notes:
        typer.echo(f"graphiq-ci: {note}", err=True)
    typer.echo(summary(report))
