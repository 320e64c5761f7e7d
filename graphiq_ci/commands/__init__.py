"""Subcommands, one module each; `COMMANDS` is the registration list the CLI walks."""

from __future__ import annotations

from collections.abc import Callable

from graphiq_ci.commands import affected as affected
from graphiq_ci.commands import config as config
from graphiq_ci.commands import context as context
from graphiq_ci.commands import index as index
from graphiq_ci.commands import mcp as mcp
from graphiq_ci.commands import pr_comment as pr_comment
from graphiq_ci.commands import search as search
from graphiq_ci.commands import stats as stats
from graphiq_ci.commands.common import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

COMMANDS: list[Callable[[Any], None]] = [
    context.register,
    index.register,
    search.register,
    stats.register,
    config.register,
    pr_comment.register,
    mcp.register,
    affected.register,
]
