"""A real index of the shop fixture, built once per test module in a temp copy.

The fixture is copied out of this repository before indexing: an index inside the project's
own git tree would pick up the project instead of the fixture.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphiq_ci.index import run_index
from graphiq_ci.search import GraphIndex, SearchResult, load_graph, rank
from graphiq_ci.store import Store, open_store

SHOP = Path(__file__).resolve().parent.parent / "fixtures" / "shop"


@dataclass
class Indexed:
    root: Path
    store: Store
    graph: GraphIndex

    def rank(self, text: str, **kwargs: object) -> SearchResult:
        return rank(self.store, self.graph, text, **kwargs)  # type: ignore[arg-type]

    def qualified(self, text: str, top: int = 10) -> list[str]:
        return [h.qualified for h in self.rank(text, top=top).hits]


def index_shop(parent: Path, extra: dict[str, str] | None = None) -> Indexed:
    """Copy the shop fixture under `parent` (plus `extra` files), index it, load its graph."""
    root = parent / "shop"
    shutil.copytree(SHOP, root)
    for rel, text in (extra or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    run_index(root)
    store = open_store(root)
    return Indexed(root, store, load_graph(store, root))


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    indexed = index_shop(tmp_path_factory.mktemp("search"))
    yield indexed
    indexed.store.close()


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line, in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "GRAPHIQ_DEBUG"}
    return subprocess.run([sys.executable, "-m", "graphiq_ci", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)
