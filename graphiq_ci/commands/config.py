"""`graphiq-ci config --show`: print the configuration graphiq-ci will actually use.

Defaults merged with `.graphiq.yml`, so a user can check what a typo or a missing key
turned into before a CI run does it for them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from graphiq_ci.cli import guarded
from graphiq_ci.errors import GraphiqError


def register(app: typer.Typer) -> None:
    @app.command("config")
    def config_command(
        show: Annotated[
            bool, typer.Option("--show", help="Print the effective configuration.")
        ] = False,
        repo: Annotated[
            Path, typer.Option("--repo", help="Repository root holding .graphiq.yml.")
        ] = Path("."),
        as_json: Annotated[
            bool, typer.Option("--json", help="Print JSON instead of YAML.")
        ] = False,
    ) -> None:
        """Inspect the configuration read from .graphiq.yml."""
        guarded(lambda: _show(repo, show=show, as_json=as_json))


def _show(repo: Path, *, show: bool, as_json: bool) -> None:
    import yaml

    from graphiq_ci.config import load_config

    if not show:
        raise GraphiqError(
            "config: nothing to do; pass --show to print the effective configuration"
        )
    config, warnings = load_config(repo)
    for warning in warnings:
        typer.echo(f"graphiq-ci: warning: {warning}", err=True)
    data = config.as_dict()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo(yaml.safe_dump(data, sort_keys=False), nl=False)
