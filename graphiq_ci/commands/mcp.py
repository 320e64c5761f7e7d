"""`graphiq-ci mcp`: serve the repository to a coding agent over MCP (stdio)."""

from __future__ import annotations

import argparse
import gc

from graphiq_ci.commands.common import add_command, guarded, path_arg


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "mcp", _run, "Serve context, search, symbol, impact, affected, "
                    "files and status over MCP (stdio).\n\nAdd it to an MCP client as the "
                    "command `graphiq-ci mcp --repo DIR`.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository to serve (default: .).")


def _run(a: argparse.Namespace) -> int:
    from graphiq_ci.index import find_root

    root = guarded(lambda: find_root(a.repo))  # a bad --repo fails here, in one line
    from graphiq_ci.serve.server import serve

    gc.enable()  # a server lives as long as its client: its garbage must not pile up
    serve(root)
    return 0
