"""`graphiq-ci config --show`: print the configuration graphiq-ci will actually use.

Defaults merged with `.graphiq.yml`, so a user can check what a typo or a missing key
turned into before a CI run does it for them.
"""

from __future__ import annotations

import argparse

from graphiq_ci.commands.common import TYPE_CHECKING, add_command, echo, guarded, path_arg
from graphiq_ci.errors import GraphiqError

if TYPE_CHECKING:
    from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "config", _run, "Inspect the configuration read from "
                    ".graphiq.yml.")
    p.add_argument("--show", action="store_true", help="Print the effective configuration.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository root holding .graphiq.yml (default: .).")
    p.add_argument("--json", dest="as_json", action="store_true",
                   help="Print JSON instead of YAML.")


def _run(a: argparse.Namespace) -> int:
    guarded(lambda: _show(a.repo, show=a.show, as_json=a.as_json))
    return 0


def _show(repo: Path, *, show: bool, as_json: bool) -> None:
    import yaml

    from graphiq_ci.config import load_config

    if not show:
        raise GraphiqError(
            "config: nothing to do; pass --show to print the effective configuration"
        )
    config, warnings = load_config(repo)
    for warning in warnings:
        echo(f"graphiq-ci: warning: {warning}", err=True)
    data = config.as_dict()
    if as_json:
        import json

        echo(json.dumps(data, indent=2))
    else:
        echo(yaml.safe_dump(data, sort_keys=False), nl=False)
