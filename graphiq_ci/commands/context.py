"""`graphiq-ci context`: the main job — a task in, the code that matters out."""

from __future__ import annotations

import argparse
import sys

from graphiq_ci.commands.common import TYPE_CHECKING, add_command, at_least, echo, guarded, path_arg
from graphiq_ci.errors import GraphiqError

if TYPE_CHECKING:
    from pathlib import Path


def read_task(task: str | None, task_file: Path | None) -> str:
    if task_file is not None:
        try:
            raw = sys.stdin.buffer.read() if str(task_file) == "-" else task_file.read_bytes()
        except OSError as exc:
            raise GraphiqError(f"cannot read the task file {task_file}: {exc.strerror}") from None
        return raw.decode("utf-8", "replace")
    return task or ""


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "context", _context, "Build the context for a task: ranked "
                    "files, symbols, code, within a token budget.")
    p.add_argument("task", nargs="?", help="The task or PR description.")
    p.add_argument("--task-file", type=path_arg, metavar="PATH",
                   help="Read the task from a file (- for standard input).")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository (default: .).")
    p.add_argument("--format", dest="fmt", default="markdown",
                   help="markdown, prompt or json (default: markdown).")
    p.add_argument("--max-nodes", type=at_least(1), metavar="N",
                   help="Symbols to keep (default: 24, or .graphiq.yml).")
    p.add_argument("--max-tokens", type=at_least(100), metavar="N",
                   help="Token budget (default: 1800, or .graphiq.yml).")
    p.add_argument("--change-tokens", type=at_least(0), metavar="N",
                   help="PR mode: room for the changed lines on top of the budget (default: "
                   "8000, or .graphiq.yml; 0: the changed lines share the budget).")
    p.add_argument("--depth", type=at_least(0, 6), metavar="N",
                   help="BFS depth from the entry points, 0 to 6 (default: 2).")
    p.add_argument("--diff", action="store_true", help="PR mode: start from the branch's "
                   "changed symbols (implied with no task on a branch).")
    p.add_argument("--base", metavar="REF", help="Compare with this ref (implies --diff).")
    p.add_argument("--template", type=path_arg, metavar="PATH", help="Your own Jinja2 template.")
    p.add_argument("--diagram", action="store_true", help="Add a Mermaid diagram.")
    p.add_argument("--explain", action="store_true", help="Show why each file ranked.")


def _context(a: argparse.Namespace) -> int:
    from graphiq_ci.config import load_config
    from graphiq_ci.context import Options, build_context, nothing_found
    from graphiq_ci.context.workspace import Workspace
    from graphiq_ci.index import find_root
    from graphiq_ci.paths import one_line
    from graphiq_ci.render.output import render_json, render_text

    def run() -> str:
        if a.fmt not in ("markdown", "prompt", "json"):
            raise GraphiqError(f"unknown format {a.fmt!r}: use markdown, prompt or json")
        text = read_task(a.task, a.task_file)
        budgets = load_config(find_root(a.repo))[0].budgets
        opts = Options(max_nodes=a.max_nodes or budgets.max_nodes,
                       depth=budgets.depth if a.depth is None else a.depth)
        with Workspace(a.repo, show_progress=True) as ws:
            ctx = build_context(a.repo, text, opts, diff=a.diff, base=a.base, workspace=ws)
        for note in ctx.notes:
            echo(f"graphiq-ci: {note}", err=True)
        budget = a.max_tokens or budgets.max_tokens
        change_room = budgets.change_tokens if a.change_tokens is None else a.change_tokens
        found = bool(ctx.files or ctx.symbols)
        if a.fmt == "json":
            doc = render_json(ctx, render_text(ctx, "prompt", max_tokens=budget,
                                                 change_room=change_room))
            if not found:  # a script reading the JSON still gets the document, lists empty
                raise _NothingFound(nothing_found(ctx.stats), doc)
            return doc
        if not found:
            raise _NothingFound(nothing_found(ctx.stats))
        # PR mode reads changed → callers → tests; the task view has no such sections.
        view = "pr_comment" if (a.fmt == "markdown" and a.template is None
                                and ctx.stats.get("mode") == "pr") else a.fmt
        out = render_text(ctx, view, max_tokens=budget, change_room=change_room,
                          template=a.template, with_diagram=a.diagram).text
        if a.explain:
            out += "\n" + "\n".join(f"- {one_line(f.path)}: {', '.join(f.reasons)}"
                                      for f in ctx.files)
        return out

    try:
        out = guarded(run)
    except _NothingFound as exc:
        echo(f"graphiq-ci: {exc}", err=True)
        if exc.output:
            echo(exc.output, nl=not exc.output.endswith("\n"))
        return 1
    echo(out, nl=not out.endswith("\n"))
    return 0


class _NothingFound(Exception):
    """Nothing relevant: exit 1 with a one-line reason, and `output` (the JSON document with
    its lists empty, for --format json; else nothing) on stdout."""

    def __init__(self, reason: str, output: str = "") -> None:
        super().__init__(reason)
        self.output = output
