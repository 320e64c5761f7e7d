"""`graphiq-ci mcp`: the context engine as an MCP server on stdio (the official `mcp` SDK).

One `Workspace` lives as long as the server, so a question pays neither the interpreter's
start-up nor the graph's load. Before every call the index is refreshed with the incremental
indexer (a stat per file when nothing changed), and the graph is reloaded only when the index
generation moved. Every call runs on one worker thread, one at a time: the held SQLite
connection belongs to that thread, and two refreshes must never interleave.

A tool that cannot answer returns an error with one sentence and the server keeps serving.
stdout carries the protocol only; logs go to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from graphiq_ci import __version__
from graphiq_ci.context.workspace import Workspace
from graphiq_ci.errors import GraphiqError, one_line
from graphiq_ci.serve import answers
from graphiq_ci.serve import schemas as S
from graphiq_ci.serve.answers import Answer
from graphiq_ci.store import open_store

INSTRUCTIONS = (
    "graphiq-ci ranks a repository's files, symbols and code for a task. Start with `context` "
    "(a task in, the code that matters out, within max_tokens); `search` and `symbol` look up "
    "names; on a branch, `impact` and `affected` show what the change reaches."
)
#: what the warm-up asks: words any repository's code uses, so every stage runs once
WARM_TASK = "read the configuration, parse the input and handle errors"
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

Task = Annotated[str, Field(description="the task, bug report or PR description")]
Budget = Annotated[int | None, Field(ge=100, le=100_000,
                                     description="token budget for code (characters / 4); "
                                                 "default from .graphiq.yml, else 1800")]
Base = Annotated[str | None, Field(description="compare the work tree with this ref "
                                               "(default: the trunk's fork point)")]
Top = Annotated[int, Field(ge=1, le=100, description="how many results")]


class Engine:
    """The held workspace and the one thread that touches it."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._ws: Workspace | None = None
        self._unsaid: list[str] = []  # the warm-up's refresh notes, for the first answer
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphiq-mcp")

    async def answer(self, work: Callable[[Workspace], Answer]) -> CallToolResult:
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self._thread, self._answer, work)
        return CallToolResult(content=[TextContent(type="text", text=answer.text)],
                              structured_content=answer.data.model_dump(mode="json"))

    def _answer(self, work: Callable[[Workspace], Answer]) -> Answer:
        try:
            try:
                return self._fresh_answer(work)
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError):
                    raise
                self._set_aside_damaged()  # damage the cheap checks on open did not see
                return self._fresh_answer(work)
        except (GraphiqError, sqlite3.Error, OSError) as exc:
            raise ToolError(one_line(exc)) from None

    def warm_up(self) -> None:
        """Index, load the graph and build one context on the worker thread, before any
        question: the first answer otherwise pays for the graph's lazy parts, cold FTS
        pages and the templates' compilation (~0.5 s on zod). A call that arrives meanwhile
        waits its turn; a failure here is left for that call to report."""
        self._thread.submit(self._warm)

    def _warm(self) -> None:
        with contextlib.suppress(Exception):
            ws = self._workspace()
            self._unsaid = ws.refresh(ws.config()[0])  # said by the first real answer
            answers.context(ws, WARM_TASK, None, None)

    def _workspace(self) -> Workspace:
        if self._ws is None:
            self._ws = Workspace(self.repo)
        return self._ws

    def _fresh_answer(self, work: Callable[[Workspace], Answer]) -> Answer:
        ws = self._workspace()
        notes = self._unsaid + ws.refresh(ws.config()[0])
        self._unsaid = []
        answer = work(ws)
        if not notes:
            return answer
        # what the refresh had to do (an index set aside and rebuilt): said once, here
        return Answer(answer.text + "".join(f"\nNote: {n}" for n in notes) + "\n", answer.data)

    def _set_aside_damaged(self) -> None:
        """As the CLI does: verify every page, which sets a damaged file aside, then reindex."""
        ws = self._ws
        if ws is None:
            return
        ws.close()
        open_store(ws.root, verify=True).close()

    def close(self) -> None:
        self._thread.submit(self._close).result()
        self._thread.shutdown()

    def _close(self) -> None:
        if self._ws is not None:
            self._ws.close()


class _Server(MCPServer):
    """The SDK's server, with argument errors said in one line instead of pydantic's four."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None
                        ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            said = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: "
                             f"{err['msg'].lower()}" for err in cause.errors())
            raise ToolError(f"invalid arguments for {name}: {said}") from cause


def build_server(engine: Engine) -> MCPServer:
    server: MCPServer = _Server("graphiq-ci", version=__version__, instructions=INSTRUCTIONS,
                                log_level="WARNING")

    @server.tool(annotations=READ_ONLY)
    async def context(task: Task = "", max_tokens: Budget = None,
                      base: Base = None) -> Annotated[CallToolResult, S.ContextAnswer]:
        """The files, symbols and code that matter for a task, as one prompt within
        max_tokens: the same text as `graphiq-ci context --format prompt`. With `base` (or no
        task on a feature branch) the branch's change is the starting point; without
        max_tokens its changed lines get room of their own on top of the default budget."""
        return await engine.answer(lambda ws: answers.context(ws, task, max_tokens, base))

    @server.tool(annotations=READ_ONLY)
    async def search(query: Annotated[str, Field(description="a name, path, error or "
                                                             "description")],
                     top: Top = 10) -> Annotated[CallToolResult, S.SearchAnswer]:
        """Ranked symbols for a query, each with file:line and why it ranked."""
        return await engine.answer(lambda ws: answers.search(ws, query, top))

    @server.tool(annotations=READ_ONLY)
    async def symbol(name_or_id: Annotated[str, Field(description="a name, a qualified name "
                                                                  "(Class.method) or an id")],
                     max_tokens: Budget = None) -> Annotated[CallToolResult, S.SymbolAnswer]:
        """A definition's code, its callers (with the line of each call), what it calls,
        and its tests."""
        return await engine.answer(lambda ws: answers.symbol(ws, name_or_id, max_tokens))

    @server.tool(annotations=READ_ONLY)
    async def impact(base: Base = None,
                     max_tokens: Budget = None) -> Annotated[CallToolResult, S.ImpactAnswer]:
        """What the branch changed, what depends on it, and the tests that reach it: the
        sections of the PR review comment (without max_tokens, the changed lines get room of
        their own on top of the default budget)."""
        return await engine.answer(lambda ws: answers.impact(ws, base, max_tokens))

    @server.tool(annotations=READ_ONLY)
    async def affected(base: Base = None, everything: Annotated[bool, Field(
            description="every test file with any evidence, not only the strongest")] = False,
    ) -> Annotated[CallToolResult, S.AffectedAnswer]:
        """The test files, and test ids where the language has them, that reach the
        branch's change, each with the chain of calls that links it: those with the
        strongest evidence (the others are named in `weaker`) unless `everything`."""
        return await engine.answer(lambda ws: answers.affected(ws, base, everything))

    @server.tool(annotations=READ_ONLY)
    async def files(query: Annotated[str, Field(description="what to look for; empty on a "
                                                            "branch: the PR's files")] = "",
                    top: Top = 20) -> Annotated[CallToolResult, S.FilesAnswer]:
        """Ranked files with the evidence for each."""
        return await engine.answer(lambda ws: answers.files(ws, query, top))

    @server.tool(annotations=READ_ONLY)
    async def status() -> Annotated[CallToolResult, S.StatusAnswer]:
        """Index freshness, counts, languages and HEAD."""
        return await engine.answer(answers.status)

    return server


def serve(repo: Path) -> None:
    """Serve `repo` on stdin/stdout until the client closes the pipe."""
    engine = Engine(repo)
    engine.warm_up()
    try:
        build_server(engine).run("stdio")
    finally:
        engine.close()
