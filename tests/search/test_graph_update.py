"""A cached graph patched after real edits equals a fresh build, and the patch is incremental."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from graphiq_ci.index import run_index
from graphiq_ci.search import load_graph, rank
from graphiq_ci.search.graph import build
from graphiq_ci.search.graph_cache import CACHE_NAME
from graphiq_ci.store import index_dir, open_store
from tests.search.conftest import run_cli
from tests.search.test_graph_cache import _observable

BASE = '''"""Record keeping."""


class Store:
    """Keeps records in memory."""

    def save(self, item):
        return item


class Cache(Store):
    """A store that remembers the last item."""

    def save(self, item):
        self.last = item
        return super().save(item)
'''
SERVICE = '''from pkg.base import Cache
from pkg.util import helper


def run(amount):
    """Save an invoice amount and format it."""
    cache = Cache()
    return helper(cache.save(amount))
'''
UTIL = '''def helper(value):
    """Format a value for the ledger."""
    return str(value)


def other(value):
    return helper(value) + "!"
'''
TEST = '''from pkg.service import run


def test_run():
    assert run(1) == "1"
'''
EXTRA = '''from pkg.util import helper


class Ledger:
    """Totals invoice amounts."""

    def total(self, amounts):
        return helper(sum(amounts))


def compute(amount):
    return Ledger().total([amount])
'''
FILES = {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/service.py": SERVICE,
         "pkg/util.py": UTIL, "tests/test_service.py": TEST}
QUERIES = ["format invoice amount", "save item store", "ledger total", "helper"]


def _refresh(repo: Path, log: Path) -> tuple[dict[str, object], dict[str, object], str]:
    """Index, then load the graph in-process: (loaded, built, what the phase log says)."""
    run_index(repo)
    log.write_text("")
    store = open_store(repo)
    try:
        loaded = load_graph(store, repo)
        built = build(store)
        for q in QUERIES:
            assert rank(store, loaded, q).hits == rank(store, built, q).hits, q
        return _observable(loaded), _observable(built), log.read_text()
    finally:
        store.close()


def _assert_same(got: dict[str, object], want: dict[str, object]) -> None:
    for key, value in want.items():
        assert got[key] == value, key


@pytest.fixture
def phase_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    log = tmp_path / "phases.log"
    monkeypatch.setenv("GRAPHIQ_PHASE_LOG", str(log))
    return log


def real_edits(repo: Path) -> list[tuple[str, Callable[[], object]]]:
    """Edits of FILES that move symbols, calls and bases, in order: each after the last."""
    return [
        ("add a file", lambda: (repo / "pkg/extra.py").write_text(EXTRA)),
        ("rename a symbol", lambda: (repo / "pkg/util.py").write_text(
            UTIL.replace("def other(", "def other_renamed("))),
        ("move a call to another file", lambda: (repo / "pkg/service.py").write_text(
            SERVICE.replace("from pkg.util import helper", "from pkg.extra import compute")
            .replace("return helper(", "return compute("))),
        ("edit a base class", lambda: (repo / "pkg/base.py").write_text(
            BASE.replace("class Cache(Store):", "class Cache:"))),
        ("a file becomes binary", lambda: (repo / "pkg/util.py").write_bytes(
            b"\x00\x01binary\x00" * 40)),
    ]


def test_each_real_edit_patches_the_graph_to_what_a_build_gives(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path) -> None:
    repo = make_repo(FILES)
    _refresh(repo, phase_log)  # the first graph is built and cached
    edits = real_edits(repo) + [
        ("a file stops parsing", lambda: (repo / "pkg/extra.py").write_text(
            EXTRA.replace("def compute(amount):", "def compute(amount:"))),
        ("delete a file", lambda: (repo / "pkg/extra.py").unlink()),
        ("the binary file is text again", lambda: (repo / "pkg/util.py").write_text(UTIL)),
    ]
    for what, edit in edits:
        edit()
        got, want, log = _refresh(repo, phase_log)
        assert "graph-patch" in log and want["generation"] == got["generation"], what
        _assert_same(got, want)


def test_a_patched_cache_answers_like_a_fresh_process_with_no_cache(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path) -> None:
    repo = make_repo({**FILES, "pkg/extra.py": EXTRA})
    _refresh(repo, phase_log)
    (repo / "pkg/service.py").write_text(SERVICE.replace("helper(cache", "compute(cache"))
    (repo / "pkg/extra.py").write_text(EXTRA + "\n\ndef refund(amount):\n    return -amount\n")
    run_index(repo)
    args = ["context", "refund an invoice amount", "--format", "json", "--repo", str(repo)]
    patched = run_cli(*args)
    assert "graph-patch" in phase_log.read_text()
    (index_dir(repo) / CACHE_NAME).unlink()
    fresh = run_cli(*args)
    assert patched.returncode == fresh.returncode == 0, patched.stderr + fresh.stderr
    answers = [json.loads(r.stdout) for r in (patched, fresh)]
    for answer in answers:  # wall times differ from run to run
        answer["stats"].pop("seconds")
        answer["stats"].pop("index_seconds")
    assert answers[0] == answers[1]


def _spread(n: int) -> dict[str, str]:
    """n modules, each calling the next one's function: one edit touches a handful."""
    return {f"pkg/mod_{i}.py": f"from pkg.mod_{(i + 1) % n} import fn_{(i + 1) % n}\n\n\n"
            + "".join(f"def fn_{i}{'_' * k}(x):\n    return fn_{(i + 1) % n}(x)\n\n\n"
                      for k in range(4)) for i in range(n)}


def test_a_one_file_change_rereads_only_that_file_and_its_neighbours(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path) -> None:
    repo = make_repo(_spread(30))
    _refresh(repo, phase_log)
    (repo / "pkg/mod_7.py").write_text(_spread(30)["pkg/mod_7.py"] + "def fn_7_new(x):\n"
                                       "    return x\n")
    got, want, log = _refresh(repo, phase_log)
    _assert_same(got, want)
    touched = int(log.split("graph-patch ", 1)[1].split()[0])
    # mod_7's 6 symbols, and the file symbol and callers in mod_6 whose edges were rewritten
    assert 0 < touched <= 14 < len(want["ids"]) // 10  # type: ignore[arg-type]


def test_a_full_index_or_a_cache_older_than_the_log_is_rebuilt(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path) -> None:
    repo = make_repo(FILES)
    _refresh(repo, phase_log)
    run_index(repo, full=True)
    got, want, log = _refresh(repo, phase_log)
    assert "graph-patch" not in log and "graph-cache" in log
    _assert_same(got, want)
    stale = (index_dir(repo) / CACHE_NAME).read_bytes()
    for k in range(20):  # past the log's 16 generations
        (repo / "pkg/util.py").write_text(UTIL + f"\n\ndef more_{k}():\n    return {k}\n")
        run_index(repo)
    (index_dir(repo) / CACHE_NAME).write_bytes(stale)
    got, want, log = _refresh(repo, phase_log)
    assert "graph-patch" not in log
    _assert_same(got, want)


def random_edits(repo: Path, rnd: random.Random) -> None:
    """One to three random edits of `_spread`'s modules: a module rewritten with other
    functions calling another name, a module added, or one deleted."""
    mods = sorted(p.name for p in (repo / "pkg").glob("mod_*.py"))
    for _ in range(rnd.randint(1, 3)):
        name = rnd.choice(mods) if mods else "mod_0.py"
        target = f"fn_{rnd.randrange(12)}"
        action = rnd.choice(["rewrite", "rewrite", "add", "delete"])
        path = repo / "pkg" / (f"mod_{rnd.randrange(8, 12)}.py" if action == "add" else name)
        if action == "delete":
            if path.exists():
                os.unlink(path)
            continue
        funcs = "".join(f"def {rnd.choice(['fn', 'gn'])}_{rnd.randrange(12)}{'_' * k}(x):\n"
                        f"    return {target}(x)\n\n\n" for k in range(rnd.randint(0, 4)))
        path.write_text(f"from pkg.{name[:-3]} import {target}\n\n\n{funcs}")


@pytest.mark.parametrize("seed", range(3))
def test_random_edit_sequences_patch_exactly(
        make_repo: Callable[[dict[str, str]], Path], phase_log: Path, seed: int) -> None:
    """Random adds, deletions, renames and rewired calls over a small repository."""
    rnd = random.Random(seed)
    repo = make_repo(_spread(8))
    _refresh(repo, phase_log)
    for _ in range(6):
        random_edits(repo, rnd)
        got, want, log = _refresh(repo, phase_log)
        assert "graph-patch" in log or "graph-cache" in log
        _assert_same(got, want)
