"""pr-comment, end to end: event → rendered context → sticky comment → step outputs.

The context itself is rendered by the caller's `render_body`, so this module knows
GitHub and nothing about ranking; it is what the Action's one step runs.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from graphiq_ci.github.client import DEFAULT_API_URL, GitHubClient
from graphiq_ci.github.comment import CommentResult, compose_comment, upsert_comment
from graphiq_ci.github.event import PullRequest, read_pull_request


@dataclass(frozen=True)
class RenderedContext:
    """What `render_body` returns for one pull request.

    `markdown` becomes the comment (already sanitised by the renderer); `files` are the
    repo-relative paths it cites, best first (the `files` output); `context_text` is the
    context in the format the user asked for (the `context-file` output), the Markdown
    when None.
    """

    markdown: str
    files: tuple[str, ...] = ()
    context_text: str | None = None


@dataclass(frozen=True)
class PrCommentResult:
    """The outcome; `comment` is None when nothing was posted (dry run, comments off)."""

    pull_request: PullRequest
    body: str
    files: tuple[str, ...]
    context_file: Path
    comment: CommentResult | None


def run_pr_comment(
    repo_root: Path,
    *,
    token: str | None,
    dry_run: bool,
    render_body: Callable[[PullRequest], RenderedContext],
    post_comment: bool = True,
    context_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> PrCommentResult:
    """Render the context for the run's pull request and upsert the sticky comment.

    Outputs go to `$GITHUB_OUTPUT` when set; with `dry_run` or without `post_comment`
    GitHub is never called, so no token is needed.
    """
    env = os.environ if environ is None else environ
    pull_request = read_pull_request(env)
    rendered = render_body(pull_request)
    target = context_file or repo_root / ".graphiq" / "pr-context.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    context_text = rendered.markdown if rendered.context_text is None else rendered.context_text
    target.write_text(context_text, encoding="utf-8")
    body = compose_comment(rendered.markdown, pull_request.head_sha)

    comment = None
    if post_comment and not dry_run:
        client = GitHubClient(
            token or env.get("GITHUB_TOKEN", ""),
            pull_request.repository,
            api_url=env.get("GITHUB_API_URL") or DEFAULT_API_URL,
            sleep=sleep,
        )
        summary = env.get("GITHUB_STEP_SUMMARY")
        comment = upsert_comment(
            client, pull_request.number, body, step_summary=Path(summary) if summary else None
        )

    output_path = env.get("GITHUB_OUTPUT")
    if output_path:
        write_outputs(
            Path(output_path),
            {
                "comment-url": comment.url if comment else "",
                "files": "\n".join(rendered.files),
                "context-file": str(target.resolve()),
            },
        )
    return PrCommentResult(pull_request, body, rendered.files, target, comment)


def write_outputs(path: Path, outputs: Mapping[str, str]) -> None:
    """Append step outputs in the multi-line form, with a delimiter no value can contain."""
    with path.open("a", encoding="utf-8") as out:
        for name, value in outputs.items():
            delimiter = f"graphiq_{uuid.uuid4().hex}"
            out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
