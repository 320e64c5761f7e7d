"""`graphiq-ci index`: bring the index up to date (incrementally unless --full); or write one
shard of it (`--shard I/N`), or merge the shards into it (`--merge`)."""

from __future__ import annotations

import argparse

from graphiq_ci.commands.common import TYPE_CHECKING, add_command, echo, guarded, path_arg

if TYPE_CHECKING:
    from pathlib import Path

    from graphiq_ci.index import IndexReport


def index_with_progress(repo: Path, full: bool = False) -> IndexReport:
    from graphiq_ci.index import run_index
    from graphiq_ci.index.progress import StderrProgress

    progress = StderrProgress()
    try:
        return run_index(repo, full=full, progress=progress)
    finally:
        progress.close()


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "index", _index, "Index a repository into .graphiq/graphiq.db "
                    "(incremental by default), or one shard of it for a CI job (--shard), or "
                    "merge the shards into it (--merge).")
    p.add_argument("shards", nargs="*", type=path_arg, metavar="SHARD",
                   help="Shard files, with --merge.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository (or any directory; default: .).")
    p.add_argument("--full", action="store_true", help="Rebuild from scratch.")
    p.add_argument("--hook", action="store_true", help="For git hooks: print only when "
                   "something changed, never fail the hook.")
    p.add_argument("--shard", default="", metavar="I/N", help="Parse and write only shard I "
                   "of N (by path hash) into .graphiq/shard-I-of-N.db; one CI job per shard, "
                   "then --merge.")
    p.add_argument("--out", type=path_arg, metavar="PATH", help="Where --shard writes its file.")
    p.add_argument("--merge", action="store_true",
                   help="Merge the SHARD files into .graphiq/graphiq.db and resolve.")


def _index(a: argparse.Namespace) -> int:
    if a.shard or a.merge or a.out or a.shards:
        guarded(lambda: _check_modes(a.shard, a.out, a.merge, a.shards, a.full or a.hook))
        if a.merge:
            _merge(a.repo, a.shards)
        else:
            _shard(a.repo, a.shard, a.out)
        return 0
    if a.hook:
        from graphiq_ci.hook import refresh_quietly

        return refresh_quietly(a.repo)
    report = guarded(lambda: index_with_progress(a.repo, a.full))
    for note in report.notes:
        echo(f"graphiq-ci: {note}", err=True)
    from graphiq_ci.index.run import summary

    echo(summary(report))
    return 0


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
        echo(f"graphiq-ci: {note}", err=True)
    echo(f"{summary(report)}; shard {spec.strip()} written to {path}")


def _merge(repo: Path, shards: list[Path] | None) -> None:
    from graphiq_ci.index.merge import merge_shards, summary

    report = guarded(lambda: merge_shards(repo, shards or []))
    for note in report.notes:
        echo(f"graphiq-ci: {note}", err=True)
    echo(summary(report))
