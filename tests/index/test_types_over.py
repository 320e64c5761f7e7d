"""Which types a change to a file can re-route calls through: its own types and every type
with one of them up to three levels above it (index/names.py `types_over`). A real git repo
with a five-level class chain, indexed by the real indexer, the names read back from it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index
from graphiq_ci.index.names import MAX_BASE_DEPTH, NameTable
from graphiq_ci.store import open_store

CHAIN = ["Base", "Mid", "Leaf", "Twig", "Bud"]  # each extends the one before it


def _files() -> dict[str, str]:
    files = {"shop/base.py": "class Base:\n    def run(self):\n        return 1\n"}
    for parent, child in zip(CHAIN, CHAIN[1:], strict=False):
        files[f"shop/{child.lower()}.py"] = (
            f"from shop.{parent.lower()} import {parent}\n\n\n"
            f"class {child}({parent}):\n    def run(self):\n        return 2\n")
    files["shop/other.py"] = "class Other:\n    pass\n\n\nclass Sub(Other):\n    pass\n"
    return files


def test_a_change_reaches_the_types_below_within_three_levels(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(_files())
    run_index(repo)
    store = open_store(repo)
    try:
        table = NameTable.load_files(store)
        base_file = {table.file_by_path["shop/base.py"]}
        reached = table.types_over(store, base_file)
        assert MAX_BASE_DEPTH == 3
        assert reached == {"Base", "Mid", "Leaf", "Twig"}  # `Bud` is four levels down
        # from the middle of the chain: itself and what is below it, nothing above
        mid = table.types_over(store, {table.file_by_path["shop/leaf.py"]})
        assert mid == {"Leaf", "Twig", "Bud"}
        # every answer agrees with asking each type for its bases, the definition
        for path in _files():
            fid = table.file_by_path[path]
            own = {q for (q,) in store.conn.execute(
                "SELECT qualified FROM symbols WHERE kind = 'class' AND file_id = ?", (fid,))}
            assert table.types_over(store, {fid}) == own | {
                k for k in table.bases if own & set(table.type_and_bases(k))}, path
    finally:
        store.close()
