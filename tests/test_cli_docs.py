"""Every command has help text and a mention in the README, so the docs cannot drift."""

from __future__ import annotations

import re

import typer
from typer.testing import CliRunner

from graphiq_ci.cli import app
from graphiq_ci.commands import COMMANDS
from tests.conftest import PROJECT_ROOT


def _commands() -> dict[str, str]:
    probe = typer.Typer()
    for register in COMMANDS:
        register(probe)
    return {(c.name or c.callback.__name__ if c.callback else ""): (c.help or
            (c.callback.__doc__ if c.callback else "") or "")
            for c in probe.registered_commands}


def test_every_command_has_help_text() -> None:
    commands = _commands()
    assert set(commands) >= {"index", "stats", "search", "context", "config", "pr-comment"}
    assert all(text.strip() for text in commands.values()), commands


def test_every_command_is_in_the_readme() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    missing = [name for name in _commands()
               if not re.search(rf"graphiq-ci {re.escape(name)}\b", readme)]
    assert not missing, missing


def test_help_lists_every_command() -> None:
    from graphiq_ci.cli import _register_commands

    _register_commands()
    out = CliRunner().invoke(app, ["--help"]).output
    for name in _commands():
        assert name in out


def test_option_help_loses_no_words() -> None:
    """Typer's rich help ate `[...]` as markup: "Token budget [default: 1800]." printed as
    "Token budget .". Help is plain now (rich cost half the start-up); no option's help may
    lose words either way."""
    from graphiq_ci.cli import _register_commands

    _register_commands()
    for name in _commands():
        shown = CliRunner().invoke(app, [name, "--help"], terminal_width=200).output
        assert not re.search(r"\w \.(\s|$)", shown), (name, shown)
