"""Subcommands, one module each; `COMMANDS` names the module that registers each one.

A run imports and registers only the command it was asked for (`cli.build_parser`): every
parser built costs argparse work on each call, and the command modules import what their
options need. The command list (`graphiq-ci --help`) registers them all.
"""

from __future__ import annotations

#: command name → the module whose `register(commands)` adds it, in `--help` order
COMMANDS: dict[str, str] = {
    "context": "graphiq_ci.commands.context",
    "index": "graphiq_ci.commands.index",
    "search": "graphiq_ci.commands.search",
    "stats": "graphiq_ci.commands.stats",
    "config": "graphiq_ci.commands.config",
    "pr-comment": "graphiq_ci.commands.pr_comment",
    "mcp": "graphiq_ci.commands.mcp",
    "affected": "graphiq_ci.commands.affected",
}
