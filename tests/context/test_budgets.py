"""Budgets hold in every output: max_nodes in all, ~15 % tests unless asked, and ~20 % per file
for the graph's neighbours (the best code units that lead the list are ranked on their own, so
several definitions of the best file may all be shown)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

import graphiq_ci
from graphiq_ci.context import Context, Options
from graphiq_ci.context.builder import LEAD_UNITS, by_likelihood
from graphiq_ci.paths import is_test_path
from graphiq_ci.render import render_json
from tests.context.conftest import run_cli

TASKS = ["refunds over the order total are rejected",
         "RefundProcessor.validate_refund raises PaymentError",
         "keep the ledger balanced when refunds are posted"]
TEST_TASK = "tests for refund validation"


def _limits(max_nodes: int, about_tests: bool) -> tuple[int, int]:
    per_file = max(2, math.ceil(max_nodes * 0.2))
    tests = max_nodes if about_tests else max(1, math.floor(max_nodes * 0.15))
    return per_file, tests


def _lead(ctx: Context, max_nodes: int) -> set[tuple[str, int]]:
    """(file, line) of the code units that lead the symbol list: its longest prefix that
    follows the list's order of the units (`by_likelihood`), at most LEAD_UNITS of
    max_nodes."""
    ordered = by_likelihood(ctx.code, ctx.files, ctx.stats["terms"])
    rank = {u.symbol_id: k for k, u in enumerate(ordered) if u.symbol_id}
    lead, last = [], -1
    for s in ctx.symbols[:max(1, int(max_nodes * LEAD_UNITS))]:
        if rank.get(s.id, -1) <= last:
            break
        last = rank[s.id]
        lead.append((s.file, s.line))
    return set(lead)


def _check(located: list[tuple[str, int]], max_nodes: int, about_tests: bool,
           lead: set[tuple[str, int]]) -> None:
    """`located`: (file, line) of every symbol an output shows; `lead`: the leading units'."""
    per_file, tests = _limits(max_nodes, about_tests)
    assert len(located) <= max_nodes
    led = Counter(f for f, line in located if (f, line) in lead)
    reached = Counter(f for f, line in located if (f, line) not in lead)
    for f, n in reached.items():
        assert n <= max(0, per_file - led[f]), (f, led, reached)
    assert sum(1 for f, _ in located if is_test_path(f)) <= tests, located


def _build(root: Path, task: str, max_nodes: int) -> Context:
    return graphiq_ci.build_context(root, task, Options(max_nodes=max_nodes))


def _markdown_symbols(text: str) -> list[tuple[str, int]]:
    found = re.findall(r"^- `[^`]+` \(\w+\) at `([^`]+):(\d+)`", text, re.M)
    return [(f, int(line)) for f, line in found]


@pytest.mark.parametrize("max_nodes", [4, 8, 24])
@pytest.mark.parametrize("task", TASKS)
def test_budgets_hold_in_the_context(shop_root: Path, task: str, max_nodes: int) -> None:
    ctx = _build(shop_root, task, max_nodes)
    assert ctx.symbols
    _check([(s.file, s.line) for s in ctx.symbols], max_nodes, about_tests=False,
           lead=_lead(ctx, max_nodes))


def test_the_test_budget_binds_and_lifts_for_test_tasks(shop_root: Path) -> None:
    plain = _build(shop_root, TASKS[0], 24)
    about = _build(shop_root, TEST_TASK, 24)
    _, tests = _limits(24, about_tests=False)
    assert sum(is_test_path(s.file) for s in plain.symbols) == tests  # the cap is reached
    assert sum(is_test_path(s.file) for s in about.symbols) > tests  # and lifted
    _check([(s.file, s.line) for s in about.symbols], 24, about_tests=True,
           lead=_lead(about, 24))


def test_the_per_file_budget_binds_the_neighbours_not_the_leading_units(shop_root: Path) -> None:
    ctx = _build(shop_root, TASKS[0], 24)
    per_file, _ = _limits(24, False)
    lead = _lead(ctx, 24)
    counts = Counter(s.file for s in ctx.symbols)
    best = max(counts, key=counts.__getitem__)
    assert counts[best] > per_file  # the best file's units are all shown
    assert all((s.file, s.line) in lead for s in ctx.symbols if s.file == best)
    neighbours = Counter(s.file for s in ctx.symbols if (s.file, s.line) not in lead)
    led = Counter(s.file for s in ctx.symbols if (s.file, s.line) in lead)
    assert neighbours  # the list goes on past the units
    for f, n in neighbours.items():  # a neighbour fills only what its file's units left
        assert n <= max(0, per_file - led[f]), (f, neighbours, led)


@pytest.mark.parametrize("max_nodes", [6, 24])
@pytest.mark.parametrize("fmt", ["markdown", "json"])  # the prompt's code obeys max_tokens
def test_budgets_hold_in_every_rendered_format(shop_root: Path, fmt: str, max_nodes: int) -> None:
    for task in (TASKS[0], TEST_TASK):
        ctx = _build(shop_root, task, max_nodes)
        about = task == TEST_TASK
        if fmt == "json":
            out = json.loads(render_json(ctx, graphiq_ci.render_text(ctx, "prompt",
                                                                     max_tokens=4000)))
            located = [(s["file"], s["line"]) for s in out["symbols"]]
        else:
            text = graphiq_ci.render_text(ctx, fmt, max_tokens=4000).text
            located = _markdown_symbols(text)
        assert located
        _check(located, max_nodes, about, _lead(ctx, max_nodes))


@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_budgets_hold_through_the_cli(shop_root: Path, fmt: str) -> None:
    proc = run_cli("context", TASKS[0], "--repo", str(shop_root), "--format", fmt,
                   "--max-nodes", "10", "--max-tokens", "4000")
    assert proc.returncode == 0, proc.stderr
    if fmt == "json":
        located = [(s["file"], s["line"]) for s in json.loads(proc.stdout)["symbols"]]
    else:
        located = _markdown_symbols(proc.stdout)
    assert located
    _check(located, 10, about_tests=False,
           lead=_lead(_build(shop_root, TASKS[0], 10), 10))
