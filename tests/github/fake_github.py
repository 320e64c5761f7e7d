"""A local stand-in for GitHub's REST API: the only fake in these tests.

It serves the issue-comment endpoints pr-comment uses on 127.0.0.1 (ephemeral port),
paginates like GitHub (Link headers with absolute `/repositories/{id}/…` URLs), checks the
bearer token, and can be scripted to fail: 5xx, secondary rate limits, read-only tokens.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

TOKEN = "ghs_f4k3T0k3nTh4tMustN3v3rL34k"
REPOSITORY = "octo-org/graphiq-demo"
REPOSITORY_ID = 186353594
FIXTURES = Path(__file__).parent / "fixtures"
PR_EVENT = FIXTURES / "pull_request.synchronize.json"


@dataclass
class Failure:
    method: str
    status: int
    message: str
    headers: dict[str, str]
    times: int


@dataclass
class FakeGitHub:
    """In-memory issue comments plus a log of every request (`hits`)."""

    api_url: str = ""
    login: str | None = None  # None: GET /user answers 403, as for Actions' own token
    page_size: int = 2  # GitHub's real cap is 100; small here so pagination is exercised
    comments: list[dict] = field(default_factory=list)
    hits: list[tuple[str, str]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    next_id: int = 1001

    def fail(self, method, status, message, *, headers=None, times=1):
        """The next `times` requests with `method` answer `status` with `message`."""
        self.failures.append(Failure(method, status, message, headers or {}, times))

    def add_comment(self, body, author):
        comment = {
            "id": self.next_id,
            "body": body,
            "user": {"login": author, "type": "Bot" if author.endswith("[bot]") else "User"},
            "html_url": f"https://github.com/{REPOSITORY}/pull/42#issuecomment-{self.next_id}",
        }
        self.next_id += 1
        self.comments.append(comment)
        return comment

    def count(self, method):
        return sum(1 for hit_method, _ in self.hits if hit_method == method)


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, format, *args):  # keep pytest output clean
        pass

    def do_GET(self):
        self._dispatch()

    def do_POST(self):
        self._dispatch()

    def do_PATCH(self):
        self._dispatch()

    def _dispatch(self):
        fake = self.server.fake
        fake.hits.append((self.command, self.path))
        length = int(self.headers.get("Content-Length") or 0)
        payload = json.loads(self.rfile.read(length)) if length else None
        for failure in fake.failures:
            if failure.method == self.command and failure.times > 0:
                failure.times -= 1
                return self._send(failure.status, {"message": failure.message}, failure.headers)
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self._send(401, {"message": "Bad credentials"})
        url = urlsplit(self.path)
        issue = re.fullmatch(
            rf"/(?:repos/{REPOSITORY}|repositories/{REPOSITORY_ID})/issues/(\d+)/comments",
            url.path,
        )
        edit = re.fullmatch(rf"/repos/{REPOSITORY}/issues/comments/(\d+)", url.path)
        if self.command == "GET" and url.path == "/user":
            if fake.login is None:
                return self._send(403, {"message": "Resource not accessible by integration"})
            return self._send(200, {"login": fake.login, "id": 1})
        if issue and self.command == "GET":
            return self._list(parse_qs(url.query), int(issue.group(1)))
        if issue and self.command == "POST":
            if len(payload["body"]) > 65536:
                return self._send(422, {"message": "Validation Failed"})
            author = fake.login or "github-actions[bot]"
            return self._send(201, fake.add_comment(payload["body"], author))
        if edit and self.command == "PATCH":
            for comment in fake.comments:
                if comment["id"] == int(edit.group(1)):
                    comment["body"] = payload["body"]
                    return self._send(200, comment)
        return self._send(404, {"message": "Not Found"})

    def _list(self, query, number):
        fake = self.server.fake
        per_page = min(int(query.get("per_page", ["30"])[0]), fake.page_size)
        page = int(query.get("page", ["1"])[0])
        start = (page - 1) * per_page
        headers = {}
        if start + per_page < len(fake.comments):
            base = f"{fake.api_url}/repositories/{REPOSITORY_ID}/issues/{number}/comments"
            last = (len(fake.comments) + per_page - 1) // per_page
            headers["Link"] = (
                f'<{base}?per_page={per_page}&page={page + 1}>; rel="next", '
                f'<{base}?per_page={per_page}&page={last}>; rel="last"'
            )
        self._send(200, fake.comments[start : start + per_page], headers)

    def _send(self, status, data, headers=None):
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(raw)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)


class Server(ThreadingHTTPServer):
    fake: FakeGitHub
