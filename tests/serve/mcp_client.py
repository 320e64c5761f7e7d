"""The official MCP SDK client, driving the real `graphiq-ci mcp` over stdio.

`session(repo)` starts `python -m graphiq_ci mcp --repo REPO` as a subprocess and yields a
`Session` whose `call` returns the text, the structured content and the error flag of one tool
call. Tests are plain functions that run an async scenario with `run(...)`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.context_pr.shop import clean_env


@dataclass
class Reply:
    text: str
    data: dict[str, Any]
    error: bool


class Session:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, tool: str, **arguments: Any) -> Reply:
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        return Reply(text, result.structured_content or {}, bool(result.is_error))

    async def ok(self, tool: str, **arguments: Any) -> Reply:
        reply = await self.call(tool, **arguments)
        assert not reply.error, f"{tool}({arguments}) failed: {reply.text}"
        return reply


def server_params(repo: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "graphiq_ci", "mcp", "--repo", str(repo)],
                                 env=clean_env(), cwd=str(repo))


@asynccontextmanager
async def session(repo: Path) -> AsyncIterator[Session]:
    with open(os.devnull, "w") as quiet:  # the server's stderr: logs only, never protocol
        transport = stdio_client(server_params(repo), errlog=quiet)
        async with Client(transport, cache=None) as client:
            yield Session(client)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    anyio.run(scenario)
