"""A minimal GitHub REST client: just the issue-comment calls the sticky comment needs.

Stdlib only (urllib), so the Action installs nothing beyond graphiq-ci itself. Two things
make it more than `urlopen`: transient failures (5xx, secondary rate limits) are retried
with backoff that honours `Retry-After`, and the token never reaches an exception message,
log line or output, because a CI log is public for public repositories.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import Message
from typing import Any

from graphiq_ci.errors import GraphiqError

DEFAULT_API_URL = "https://api.github.com"
PER_PAGE = 100
_LINK_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


class GitHubError(GraphiqError):
    """A GitHub API call failed; `status` is the HTTP status (0 when no response came)."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        api_message: str = "",
        headers: Message | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.api_message = api_message
        self.headers = headers

    @property
    def is_read_only(self) -> bool:
        """True when the token may read but not write, e.g. `pull_request` from a fork."""
        return self.status == 403 and "not accessible by integration" in self.api_message.lower()


@dataclass(frozen=True)
class IssueComment:
    """The parts of an issue comment the sticky-comment logic looks at."""

    id: int
    body: str
    author: str
    url: str


@dataclass(frozen=True)
class _Response:
    headers: Message
    data: Any


class GitHubClient:
    """Issue-comment calls against one repository, authenticated with one token."""

    def __init__(
        self,
        token: str,
        repository: str,
        *,
        api_url: str = DEFAULT_API_URL,
        sleep: Callable[[float], None] = time.sleep,
        max_attempts: int = 5,
        max_sleep: float = 60.0,
        timeout: float = 30.0,
    ) -> None:
        if not token:
            raise GraphiqError("no GitHub token: pass --token or set GITHUB_TOKEN")
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository):
            raise GraphiqError(f"GitHub repository must be 'owner/name', got {repository!r}")
        self._token = token
        self.repository = repository
        self.api_url = api_url.rstrip("/")
        self._sleep = sleep
        self._max_attempts = max_attempts
        self._max_sleep = max_sleep
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"GitHubClient(repository={self.repository!r}, api_url={self.api_url!r})"

    def authenticated_login(self) -> str | None:
        """The token owner's login, or None when the token can't ask (Actions' own token)."""
        try:
            user = self._request("GET", "/user").data
        except GitHubError as exc:
            if exc.status in (401, 403, 404):
                return None
            raise
        return str(user["login"]) if isinstance(user, dict) and "login" in user else None

    def list_issue_comments(self, number: int) -> Iterator[IssueComment]:
        """Every comment on issue or PR `number`, oldest first, following `Link: rel=next`."""
        url: str | None = f"/repos/{self.repository}/issues/{number}/comments?per_page={PER_PAGE}"
        while url is not None:
            response = self._request("GET", url)
            for item in response.data:
                yield _comment(item)
            url = _next_link(response.headers)

    def create_issue_comment(self, number: int, body: str) -> IssueComment:
        path = f"/repos/{self.repository}/issues/{number}/comments"
        return _comment(self._request("POST", path, {"body": body}).data)

    def update_issue_comment(self, comment_id: int, body: str) -> IssueComment:
        path = f"/repos/{self.repository}/issues/comments/{comment_id}"
        return _comment(self._request("PATCH", path, {"body": body}).data)

    def _request(self, method: str, url: str, payload: object = None) -> _Response:
        full_url = self._absolute(url)
        attempt = 1
        while True:
            try:
                return self._send(method, full_url, payload)
            except GitHubError as exc:
                delay = self._retry_delay(exc, attempt)
                if delay is None or attempt >= self._max_attempts:
                    raise
            self._sleep(delay)
            attempt += 1

    def _absolute(self, url: str) -> str:
        if url.startswith("/"):
            return self.api_url + url
        # Pagination links are absolute; never send the token to another host.
        if not url.startswith(self.api_url + "/"):
            raise GitHubError(f"GitHub returned a link outside {self.api_url}: {url}")
        return url

    def _send(self, method: str, url: str, payload: object) -> _Response:
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("Authorization", f"Bearer {self._token}")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        request.add_header("User-Agent", "graphiq-ci")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:
                raw = response.read()
                return _Response(response.headers, json.loads(raw or b"null"))
        except urllib.error.HTTPError as exc:
            raise self._http_error(method, url, exc) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise GitHubError(self._scrub(f"{method} {url}: {reason}")) from None
        except ValueError:
            raise GitHubError(f"{method} {url}: GitHub answered with invalid JSON") from None

    def _http_error(self, method: str, url: str, exc: urllib.error.HTTPError) -> GitHubError:
        try:
            detail = json.loads(exc.read() or b"{}").get("message", "")
        except (ValueError, AttributeError, OSError):
            detail = ""
        detail = self._scrub(str(detail))
        return GitHubError(
            self._scrub(f"{method} {url}: HTTP {exc.code}" + (f": {detail}" if detail else "")),
            status=exc.code,
            api_message=detail,
            headers=exc.headers,
        )

    def _retry_delay(self, exc: GitHubError, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None when retrying can't help."""
        headers = exc.headers
        backoff = float(2 ** (attempt - 1))
        if exc.status == 0 or exc.status >= 500:
            return min(backoff, self._max_sleep)
        if exc.status not in (403, 429) or headers is None:
            return None
        retry_after = headers.get("Retry-After")
        if retry_after is not None and retry_after.strip().isdigit():
            return min(float(retry_after), self._max_sleep)
        if headers.get("x-ratelimit-remaining") == "0":
            reset = headers.get("x-ratelimit-reset", "")
            wait = float(reset) - time.time() if reset.isdigit() else 60.0
            return min(max(wait, 1.0), self._max_sleep)
        if exc.status == 429 or "secondary rate limit" in exc.api_message.lower():
            # GitHub: "wait at least one minute" when no Retry-After is given.
            return min(max(60.0, backoff), self._max_sleep)
        return None

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***")


def _next_link(headers: Message) -> str | None:
    match = _LINK_NEXT.search(headers.get("Link", ""))
    return match.group(1) if match else None


def _comment(item: Any) -> IssueComment:
    try:
        return IssueComment(
            id=int(item["id"]),
            body=str(item.get("body") or ""),
            author=str((item.get("user") or {}).get("login", "")),
            url=str(item.get("html_url", "")),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        raise GitHubError("GitHub answered with an unexpected comment object") from None
