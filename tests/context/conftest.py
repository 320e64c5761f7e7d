"""The shop fixture copied to a temp dir and indexed once per module, for the context builder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graphiq_ci.index import run_index

SHOP = Path(__file__).resolve().parent.parent / "fixtures" / "shop"


@pytest.fixture(scope="module")
def shop_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy outside this repository's git tree (an index inside it would see the project)."""
    root = tmp_path_factory.mktemp("context") / "shop"
    shutil.copytree(SHOP, root)
    run_index(root)
    return root


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHIQ_DEBUG"}
    return subprocess.run([sys.executable, "-m", "graphiq_ci", *args], capture_output=True,
                          text=True, env=env, timeout=120)
