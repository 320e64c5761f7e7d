"""Exit codes of `graphiq-ci search`, the real CLI on the indexed shop fixture: 0 found,
1 nothing found, 2 bad input; 1 and 2 say why in one line on stderr, never a traceback."""

from __future__ import annotations

import json

import pytest

from tests.search.conftest import Indexed, run_cli


def test_a_query_that_finds_something_exits_0(shop: Indexed) -> None:
    proc = run_cli("search", "refund", "--repo", str(shop.root))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() and proc.stderr == ""


def test_a_query_that_finds_nothing_says_so_and_exits_1(shop: Indexed) -> None:
    proc = run_cli("search", "ZzqxFrobnicator", "--repo", str(shop.root))
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "graphiq-ci: nothing found for: zzqx frobnicator zzqxfrobnicator"]


def test_json_that_finds_nothing_is_still_a_json_document(shop: Indexed) -> None:
    proc = run_cli("search", "ZzqxFrobnicator", "--json", "--repo", str(shop.root))
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["results"] == []
    assert proc.stderr.startswith("graphiq-ci: nothing found for: ")


def test_a_query_of_punctuation_has_no_words_to_search(shop: Indexed) -> None:
    proc = run_cli("search", "!!! ??? ...", "--repo", str(shop.root))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "graphiq-ci: nothing found for: (no searchable words in the query)"]


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_an_empty_query_is_a_usage_error(shop: Indexed, query: str) -> None:
    proc = run_cli("search", query, "--repo", str(shop.root))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "graphiq-ci: the query is empty: pass a symbol, a path, an error or a description"]
