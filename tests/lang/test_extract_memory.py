"""Parsing frees what it builds by reference counting alone.

A one-shot command runs without the cycle collector (cli.py `main`): a file parsed in process
(a refresh of fewer than 24 files, or a machine with one core) must leave no reference cycle
behind, or its definitions and the tree-sitter tree they point into would stay until exit.
The extractor's definitions once held their children as well as their parent: 24 objects
left in cycles per parse of the small file below.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest

from graphiq_ci.index.parse import parse_file
from graphiq_ci.lang.extract import extract
from graphiq_ci.lang.registry import plugin_for
from tests.conftest import PROJECT_ROOT

NESTED = {
    "python": b"class A:\n    class B:\n        def f(self):\n            return g(1)\n"
              b"    def h(self):\n        pass\n",
    "rust": b"mod m {\n    struct S;\n    impl S {\n        fn f(&self) -> u8 { g(1) }\n    }\n}\n",
    "java": b"class A {\n  static class B {\n    int f() { return g(1); }\n  }\n  void h() {}\n}\n",
}


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("language", sorted(NESTED))
def test_extracting_nested_definitions_leaves_no_cycle(language: str,
                                                        no_collector: None) -> None:
    spec = plugin_for(language)
    extract(spec, "x", NESTED[language])  # compiles the query once, outside the count
    gc.collect()
    for _ in range(3):
        parsed = extract(spec, "x", NESTED[language])
        assert len(parsed.symbols) >= 3
    assert gc.collect() == 0


def test_parsing_this_repositorys_files_leaves_no_cycle(no_collector: None) -> None:
    paths = ["graphiq_ci/index/writer.py", "graphiq_ci/lang/extract.py", "graphiq_ci/cli.py"]
    root = str(PROJECT_ROOT)
    for path in paths:  # the query compiled and the caches filled once
        parse_file(root, path, 0, os.path.getsize(PROJECT_ROOT / path))
    gc.collect()
    for path in paths:
        rec = parse_file(root, path, 0, os.path.getsize(PROJECT_ROOT / path))
        assert rec.symbols
    assert gc.collect() == 0
