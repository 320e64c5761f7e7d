"""`graphiq-ci mcp`: serve the repository to a coding agent over MCP (stdio)."""

from __future__ import annotations

from pathlib import Path

import typer

from graphiq_ci.cli import guarded


def register(app: typer.Typer) -> None:
    @app.command()
    def mcp(
        repo: Path = typer.Option(Path("."), "--repo", help="Repository to serve."),
    ) -> None:
        """Serve context, search, symbol, impact, affected, files and status over MCP (stdio).

        Add it to an MCP client as the command `graphiq-ci mcp --repo DIR`.
        """
        from graphiq_ci.index import find_root

        root = guarded(lambda: find_root(repo))  # a bad --repo fails here, in one line
        from graphiq_ci.serve.server import serve

        serve(root)
