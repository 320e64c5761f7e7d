"""Each piece of code is shown once: a definition copied verbatim into another file (a
generated mirror, a vendored copy) is not rendered twice, and the copy kept says where the
other one is (context/code.py: `_once`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.context.code import MAX_UNITS
from tests.context.conftest import run_cli

TASK = "settle the invoice amount and post it to the ledger"
LEDGER = '''"""Posting invoices to the ledger."""


def settle_invoice(invoice, ledger):
    """Settle the invoice amount and post it to the ledger."""
    amount = round(invoice.amount * 100)
    ledger.post(invoice, amount)
    return amount


def void_invoice(invoice, ledger):
    """Take a posted invoice back out of the ledger."""
    ledger.remove(invoice)
'''


def test_a_verbatim_copy_in_another_file_is_shown_once(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({
        "src/ledger.py": LEDGER,
        # the copy differs in its module docstring only, as a generated mirror's header does
        "mirror/ledger.py": LEDGER.replace("Posting invoices", "Generated: posting invoices"),
    })
    proc = run_cli("context", TASK, "--repo", str(root), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert {f["path"] for f in doc["files"]} >= {"src/ledger.py", "mirror/ledger.py"}
    assert doc["prompt"].count("def settle_invoice(invoice, ledger):") == 1
    assert doc["prompt"].count("ledger.post(invoice, amount)") == 1
    assert doc["prompt"].count("def void_invoice(invoice, ledger):") == 1
    # each module docstring differs, so both files still have code of their own
    assert "Posting invoices to the ledger." in doc["prompt"]

    ctx = graphiq_ci.build_context(root, TASK, Options())
    settle = [u for u in ctx.code.units if u.name == "settle_invoice"]
    assert len(settle) == 1
    other = ({"src/ledger.py", "mirror/ledger.py"} - {settle[0].file}).pop()
    assert f"the same code is in {other}" in settle[0].reasons
    assert sum(s.name == "settle_invoice" for s in ctx.symbols) == 1


def test_a_file_of_many_definitions_gives_at_most_max_units_the_best_first(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """A thousand-definition file is scored whole but only its best MAX_UNITS become units:
    the one definition that matches the task still leads, and the JSON still renders it."""
    filler = "".join(f"\n\ndef helper_{n}(value):\n    return value + {n}\n" for n in range(600))
    root = make_repo({"src/helpers.py": '"""Helpers."""' + filler + "\n\n" + LEDGER})
    ctx = graphiq_ci.build_context(root, TASK, Options())
    assert len(ctx.code.units) == MAX_UNITS
    assert ctx.code.units[0].name == "settle_invoice"
    proc = run_cli("context", TASK, "--repo", str(root), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "ledger.post(invoice, amount)" in json.loads(proc.stdout)["prompt"]
