"""Extraction is deterministic: the same file gives the same facts in the same order in any
process, whatever its hash seed (the rows the index writes, and so their rowids, follow it)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import PROJECT_ROOT

SOURCE = '''
def settle(ledger):
    # see ReconcileBatch, post_entries(), LedgerView and close_period() before changing this
    return ledger
'''

SCRIPT = """
import json, sys
from graphiq_ci.lang.extract import extract
from graphiq_ci.lang.registry import plugin_for
parsed = extract(plugin_for("python"), "ledger.py", sys.stdin.read().encode())
print(json.dumps([(t.scope, t.kind.value, t.token) for t in parsed.deep_tokens]))
"""


def _deep_tokens(seed: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=SOURCE, capture_output=True,
                          text=True, check=True, cwd=PROJECT_ROOT,
                          env={**os.environ, "PYTHONHASHSEED": seed})
    return done.stdout


def test_a_comments_code_names_come_out_in_the_order_it_names_them() -> None:
    runs = {_deep_tokens(seed) for seed in ("1", "2", "3", "4")}
    assert len(runs) == 1
    assert runs.pop().strip() == (
        '[["settle", "comment_ref", "ReconcileBatch"], ["settle", "comment_ref", '
        '"post_entries"], ["settle", "comment_ref", "LedgerView"], ["settle", "comment_ref", '
        '"close_period"]]')
