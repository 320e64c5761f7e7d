"""Past the first units, what the best units call rises above what nothing links to: a change
to a function often reaches its callees, so they are shown before unrelated definitions of
the same file (context/code.py: `_lift_linked`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.context.code import LINK_BELOW

TASK = "settle the invoice amount and post it to the ledger"


def _ledger() -> str:
    """One file: the function the task describes, calling a small helper defined last; 26
    unrelated steps, each longer than the helper (so each ranks above it on size alone); and
    a twin of the helper that nothing calls."""
    steps = [f"def step_{k}(x):\n" + "".join(f"    x = x + {n}\n" for n in range(30 - k))
             + "    return x\n" for k in range(26)]
    return "\n\n".join([
        "def settle_invoice(invoice, ledger):\n"
        '    """Settle the invoice amount and post it to the ledger."""\n'
        "    amount = cents(invoice.amount)\n"
        "    ledger.post(invoice, amount)\n"
        "    return amount\n",
        *steps,
        "def cents(value):\n    return round(value * 100)\n",
        "def whole(value):\n    return round(value * 1)\n",
    ]) + "\n"


def test_a_callee_of_the_best_unit_rises_above_unlinked_definitions_but_not_into_the_lead(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"ledger.py": _ledger()})
    ctx = graphiq_ci.build_context(root, TASK, Options())
    rank = {u.name: k for k, u in enumerate(ctx.code.units)}
    assert ctx.code.units[0].name == "settle_invoice"
    assert rank["cents"] < rank["whole"]  # the twin nothing calls stays behind the steps
    assert rank["cents"] >= LINK_BELOW  # the lift reorders the tail only
    longer = [f"step_{k}" for k in range(26) if rank[f"step_{k}"] > rank["cents"]]
    assert longer, "the helper passed none of the longer, unlinked steps"
