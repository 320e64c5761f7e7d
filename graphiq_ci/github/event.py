"""The pull request a GitHub Actions run is about, read from its event payload.

Actions writes the webhook payload that triggered the run to `$GITHUB_EVENT_PATH`; for
`pull_request` and `pull_request_target` it holds everything pr-comment needs (numbers,
SHAs, refs, title and body), so no API call is spent on it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphiq_ci.errors import GraphiqError

SUPPORTED_EVENTS = ("pull_request", "pull_request_target")


@dataclass(frozen=True)
class PullRequest:
    """A pull request as the event describes it. Title and body are untrusted text."""

    number: int
    title: str
    body: str
    base_sha: str
    head_sha: str
    base_ref: str
    head_ref: str
    repository: str  # "owner/name" of the base repository, where the comment goes
    author: str


def read_pull_request(environ: Mapping[str, str] | None = None) -> PullRequest:
    """The pull request of the current Actions run, from `$GITHUB_EVENT_PATH`."""
    env = os.environ if environ is None else environ
    event_name = env.get("GITHUB_EVENT_NAME", "")
    if event_name and event_name not in SUPPORTED_EVENTS:
        raise GraphiqError(
            f"pr-comment needs a pull_request or pull_request_target event, "
            f"this run was triggered by '{event_name}'"
        )
    event_path = env.get("GITHUB_EVENT_PATH", "")
    if not event_path:
        raise GraphiqError(
            "GITHUB_EVENT_PATH is not set: pr-comment runs inside GitHub Actions "
            "(locally, point GITHUB_EVENT_PATH at a pull_request payload and use --dry-run)"
        )
    try:
        payload = json.loads(Path(event_path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise GraphiqError(f"cannot read the event payload {event_path}: {exc.strerror}") from None
    except ValueError:
        raise GraphiqError(f"the event payload {event_path} is not valid JSON") from None
    return parse_pull_request(payload, fallback_repository=env.get("GITHUB_REPOSITORY", ""))


def parse_pull_request(payload: Any, *, fallback_repository: str = "") -> PullRequest:
    """A `PullRequest` from a decoded pull_request(_target) webhook payload."""
    pr = payload.get("pull_request") if isinstance(payload, dict) else None
    if not isinstance(pr, dict):
        raise GraphiqError(
            "the event payload has no 'pull_request': pr-comment needs a pull_request "
            "or pull_request_target event"
        )
    try:
        repository = (payload.get("repository") or {}).get("full_name") or fallback_repository
        return PullRequest(
            number=int(pr["number"]),
            title=str(pr.get("title") or ""),
            body=str(pr.get("body") or ""),
            base_sha=str(pr["base"]["sha"]),
            head_sha=str(pr["head"]["sha"]),
            base_ref=str(pr["base"]["ref"]),
            head_ref=str(pr["head"]["ref"]),
            repository=str(repository),
            author=str((pr.get("user") or {}).get("login", "")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GraphiqError(f"the pull_request event payload is incomplete: missing {exc}") from None
