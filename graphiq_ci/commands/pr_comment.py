"""`graphiq-ci pr-comment`: the Action's one step; post the PR's context as a sticky comment.

Option parsing only: defaults come from `.graphiq.yml`, the work is
`graphiq_ci.github.pr_comment.run_pr_comment`, and the context is rendered by
`_render_context_markdown`.
"""

from __future__ import annotations

import argparse

from graphiq_ci.commands.common import TYPE_CHECKING, add_command, at_least, echo, guarded, path_arg
from graphiq_ci.errors import GraphiqError

if TYPE_CHECKING:
    from pathlib import Path

    from graphiq_ci.config import Config
    from graphiq_ci.github.event import PullRequest
    from graphiq_ci.github.pr_comment import RenderedContext

CONTEXT_FILE_SUFFIX = {"markdown": ".md", "json": ".json", "prompt": ".txt"}


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "pr-comment", _run,
                    "Post or update one pull-request comment with the code the PR touches.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository root (default: .).")
    p.add_argument("--base", metavar="REF", help="Base commit or ref (default: the PR's base).")
    p.add_argument("--max-nodes", type=at_least(1), metavar="N",
                   help="Most symbols in the context.")
    p.add_argument("--max-tokens", type=at_least(100), metavar="N",
                   help="Token budget of the context.")
    p.add_argument("--change-tokens", type=at_least(0), metavar="N",
                   help="Room for the changed lines on top of the budget (default: 8000, or "
                   ".graphiq.yml).")
    p.add_argument("--format", dest="fmt", default="markdown",
                   help="Format of the context file: markdown|json|prompt (default: markdown).")
    p.add_argument("--template", type=path_arg, metavar="PATH",
                   help="Jinja2 template for the comment.")
    p.add_argument("--no-comment", action="store_true",
                   help="Render and set outputs; post nothing.")
    p.add_argument("--dry-run", action="store_true",
                   help="Print the comment body instead of posting it.")
    p.add_argument("--token", help="GitHub token (default: $GITHUB_TOKEN).")


def _run(a: argparse.Namespace) -> int:
    def body() -> None:
        from graphiq_ci.config import load_config
        from graphiq_ci.github.pr_comment import run_pr_comment

        if a.fmt not in CONTEXT_FILE_SUFFIX:
            raise GraphiqError(f"--format must be one of {', '.join(CONTEXT_FILE_SUFFIX)}")
        config, warnings = load_config(a.repo)
        for warning in warnings:
            echo(f"graphiq-ci: warning: {warning}", err=True)

        def render(pull_request: PullRequest) -> RenderedContext:
            return _render_context_markdown(
                a.repo,
                pull_request,
                config,
                base=a.base or pull_request.base_sha,
                max_nodes=a.max_nodes or config.budgets.max_nodes,
                max_tokens=a.max_tokens or config.budgets.max_tokens,
                change_room=(config.budgets.change_tokens if a.change_tokens is None
                             else a.change_tokens),
                fmt=a.fmt,
                template=a.template,
            )

        result = run_pr_comment(
            a.repo,
            token=a.token,
            dry_run=a.dry_run,
            render_body=render,
            post_comment=not a.no_comment,
            context_file=a.repo / ".graphiq" / f"pr-context{CONTEXT_FILE_SUFFIX[a.fmt]}",
        )
        if a.dry_run:
            echo(result.body)
        elif result.comment is not None:
            if result.comment.notice:
                # A workflow command: shows as an annotation on the run.
                echo(f"::notice title=graphiq-ci::{result.comment.notice}")
            echo(f"graphiq-ci: comment {result.comment.action} {result.comment.url}")

    guarded(body)
    return 0


def _render_context_markdown(
    repo_root: Path,
    pull_request: PullRequest,
    config: Config,
    *,
    base: str,
    max_nodes: int,
    max_tokens: int,
    change_room: int,
    fmt: str,
    template: Path | None,
) -> RenderedContext:
    """The PR's context in PR mode: the comment Markdown, cited files, the `fmt` rendition."""
    from graphiq_ci.context import Options, build_context
    from graphiq_ci.context.workspace import Workspace
    from graphiq_ci.github.pr_comment import RenderedContext
    from graphiq_ci.render.output import render_json, render_text

    task = f"{pull_request.title}\n\n{pull_request.body}"
    opts = Options(max_nodes=max_nodes, depth=config.budgets.depth)
    with Workspace(repo_root, show_progress=True) as ws:
        ctx = build_context(repo_root, task, opts, diff=True, base=base, workspace=ws)
    for note in ctx.notes:  # e.g. how a shallow checkout was compared: worth a line in the log
        echo(f"graphiq-ci: {note}", err=True)
    custom = template or _configured_template(repo_root, config)
    comment = render_text(ctx, "pr_comment", max_tokens=max_tokens, change_room=change_room,
                          template=custom, with_diagram=True)
    if fmt == "json":
        text = render_json(ctx, render_text(ctx, "prompt", max_tokens=max_tokens,
                                            change_room=change_room))
    elif fmt == "markdown":
        text = comment.text
    else:
        text = render_text(ctx, fmt, max_tokens=max_tokens, change_room=change_room).text
    return RenderedContext(comment.text, tuple(f.path for f in ctx.files), text)


def _configured_template(repo_root: Path, config: Config) -> Path | None:
    """`.graphiq.yml`'s comment template, which must live inside the repository.

    A pull request can change `.graphiq.yml`; a template path pointing outside the checkout
    (`/proc/self/environ`, `../../secrets`) would render that file into a public comment.
    """
    name = config.templates.get("pr_comment")
    if not name:
        return None
    root = repo_root.resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root):
        raise GraphiqError(f"templates.pr_comment must be a file inside the repository: {name}")
    return path
