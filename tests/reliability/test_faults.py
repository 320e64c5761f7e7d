"""Faults: SIGKILL mid-index, damaged files in `.graphiq/`, a foreign schema, no room to write.

Every fault either heals on the next run (ending equal to a clean full index) or stops with
one clear line on stderr and exit code 2, leaving the previous index usable.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from graphiq_ci.store.schema import SCHEMA_VERSION
from tests.reliability.conftest import (
    CLI,
    DB,
    assert_same_index,
    fingerprint,
    full_index_fingerprint,
    generate_repo,
    module_source,
    run_cli,
)

MODULES, FUNCS = 250, 2  # over BATCH_FILES (200), so a full index writes two batches
#: (phase to kill in, command, what happens first: the work tree is edited, the index or the
#: graph cache is deleted); 7 kills each, 70 in all
KILL_PLAN = [
    ("write 1", ["index"], "no index"),  # the very first run
    ("parse", ["index", "--full"], ""),
    ("write 1", ["index", "--full"], ""),
    ("write 2", ["index", "--full"], ""),
    ("indexes", ["index", "--full"], ""),  # its secondary indexes dropped, not yet rebuilt
    ("resolve", ["index"], "edit"),
    ("deep-edges", ["index", "--full"], ""),
    ("history", ["index", "--full"], ""),
    ("graph-cache", ["search", "ledger reconcile"], "no graph cache"),
    ("write 1", ["index", "--hook"], "edit"),  # the hook's refresh, mid-write
]
KILLS_PER_PHASE = 7


def _to_state(repo: Path, state: str) -> None:
    """Two trees to alternate between: B rewrites some modules, deletes some, adds others."""
    pkg = repo / "pkg"
    for i in range(MODULES):
        salt = " B" if state == "B" and i % 3 == 0 else ""
        path = pkg / f"mod_{i}.py"
        if state == "B" and i % 17 == 5:
            path.unlink(missing_ok=True)
        else:
            path.write_text(module_source(i, MODULES, FUNCS, salt))
    for k in range(6):
        extra = pkg / f"new_{k}.py"
        if state == "B":
            extra.write_text(f"from pkg.mod_{k} import func_{k}_0\n\n\ndef new_{k}() -> int:\n"
                             f"    return func_{k}_0({k})\n")
        else:
            extra.unlink(missing_ok=True)


def _kill_in_phase(repo: Path, args: list[str], aim: str, log: Path) -> bool:
    """Run `graphiq-ci ARGS`; SIGKILL its process group as soon as it logs phase `aim`. True
    when the kill hit the live process (it died of the signal) still in that phase."""
    log.unlink(missing_ok=True)
    proc = subprocess.Popen([*CLI, *args, "--repo", str(repo)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            env={**os.environ, "GRAPHIQ_PHASE_LOG": str(log)})
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        lines = text.split("\n")[:-1]  # whole lines: the last may be half written
        if lines and lines[-1].split(" ", 2)[2] == aim:
            os.killpg(proc.pid, signal.SIGKILL)  # the indexer and its parse workers
            proc.wait()
            return (proc.returncode == -signal.SIGKILL
                    and log.read_text().splitlines()[-1].split(" ", 2)[2] == aim)
        time.sleep(0.002)
    proc.wait()
    return False


def _committed_files(repo: Path) -> int:
    conn = sqlite3.connect(f"file:{repo / DB}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM files").fetchone()[0])
    finally:
        conn.close()


def test_sigkill_in_every_phase_never_loses_a_committed_batch_and_heals(tmp_path: Path) -> None:
    """70 SIGKILLs, each aimed at a phase the indexer reports (GRAPHIQ_PHASE_LOG) and proven to
    have hit it; after each, the next run ends equal to a clean full index."""
    repo = generate_repo(tmp_path / "repo", MODULES, FUNCS)
    want = {"A": full_index_fingerprint(repo)}
    _to_state(repo, "B")
    want["B"] = full_index_fingerprint(repo)
    state, landed, missed = "B", 0, 0
    for aim, args, first in KILL_PLAN:
        hits = 0
        while hits < KILLS_PER_PHASE:
            if first == "edit":
                state = "A" if state == "B" else "B"
                _to_state(repo, state)
            elif first == "no index":
                shutil.rmtree(repo / ".graphiq")
            elif first == "no graph cache":
                for cache in (repo / ".graphiq").glob("graph.bin*"):
                    cache.unlink()
            if not _kill_in_phase(repo, args, aim, tmp_path / "phases.log"):
                missed += 1
                assert missed < 20, f"kills keep missing phase {aim!r}"
                continue
            hits += 1
            if aim == "write 2":  # the first batch was committed: it must still be there
                assert _committed_files(repo) >= 200
            done = run_cli("index", "--repo", str(repo))
            assert done.returncode == 0, f"{aim}: {done.stderr}"
            assert "Traceback" not in done.stderr
            assert_same_index(fingerprint(repo), want[state])
            if aim == "graph-cache":
                found = run_cli("search", "ledger reconcile", "--repo", str(repo))
                assert found.returncode == 0 and "func_" in found.stdout, found.stderr
                # the killed writer's temporary file is gone, the new cache is whole
                assert [p.name for p in (repo / ".graphiq").glob("graph.bin*")] == [
                    "graph.bin"]
        landed += hits
    print(f"\nfaults: {landed} SIGKILLs landed in their phase ({missed} retried)")


def test_sigkill_while_writing_the_graph_delta_heals(tmp_path: Path) -> None:
    """The first query after a one-file change writes a graph delta beside the cache
    (search/graph_delta.py); killed in that write, it leaves the old delta or none, and the
    next query answers as a fresh build does and leaves no temporary file."""
    repo = generate_repo(tmp_path / "repo", 40, 3)
    query = ["search", "ledger reconcile stage 7", "--repo", str(repo)]
    assert run_cli(*query).returncode == 0  # indexes, builds and caches the graph
    hits = misses = 0
    while hits < 3:
        k = hits + misses
        (repo / "pkg" / f"mod_{k % 40}.py").write_text(
            module_source(k % 40, 40, 3, f" edit {k}") + f"\n\ndef extra_{k}() -> int:\n"
            "    return 1\n")
        assert run_cli("index", "--repo", str(repo)).returncode == 0
        if not _kill_in_phase(repo, query[:-2], "graph-delta", tmp_path / "phases.log"):
            misses += 1
            assert misses < 20, "kills keep missing phase 'graph-delta'"
            continue
        hits += 1
        after = run_cli(*query)
        assert after.returncode == 0 and "Traceback" not in after.stderr, after.stderr
        names = sorted(p.name for p in (repo / ".graphiq").glob("graph.*"))
        assert names == ["graph.bin", "graph.checked", "graph.delta"], names
        for cache in (repo / ".graphiq").glob("graph.*"):
            cache.unlink()
        fresh = run_cli(*query)
        assert fresh.returncode == 0 and fresh.stdout == after.stdout


@pytest.fixture
def indexed(tmp_path: Path) -> Path:
    repo = generate_repo(tmp_path / "repo", 6, 5)
    assert run_cli("index", "--repo", str(repo)).returncode == 0
    return repo


def _one_note(stderr: str, needle: str) -> str:
    lines = [ln for ln in stderr.splitlines() if needle in ln]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


DB_DAMAGE = ["truncated", "garbage", "sqlite-header-garbage", "zero-length", "garbage-wal"]


def test_a_damaged_database_is_set_aside_and_rebuilt(indexed: Path) -> None:
    db = indexed / DB
    want = fingerprint(indexed)
    good = db.read_bytes()
    for damage in DB_DAMAGE:
        if damage == "truncated":
            db.write_bytes(good[: len(good) // 2])
        elif damage == "garbage":
            db.write_bytes(random.Random(5).randbytes(len(good)))
        elif damage == "sqlite-header-garbage":
            db.write_bytes(good[:100] + b"\xde\xad" * ((len(good) - 100) // 2))
        elif damage == "zero-length":
            db.write_bytes(b"")
        else:  # a stray garbage WAL next to a good database: SQLite ignores it
            db.write_bytes(good)
            Path(str(db) + "-wal").write_bytes(b"\0garbage" * 100)
        out = run_cli("index", "--repo", str(indexed))
        assert out.returncode == 0, (damage, out.stderr)
        if damage in ("truncated", "garbage", "sqlite-header-garbage"):
            line = _one_note(out.stderr, "index rebuilt")
            aside = db.parent / line.rsplit(" ", 1)[-1]
            newest = aside.name
            assert aside.read_bytes()[:1000] != good[:1000] or damage != "garbage", line
            assert aside.stat().st_size > 0, line
        else:
            assert "Traceback" not in out.stderr, (damage, out.stderr)
        assert_same_index(fingerprint(indexed), want)
    asides = sorted(p.name for p in db.parent.glob("graphiq.db.broken-*") if "-wal" not in p.name
                    and "-shm" not in p.name)
    assert asides == [newest], asides  # the newest is kept; older ones must not pile up
    again = run_cli("search", "ledger reconcile", "--json", "--repo", str(indexed))
    assert again.returncode == 0 and "rebuilt" not in again.stderr, again.stderr


def test_a_corrupt_graph_cache_is_set_aside_and_rebuilt(indexed: Path) -> None:
    from graphiq_ci.search.graph_cache import _MAGIC

    cache = indexed / ".graphiq" / "graph.bin"
    first = run_cli("search", "ledger reconcile", "--json", "--repo", str(indexed))
    assert first.returncode == 0 and cache.exists()
    good = cache.read_bytes()
    for damage in CACHE_DAMAGE:
        _damage_cache(cache, good, damage)
        out = run_cli("search", "ledger reconcile", "--json", "--repo", str(indexed))
        assert out.returncode == 0, out.stderr
        line = _one_note(out.stderr, "graph cache")
        assert (cache.parent / line.rsplit(" ", 1)[-1]).exists(), line
        assert out.stdout == first.stdout
        assert cache.read_bytes()[:4] == _MAGIC
    quiet = run_cli("search", "ledger reconcile", "--json", "--repo", str(indexed))
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


#: whole-file damage, then damage inside a well-formed file: each must be caught by a check
#: (the file's CRC, a section's size, a string table), never loaded as a wrong graph
CACHE_DAMAGE = ("garbage", "truncated", "flipped-byte", "offset-out-of-range",
                "truncated-array", "wrong-count")


def _damage_cache(cache: Path, good: bytes, damage: str) -> None:
    if damage == "garbage":
        cache.write_bytes(b"\x00not a cache" * 50)
    elif damage == "truncated":
        cache.write_bytes(good[: len(good) // 2])
    elif damage == "flipped-byte":  # inside the sections: the CRC must catch it
        middle = 16 + (len(good) - 16) // 2
        cache.write_bytes(good[:middle] + bytes([good[middle] ^ 0x40]) + good[middle + 1:])
    else:
        cache.write_bytes(_edit_sections(good, damage))


def _edit_sections(good: bytes, damage: str) -> bytes:
    """The cache with one section damaged. An id out of range keeps the old CRC (a file whose
    CRC matches forged ids is trusted like the index, see graph_cache); the structural damage
    gets a matching CRC, so the size checks must find it."""
    import struct
    import zlib

    from graphiq_ci.search.graph_cache import _LAYOUT

    count = struct.unpack_from("<I", good, 16)[0]
    sizes = list(struct.unpack_from(f"<{2 * count}Q", good, 20))
    at = 20 + 16 * count
    at += -at % 8
    blobs = []
    for k in range(count):
        blobs.append(bytearray(good[at:at + sizes[2 * k]]))
        at += sizes[2 * k] + -sizes[2 * k] % 8
    names = [name for name, _ in _LAYOUT]
    if damage == "offset-out-of-range":  # an edge to a symbol past the last one
        blobs[names.index("out.to")][:4] = struct.pack("<I", 0xFFFFFFF0)
    elif damage == "truncated-array":  # a section's bytes cut short, its item count kept
        k = names.index("lines")
        del blobs[k][-4:]
        sizes[2 * k] -= 4
    else:  # one more item claimed than the bytes hold
        sizes[2 * names.index("ids") + 1] += 1
    head = struct.pack(f"<I{2 * count}Q", count, *sizes)
    parts = [head, b"\0" * (-len(head) % 8)]
    for blob in blobs:
        parts += [bytes(blob), b"\0" * (-len(blob) % 8)]
    body = b"".join(parts)
    crc = struct.unpack_from("<I", good, 12)[0] if damage == "offset-out-of-range" \
        else zlib.crc32(body)
    return good[:12] + struct.pack("<I", crc) + body


def test_an_index_of_another_schema_version_is_rebuilt(indexed: Path) -> None:
    want = fingerprint(indexed)
    with sqlite3.connect(indexed / DB) as conn:
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        conn.execute("DROP TABLE symbols_fts")
    conn.close()
    out = run_cli("index", "--repo", str(indexed))
    assert out.returncode == 0, out.stderr
    line = _one_note(out.stderr, "index rebuilt")
    assert line.endswith(f"schema version 1 is not {SCHEMA_VERSION} (a graphiq-ci upgrade)"), line
    assert not list((indexed / DB).parent.glob("*.broken-*"))  # nothing damaged to keep
    assert_same_index(fingerprint(indexed), want)


def _clean_failure(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graphiq-ci: "), out.stderr
    return lines[0]


def test_an_index_directory_that_cannot_be_created_is_one_clear_error(tmp_path: Path) -> None:
    repo = generate_repo(tmp_path / "repo", 3, 3)
    (repo / ".graphiq").write_text("a file where the index directory should be\n")
    for args in (["index"], ["search", "ledger"], ["context", "ledger"], ["stats"]):
        line = _clean_failure(run_cli(*args, "--repo", str(repo)))
        assert ".graphiq" in line, line


def _small_files() -> None:
    limit = 64 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_full_disk_is_one_clear_error_and_keeps_the_old_index(indexed: Path) -> None:
    want = fingerprint(indexed)
    for i in range(6):  # enough changes that the index must write more than the limit
        path = indexed / "pkg" / f"mod_{i}.py"
        path.write_text(path.read_text() + "\n" + module_source(100 + i, 200, 60))
    line = _clean_failure(run_cli("index", "--repo", str(indexed), preexec_fn=_small_files))
    assert "full" in line or "large" in line, line
    assert_same_index(fingerprint(indexed), want)  # the failed batch left no trace
    out = run_cli("search", "ledger reconcile", "--json", "--repo", str(indexed))
    assert out.returncode == 0, out.stderr


def test_the_hook_says_when_it_rebuilt_a_damaged_index(indexed: Path) -> None:
    """`index --hook` is quiet when nothing changed, but a rebuild is news: one line."""
    assert run_cli("index", "--hook", "--repo", str(indexed)).stderr == ""
    db = indexed / DB
    db.write_bytes(b"not a database" * 100)
    out = subprocess.run([*CLI, "index", "--hook"], cwd=indexed, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    line = _one_note(out.stderr, "index rebuilt")
    assert line.startswith("graphiq-ci: index rebuilt: ") and "graphiq.db.broken-" in line
