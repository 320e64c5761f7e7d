"""Exit codes of `graphiq-ci context`: 1 nothing relevant, 2 bad input; one line, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.context.conftest import run_cli


def test_a_task_naming_an_unknown_symbol_finds_nothing(shop_root: Path) -> None:
    proc = run_cli("context", "ZzqxFrobnicator", "--repo", str(shop_root))
    assert proc.returncode == 1, proc.stdout
    lines = [line for line in proc.stderr.splitlines() if "nothing relevant" in line]
    assert len(lines) == 1 and "zzqx" in lines[0].lower()
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("task", ["", "   ", "\n\t"])
def test_an_empty_task_is_a_usage_error(shop_root: Path, task: str) -> None:
    proc = run_cli("context", task, "--repo", str(shop_root))
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if not line.startswith("graphiq-ci: git")]
    assert len(errors) == 1 and "task is empty" in errors[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_an_unknown_format_is_a_usage_error(shop_root: Path) -> None:
    proc = run_cli("context", "refund", "--repo", str(shop_root), "--format", "yaml")
    assert proc.returncode == 2
    assert "unknown format" in proc.stderr and "Traceback" not in proc.stderr


def test_json_that_finds_nothing_is_still_a_json_document(shop_root: Path) -> None:
    proc = run_cli("context", "ZzqxFrobnicator", "--repo", str(shop_root), "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["files"] == [] and doc["symbols"] == [] and doc["snippets"] == []
    assert doc["query"] == "ZzqxFrobnicator" and "# Task" in doc["prompt"]
    assert sum("nothing relevant" in line for line in proc.stderr.splitlines()) == 1
