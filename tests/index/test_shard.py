"""Sharded indexing on a real git repository: N shards merged answer exactly as `index --full`.

Every shard and merge goes through the real CLI (a child process); the comparison is of every
table row for row (ids included), of FTS rankings, and of `search` and `context` output.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphiq_ci.index import run_index
from graphiq_ci.index.shard import shard_of
from tests.conftest import PROJECT_ROOT, git
from tests.context.conftest import SHOP, run_cli

#: beside the shop fixture (Python and TypeScript calling across files): Go and more Python
EXTRA = {
    "cmd/report/main.go": 'package main\n\nimport "fmt"\n\nfunc Total(xs []int) int {\n'
                          "\tsum := 0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n"
                          '\treturn sum\n}\n\nfunc main() {\n'
                          "\tfmt.Println(Total([]int{1, 2}))\n}\n",
    "shop/audit.py": "from shop.ledger import record_entry\n\n\n"
                     "def audit_refund(order):\n    \"\"\"Record a refund in the ledger.\"\"\"\n"
                     "    return record_entry(order)\n",
    "shop/tax.py": "def vat(amount):\n    return amount * 0.2\n\n\n"
                   "def gross(amount):\n    return amount + vat(amount)\n",
    "docs/notes.md": "# Notes\n\nRefunds are recorded in the ledger by `audit_refund`.\n",
}
TASK = "refund a payment and record it in the ledger"
QUERIES = [("search", "refund"), ("search", "record entry ledger"),
           ("context", TASK, "--format", "json"), ("context", TASK)]


@pytest.fixture
def shop(make_repo: Callable[[dict[str, str]], Path]) -> Path:
    files = {p.relative_to(SHOP).as_posix(): p.read_text() for p in SHOP.rglob("*") if p.is_file()}
    return make_repo({**files, **EXTRA})


def cli(*args: str) -> str:
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def answer(*query: str) -> object:
    """A query's output; JSON without the two timings it reports, which no two runs share."""
    out = cli(*query)
    if "json" not in query:
        return out
    data = json.loads(out)
    for key in ("seconds", "index_seconds"):
        data["stats"].pop(key)
    return data


def snapshot(repo: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows with their rowids, FTS tables through their own contents; meta
    without the time and the generation (and the graph log's floor, a generation), which a
    merge over an older index moves on."""
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        tables = [t for (t,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts_%'")]
        without_rowid = {t for t in tables if "WITHOUT ROWID" in conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = ?", (t,)).fetchone()[0].upper()}
        out = {t: sorted(conn.execute(f"SELECT {'' if t in without_rowid else 'rowid, '}* "
                                      f"FROM {t}"), key=repr) for t in tables}
        out["meta"] = sorted(conn.execute(
            "SELECT key, value FROM meta WHERE key NOT IN "
            "('indexed_at', 'generation', 'graph_log_floor')"))
        for words in ("refund", "ledger record", "charge card"):
            out[f"fts {words}"] = list(conn.execute(
                "SELECT rowid, round(bm25(symbols_fts), 6) FROM symbols_fts "
                "WHERE symbols_fts MATCH ? ORDER BY rank", (words,)))
        return out
    finally:
        conn.close()


def generation(repo: Path) -> int:
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        return int(conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])
    finally:
        conn.close()


def make_shards(repo: Path, n: int, dest: Path | None = None) -> list[Path]:
    shards = []
    for i in range(1, n + 1):
        out = [] if dest is None else ["--out", str(dest / f"s{i}.db")]
        printed = cli("index", "--repo", str(repo), "--shard", f"{i}/{n}", *out)
        shards.append(Path(printed.rsplit(" written to ", 1)[1].strip()))
    return shards


@pytest.mark.parametrize("n", [1, 4])
def test_merged_shards_answer_exactly_as_a_full_index(shop: Path, n: int) -> None:
    cli("index", "--repo", str(shop), "--full")
    full = snapshot(shop)
    answers = [answer(*q, "--repo", str(shop)) for q in QUERIES]
    assert full["edges"] and all(answers)
    assert {"calls", "imports", "contains"} <= {row[3] for row in full["edges"]}

    shards = make_shards(shop, n)
    assert [p.name for p in shards] == [f"shard-{i}-of-{n}.db" for i in range(1, n + 1)]
    before = generation(shop)
    printed = cli("index", "--repo", str(shop), "--merge", *map(str, shards))
    assert f"merged {n} shards: {len(full['files'])} files" in printed
    assert snapshot(shop) == full
    assert generation(shop) > before  # the graph cached for the old index is not reused
    assert [answer(*q, "--repo", str(shop)) for q in QUERIES] == answers

    assert run_index(shop).parsed == []
    fresh = run_cli("stats", "--repo", str(shop))
    assert fresh.returncode == 0 and "HEAD moved" not in fresh.stdout


def test_shards_partition_the_files(shop: Path, tmp_path: Path) -> None:
    run_index(shop)
    everything = {p for (p,) in sqlite3.connect(shop / ".graphiq" / "graphiq.db").execute(
        "SELECT path FROM files")}
    held: list[set[str]] = []
    for i, path in enumerate(make_shards(shop, 3, tmp_path / "out"), 1):
        conn = sqlite3.connect(path)
        files = {p for (p,) in conn.execute("SELECT path FROM files")}
        assert files and all(shard_of(p, 3) == i for p in files)
        # parse and write only: no edge but containment, nothing resolved, no history
        assert {k for (k,) in conn.execute("SELECT DISTINCT kind FROM edges")} == {"contains"}
        assert conn.execute("SELECT count(*) FROM refs WHERE dst_id IS NOT NULL").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM refs").fetchone()[0] > 0
        assert dict(conn.execute("SELECT key, value FROM meta"))["shard"] == f"{i}/3"
        held.append(files)
    assert set().union(*held) == everything
    assert sum(map(len, held)) == len(everything)  # disjoint
    assert not list((tmp_path / "out").glob("*.tmp*"))  # nothing half-written left behind


def _fails(*args: str) -> str:
    """The one stderr line of a command that must fail with exit 2."""
    proc = run_cli(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graphiq-ci: "), proc.stderr
    return lines[0]


@pytest.mark.parametrize(("spec", "says"), [
    ("x", "expects I/N"), ("2", "expects I/N"), ("1/2/3", "expects I/N"), ("-1/4", "expects I/N"),
    ("0/4", "from 1 to 4"), ("5/4", "from 1 to 4"), ("1/0", "at least 1"),
])
def test_a_bad_shard_spec_is_one_line(shop: Path, spec: str, says: str) -> None:
    assert says in _fails("index", "--repo", str(shop), f"--shard={spec}")
    assert not list((shop / ".graphiq").glob("shard-*"))


def test_options_that_do_not_go_together(shop: Path, tmp_path: Path) -> None:
    r = str(shop)
    assert "use one" in _fails("index", "--repo", r, "--shard", "1/2", "--merge", "x.db")
    assert "drop --full" in _fails("index", "--repo", r, "--shard", "1/2", "--full")
    assert "--out names" in _fails("index", "--repo", r, "--out", str(tmp_path / "s.db"))
    assert "after --merge" in _fails("index", "--repo", r, "x.db")
    assert "needs the shard files" in _fails("index", "--repo", r, "--merge")
    assert "would be indexed" in _fails("index", "--repo", r, "--shard", "1/2",
                                        "--out", str(shop / "shard.db"))


def test_a_merge_refuses_shards_that_do_not_make_one_index(shop: Path, tmp_path: Path) -> None:
    r = str(shop)
    run_index(shop)
    db = shop / ".graphiq" / "graphiq.db"
    kept = snapshot(shop)
    two = make_shards(shop, 2, tmp_path / "two")
    three = make_shards(shop, 3, tmp_path / "three")

    def merge_fails(*paths: Path) -> str:
        return _fails("index", "--repo", r, "--merge", *map(str, paths))

    assert "shard not found" in merge_fails(two[0], tmp_path / "nope.db")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"SQLite format 3\0" + b"\x07" * 5000)
    assert "damaged" in merge_fails(two[0], garbage)
    assert "not a graphiq-ci shard" in merge_fails(two[0], db)
    assert "different splits" in merge_fails(two[0], three[1])
    assert "missing shard 3/3" in merge_fails(three[0], three[1])
    assert "given twice" in merge_fails(two[0], two[0], two[1])
    copy = tmp_path / "copy.db"
    shutil.copy(two[1], copy)
    assert "given twice" in merge_fails(two[0], two[1], copy)

    old = tmp_path / "old.db"
    shutil.copy(two[1], old)
    with sqlite3.connect(old) as conn:
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    assert "schema 3" in merge_fails(two[0], old)
    relabelled = tmp_path / "relabelled.db"
    shutil.copy(two[0], relabelled)
    with sqlite3.connect(relabelled) as conn:
        conn.execute("UPDATE meta SET value = '2/2' WHERE key = 'shard'")
    assert "a file of another shard" in merge_fails(two[0], relabelled)
    holed = tmp_path / "holed.db"
    shutil.copy(two[1], holed)
    with sqlite3.connect(holed) as conn:
        conn.execute("DELETE FROM refs WHERE rowid = (SELECT min(rowid) + 1 FROM refs)")
    assert "not laid out" in merge_fails(two[0], holed)
    assert snapshot(shop) == kept  # nothing tried so far touched the index

    (shop / ".graphiq.yml").write_text("exclude: [docs/]\n")
    assert "other .graphiq.yml" in merge_fails(*two)  # the checkout's selection differs now
    other_config = make_shards(shop, 2, tmp_path / "other-config")
    assert "different .graphiq.yml" in merge_fails(two[0], other_config[1])
    (shop / ".graphiq.yml").unlink()

    (shop / "shop" / "tax.py").write_text("def vat(amount):\n    return amount * 0.25\n")
    git(shop, "commit", "-qam", "new VAT")
    assert "this checkout is at" in merge_fails(*two)
    later = make_shards(shop, 2, tmp_path / "later")
    assert "different commits" in merge_fails(two[0], later[1])
    assert snapshot(shop) == kept

    cli("index", "--repo", r, "--merge", *map(str, later))  # and the right set still merges
    assert snapshot(shop) != kept
    assert run_index(shop).parsed == []


def cached_graph_generation(repo: Path) -> int:
    """The index generation the cached graph was built for (its header: magic, format, gen)."""
    return int(struct.unpack_from("<I", (repo / ".graphiq" / "graph.bin").read_bytes(), 8)[0])


def test_a_merge_over_an_older_index_replaces_it_and_its_graph(shop: Path) -> None:
    cli("index", "--repo", str(shop))
    assert "gross_with_levy" not in cli("search", "gross", "--repo", str(shop))
    old_generation = cached_graph_generation(shop)
    (shop / "shop" / "tax.py").write_text(
        "def vat(amount):\n    return amount * 0.2\n\n\ndef gross_with_levy(amount):\n"
        "    return amount + vat(amount) + 1\n")
    git(shop, "commit", "-qam", "a levy")
    merged = cli("index", "--repo", str(shop), "--merge", *map(str, make_shards(shop, 2)))
    assert "merged 2 shards" in merged
    found = cli("search", "gross", "--repo", str(shop))
    assert "shop/tax.py:5  gross_with_levy" in found
    assert cached_graph_generation(shop) == generation(shop) > old_generation
    merged_rows = snapshot(shop)
    cli("index", "--repo", str(shop), "--full")
    assert snapshot(shop) == merged_rows


def _recipe() -> dict[str, Any]:
    """The sharded workflow the README shows, parsed."""
    text = (PROJECT_ROOT / "README.md").read_text()
    start = text.index("# .github/workflows/graphiq-index.yml")
    data = yaml.safe_load(text[start:text.index("```", start)])
    assert isinstance(data, dict)
    return data


def _expand(value: str, **context: str) -> str:
    """`${{ a.b }}` expressions of the recipe, from `context` ({"a.b": ...})."""
    return re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: context[m[1]], value)


def test_the_readme_recipe_runs_shards_and_a_merge(shop: Path, tmp_path: Path) -> None:
    """The recipe's job graph, and its own commands run as its jobs would (artifacts copied)."""
    recipe = _recipe()
    n = int(recipe["env"]["SHARDS"])
    shard_job, merge_job = recipe["jobs"]["shard"], recipe["jobs"]["merge"]
    assert shard_job["strategy"]["matrix"]["shard"] == list(range(1, n + 1))
    assert merge_job["needs"] in ("shard", ["shard"])

    def step(job: dict[str, Any], uses: str = "", runs: str = "") -> dict[str, Any]:
        found = [s for s in job["steps"] if (uses and s.get("uses", "").startswith(uses))
                 or (runs and runs in s.get("run", ""))]
        assert len(found) == 1, (uses, runs)
        return found[0]

    action = yaml.safe_load((PROJECT_ROOT / "action.yml").read_text())
    trunk_save = next(s for s in action["runs"]["steps"]
                      if s.get("name") == "Save the trunk's index")
    save = step(merge_job, uses="actions/cache/save")
    assert save["with"] == {"path": trunk_save["with"]["path"], "key": trunk_save["with"]["key"]}
    assert step(merge_job, uses="actions/checkout")["with"]["fetch-depth"] == 0

    cli("index", "--repo", str(shop), "--full")
    full = snapshot(shop)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "SHARDS": str(n)}
    merge_temp = tmp_path / "merge-runner"
    download = step(merge_job, uses="actions/download-artifact")["with"]
    shard_dir = Path(_expand(download["path"], **{"runner.temp": str(merge_temp)}))
    shard_dir.mkdir(parents=True)
    index_step = step(shard_job, runs="graphiq-ci index --shard")
    upload = step(shard_job, uses="actions/upload-artifact")["with"]
    for i in range(1, n + 1):
        temp = tmp_path / f"runner-{i}"
        temp.mkdir()
        step_env = {k: _expand(v, **{"matrix.shard": str(i)})
                    for k, v in index_step.get("env", {}).items()}
        subprocess.run(["bash", "-ec", index_step["run"]], cwd=shop, check=True,
                       env={**env, **step_env, "RUNNER_TEMP": str(temp)})
        artifact = Path(_expand(upload["path"], **{"runner.temp": str(temp), "matrix.shard": str(i),
                                                   "env.SHARDS": str(n)}))
        assert fnmatch.fnmatch(_expand(upload["name"], **{"matrix.shard": str(i)}),
                               download["pattern"])
        shutil.copy(artifact, shard_dir / artifact.name)  # upload, then download-artifact
    merge_run = step(merge_job, runs="graphiq-ci index --merge")["run"]
    subprocess.run(["bash", "-ec", merge_run], cwd=shop, check=True,
                   env={**env, "RUNNER_TEMP": str(merge_temp)})
    assert snapshot(shop) == full
    assert run_index(shop).parsed == []
