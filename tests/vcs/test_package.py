"""`graphiq_ci.vcs` imports its modules on first use: every public name must still resolve,
to the definition and not to a submodule of the same name (`cochange`)."""

from __future__ import annotations

import importlib

import graphiq_ci.vcs as vcs


def test_every_public_name_resolves_to_its_definition() -> None:
    assert sorted(vcs._HOME) == sorted(vcs.__all__)
    for name in vcs.__all__:
        home = importlib.import_module(f"graphiq_ci.vcs.{vcs._HOME[name]}")
        assert getattr(vcs, name) is getattr(home, name), name
