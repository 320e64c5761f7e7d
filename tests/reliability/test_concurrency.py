"""Two indexers, three CLI query loops, an MCP server answering, and a writer, at once.

No "database is locked" may reach the user, every query must answer (exit 0, JSON that
parses; the MCP server's every call a non-error result with its structured content), each
loop must run dozens of times, and once the dust settles the incremental index must equal a
clean full index of the same tree.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from pathlib import Path

from tests.reliability.conftest import (
    CLI,
    assert_same_index,
    edit_randomly,
    fingerprint,
    full_index_fingerprint,
    generate_repo,
    run_cli,
)
from tests.serve.mcp_client import run, session

DURATION_S = 20.0
#: each loop runs at least DURATION_S and at least this often (on a loaded machine, longer),
#: or the test would have measured nothing
FLOORS = {"index": 10, "query": 15, "edits": 50, "mcp": 40}
#: a machine too slow to reach the floors in this long fails the test
HARD_STOP_S = 8 * DURATION_S
MODULES, FUNCS = 40, 12
MCP_CALLS = [("search", {"query": "ledger reconcile stage"}),
             ("symbol", {"name_or_id": "func_3_2"}),
             ("context", {"task": "where is stage 7 computed", "max_tokens": 400})]
QUERIES = [
    ["search", "ledger reconcile stage", "--json"],
    ["search", "func_3_2", "--json"],
    ["context", "where is stage 7 computed", "--format", "json", "--max-tokens", "400"],
]


def test_parallel_indexers_queries_and_edits_keep_the_index_consistent(tmp_path: Path) -> None:
    repo = generate_repo(tmp_path / "repo", MODULES, FUNCS)
    assert run_cli("index", "--repo", str(repo)).returncode == 0
    deadline = time.monotonic() + DURATION_S
    hard_stop = time.monotonic() + HARD_STOP_S
    failures: list[str] = []
    counts = {"index": 0, "query": 0, "edits": 0, "mcp": 0}
    lock = threading.Lock()

    def going(kind: str, done: int) -> bool:
        """Until the duration is over and the loop's floor is reached (within the hard stop):
        load decides how long that takes, never whether the test passes."""
        now = time.monotonic()
        return now < hard_stop and (now < deadline or done < FLOORS[kind])

    def loop(args: list[str], kind: str) -> None:
        while going(kind, counts[kind]):
            proc = subprocess.run([*CLI, *args, "--repo", str(repo)], capture_output=True,
                                  text=True, timeout=120)
            with lock:
                counts[kind] += 1
            bad = proc.returncode != 0 or "locked" in proc.stderr or "Traceback" in proc.stderr
            if not bad and kind == "query":
                try:
                    json.loads(proc.stdout)
                except ValueError:
                    bad = True
            if bad:
                failures.append(f"{args} exit {proc.returncode}: {proc.stderr[-800:]}")

    def writer() -> None:
        rng = random.Random(7)
        step = 0
        while going("edits", step):
            edit_randomly(repo, rng, MODULES, FUNCS, step)
            step += 1
            time.sleep(0.15)
        counts["edits"] = step

    def server() -> None:
        async def calls() -> None:
            async with session(repo) as s:
                n = 0
                while going("mcp", n):
                    tool, args = MCP_CALLS[n % len(MCP_CALLS)]
                    reply = await s.call(tool, **args)
                    n += 1
                    if reply.error or not reply.data:
                        failures.append(f"mcp {tool}({args}): {reply.text[-800:]}")
                counts["mcp"] = n

        run(calls)

    threads = [threading.Thread(target=loop, args=(["index"], "index")) for _ in range(2)]
    threads += [threading.Thread(target=loop, args=(q, "query")) for q in QUERIES]
    threads += [threading.Thread(target=writer), threading.Thread(target=server)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"\nconcurrency: {counts}")
    assert not failures, "\n".join(failures[:5])
    assert all(counts[k] >= floor for k, floor in FLOORS.items()), (counts, FLOORS)

    # the dust settles: one more incremental run sees the last edits, then compare
    assert run_cli("index", "--repo", str(repo)).returncode == 0
    settled = fingerprint(repo)
    assert_same_index(settled, full_index_fingerprint(repo))
