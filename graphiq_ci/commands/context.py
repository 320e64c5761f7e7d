"""`graphiq-ci context`: the main job — a task in, the code that matters out."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from graphiq_ci.cli import guarded
from graphiq_ci.errors import GraphiqError


def read_task(task: str | None, task_file: Path | None) -> str:
    if task_file is not None:
        try:
            raw = sys.stdin.buffer.read() if str(task_file) == "-" else task_file.read_bytes()
        except OSError as exc:
            raise GraphiqError(f"cannot read the task file {task_file}: {exc.strerror}") from None
        return raw.decode("utf-8", "replace")
    return task or ""


def register(app: typer.Typer) -> None:
    @app.command()
    def context(
        task: str = typer.Argument(None, help="The task or PR description."),
        task_file: Path = typer.Option(None, "--task-file", help="Read the task from a file "
                                       "(- for standard input)."),
        repo: Path = typer.Option(Path("."), "--repo", help="Repository."),
        fmt: str = typer.Option("markdown", "--format", help="markdown, prompt or json."),
        max_nodes: int = typer.Option(None, "--max-nodes", min=1,
                                      help="Symbols to keep (default: 24, or .graphiq.yml)."),
        max_tokens: int = typer.Option(None, "--max-tokens", min=100,
                                       help="Token budget (default: 1800, or .graphiq.yml)."),
        depth: int = typer.Option(None, "--depth", min=0, max=6,
                                  help="BFS depth from the entry points (default: 2)."),
        diff: bool = typer.Option(False, "--diff", help="PR mode: start from the branch's "
                                  "changed symbols (implied with no task on a branch)."),
        base: str = typer.Option(None, "--base", help="Compare with this ref (implies --diff)."),
        template: Path = typer.Option(None, "--template", help="Your own Jinja2 template."),
        diagram: bool = typer.Option(False, "--diagram", help="Add a Mermaid diagram."),
        explain: bool = typer.Option(False, "--explain", help="Show why each file ranked."),
    ) -> None:
        """Build the context for a task: ranked files, symbols, code, within a token budget."""
        from graphiq_ci.config import load_config
        from graphiq_ci.context import Options, build_context, nothing_found
        from graphiq_ci.context.workspace import Workspace
        from graphiq_ci.index import find_root
        from graphiq_ci.render.output import render_json, render_text

        def run() -> str:
            if fmt not in ("markdown", "prompt", "json"):
                raise GraphiqError(f"unknown format {fmt!r}: use markdown, prompt or json")
            text = read_task(task, task_file)
            budgets = load_config(find_root(repo))[0].budgets
            opts = Options(max_nodes=max_nodes or budgets.max_nodes,
                           depth=budgets.depth if depth is None else depth)
            with Workspace(repo, show_progress=True) as ws:
                ctx = build_context(repo, text, opts, diff=diff, base=base, workspace=ws)
            for note in ctx.notes:
                typer.echo(f"graphiq-ci: {note}", err=True)
            if not ctx.files and not ctx.symbols:
                raise _NothingFound(nothing_found(ctx.stats))
            budget = max_tokens or budgets.max_tokens
            if fmt == "json":
                return render_json(ctx, render_text(ctx, "prompt", max_tokens=budget))
            # PR mode reads changed → callers → tests; the task view has no such sections.
            view = "pr_comment" if (fmt == "markdown" and template is None
                                    and ctx.stats.get("mode") == "pr") else fmt
            out = render_text(ctx, view, max_tokens=budget, template=template,
                              with_diagram=diagram).text
            if explain:
                out += "\n" + "\n".join(f"- {f.path}: {', '.join(f.reasons)}" for f in ctx.files)
            return out

        try:
            out = guarded(run)
            typer.echo(out, nl=not out.endswith("\n"))
        except _NothingFound as exc:
            typer.echo(f"graphiq-ci: {exc}", err=True)
            raise typer.Exit(1) from None


class _NothingFound(Exception):
    pass
