"""A typo'd name still finds its symbol (rq's rule: with no literal name match, near misses
compete with text matches). Real names, a real index, the real CLI."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

#: an HTTP client package in the shape of httpx: many names share the word "async"
PACKAGE = {
    "httpclient/_client.py": '''"""HTTP clients, sync and async."""
import asyncio


class AsyncClient:
    """An asynchronous HTTP client."""

    async def send(self, request):
        """Send a request from this async client."""
        return await asyncio.sleep(0, request)

    async def get(self, url):
        """GET with the async client."""
        return await self.send(url)

    async def post(self, url, data):
        """POST with the async client."""
        return await self.send((url, data))

    async def stream(self, url):
        """Stream a response with the async client."""
        return await self.send(url)

    async def aclose(self):
        """Close the async client."""
        return None


class Client:
    def send(self, request):
        return request
''',
    "httpclient/_transports.py": '''class AsyncTransport:
    async def handle_async_request(self, request):
        return request


async def async_stream(client, request):
    """Stream a response from an async client."""
    return client.send(request)
''',
    "httpclient/_send.py": '''async def async_send(client, request):
    """Send a request with an async client."""
    return await client.send(request)


async def async_retry(client, request, attempts=3):
    """Retry an async client's request."""
    for _ in range(attempts):
        await async_send(client, request)
''',
    "httpclient/_streams.py": '''class AsyncByteStream:
    """An async stream of bytes."""

    async def aread(self):
        return b""


class AsyncResponseStream(AsyncByteStream):
    """An async response body."""
''',
    "httpclient/_mock.py": '''class AsyncMockTransport:
    """An async transport for tests."""

    async def handle_async_request(self, request):
        return request


class AsyncBaseTransport:
    """The base of async transports."""
''',
    "httpclient/_auth.py": '''def async_auth_flow(client, request):
    """Authenticate an async client's request."""
    return request


async def async_close(client):
    """Close an async client."""
    return None
''',
}


def _top3(repo: Path, query: str) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "graphiq_ci", "search", query, "--repo",
                          str(repo), "--top", "3"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [line.split()[1] for line in out.stdout.splitlines()]


@pytest.mark.parametrize("query, wanted", [
    ("AsyncClinet", "AsyncClient"),        # a transposition
    ("AsyncClent", "AsyncClient"),         # a dropped letter
    ("AsyncCliient", "AsyncClient"),       # a doubled letter
    ("AsyncTrasnport", "AsyncTransport"),  # a transposition in a longer name
])
def test_a_near_miss_ranks_first(make_repo: Callable[[dict[str, str]], Path],
                                 query: str, wanted: str) -> None:
    """Before the rule, every async_* and Async* text match outranked it (third at best)."""
    repo = make_repo(PACKAGE)
    assert _top3(repo, query)[0] == wanted


def test_an_exact_name_still_beats_its_near_misses(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(PACKAGE)
    assert _top3(repo, "async_send")[0] == "async_send"
    assert _top3(repo, "Client")[0] == "Client"
