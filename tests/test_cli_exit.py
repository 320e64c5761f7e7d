"""The real `graphiq-ci` process ends without tearing the interpreter down (cli.main, #14):
what it printed must still reach the reader whole, and a reader that leaves early ends it
quietly, as it ends a Unix filter: no traceback, the status a shell gives SIGPIPE."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

CLI = [sys.executable, "-m", "graphiq_ci"]


def _repo(make_repo: Callable[[dict[str, str]], Path]) -> Path:
    """Forty modules of twenty functions each: a JSON context of well over a pipe's 64 KiB."""
    files = {}
    for m in range(40):
        body = "".join(
            f"def settle_invoice_{m}_{k}(ledger, amount):\n"
            f"    \"\"\"Settle invoice {k} of batch {m} against the ledger.\"\"\"\n"
            f"    total = ledger.balance + amount * {k + 1}\n"
            f"    ledger.record('invoice-{m}-{k}', total)\n"
            f"    return total\n\n"
            for k in range(20))
        files[f"billing/batch_{m}.py"] = body
    return make_repo(files)


def test_a_large_output_reaches_a_pipe_whole(make_repo) -> None:
    repo = _repo(make_repo)
    out = subprocess.run([*CLI, "context", "settle invoice against the ledger", "--repo",
                          str(repo), "--format", "json", "--max-tokens", "60000"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert len(out.stdout) > 1 << 16  # more than a pipe holds: written while the reader reads
    doc = json.loads(out.stdout)  # whole: a buffer left unwritten would cut it short
    assert doc["snippets"] and all(s["code"] for s in doc["snippets"])


def test_a_reader_that_leaves_early_ends_the_run_quietly(make_repo) -> None:
    repo = _repo(make_repo)
    subprocess.run([*CLI, "index", "--repo", str(repo)], check=True, capture_output=True,
                   timeout=120)
    # The read end is closed before the process has even started up: its output, a few
    # hundred bytes that sit in its buffer until exit, meets a pipe nobody reads (`| head`).
    proc = subprocess.Popen([*CLI, "search", "settle invoice", "--repo", str(repo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert err == ""
