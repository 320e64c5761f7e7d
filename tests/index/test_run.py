"""The incremental indexer on real git repositories: exactly what changed is re-parsed."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

import graphiq_ci.index.history as history
from graphiq_ci.index import run_index
from graphiq_ci.store import open_store
from graphiq_ci.store.graph_log import touched_since
from graphiq_ci.store.schema import BULK_INDEXES
from tests.conftest import PROJECT_ROOT, git

APP = '''
from shop.models import Cart


def checkout(cart: Cart) -> float:
    """Charge the cart and return the total."""
    total = cart.total()
    return total
'''
MODELS = '''
class Cart:
    def total(self) -> float:
        return sum(self.items)


class Item:
    price = 42
'''


def _db(repo: Path) -> sqlite3.Connection:
    return sqlite3.connect(repo / ".graphiq" / "graphiq.db")


def _symbols(repo: Path) -> set[tuple[str, str, str]]:
    return set(_db(repo).execute(
        "SELECT f.path, s.qualified, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"))


def _edges(repo: Path) -> set[tuple[str, str, str]]:
    return set(_db(repo).execute(
        "SELECT a.qualified, b.qualified, e.kind FROM edges e "
        "JOIN symbols a ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id"))


def test_first_run_indexes_symbols_and_resolves_edges(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/__init__.py": ""})
    report = run_index(repo)
    assert sorted(report.parsed) == ["shop/__init__.py", "shop/app.py", "shop/models.py"]
    syms = _symbols(repo)
    assert ("shop/models.py", "Cart.total", "method") in syms
    assert ("shop/app.py", "checkout", "function") in syms
    edges = _edges(repo)
    assert ("checkout", "Cart.total", "calls") in edges
    assert ("checkout", "Cart", "references") in edges
    assert ("shop/app.py", "shop/models.py", "imports") in edges
    assert ("Cart", "Cart.total", "contains") in edges
    assert (repo / ".graphiq" / ".gitignore").read_text() == "*\n"
    assert git(repo, "status", "--porcelain") == ""


def test_only_changed_files_are_reparsed(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"a.py": "def a():\n    return b()\n", "b.py": "def b():\n    return 1\n",
                      "c.py": "def c():\n    pass\n"})
    run_index(repo)
    assert run_index(repo).parsed == []

    (repo / "b.py").write_text("def b():\n    return 2\n\ndef b2():\n    pass\n")
    os.utime(repo / "c.py")  # touched, same content: stat moves, nothing re-parsed
    report = run_index(repo)
    assert report.parsed == ["b.py"]
    assert report.unchanged_content == ["c.py"]
    assert ("a", "b", "calls") in _edges(repo)  # the edge into the changed file was re-resolved

    (repo / "c.py").unlink()
    git(repo, "mv", "b.py", "renamed.py")
    report = run_index(repo)
    assert report.parsed == ["renamed.py"]
    assert sorted(report.deleted) == ["b.py", "c.py"]
    paths = {p for p, _, _ in _symbols(repo)}
    assert paths == {"a.py", "renamed.py"}
    assert ("a", "b", "calls") in _edges(repo)


def test_a_touched_but_unchanged_file_leaves_no_resolution_pending(
        make_repo: Callable[..., Path]) -> None:
    """A new mtime with the same content (a checkout, an editor saving) changes no fact: the
    next run must not take it for an interrupted one and resolve the whole repository."""
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS})
    run_index(repo)
    os.utime(repo / "shop/models.py", ns=(1, 1))
    report = run_index(repo)
    assert (report.parsed, report.unchanged_content) == ([], ["shop/models.py"])
    assert _db(repo).execute("SELECT value FROM meta WHERE key = 'pending'").fetchone() == ("0",)


def test_a_no_change_refresh_writes_nothing_until_head_moves(
        make_repo: Callable[..., Path]) -> None:
    """Every `context` call refreshes first: with nothing changed at the same HEAD the run only
    reads, and a new commit is still recorded as the indexed HEAD."""
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS})
    run_index(repo)

    def meta() -> dict[str, str]:
        return dict(_db(repo).execute("SELECT key, value FROM meta"))

    before = meta()
    assert run_index(repo).parsed == []
    assert meta() == before
    (repo / "notes.txt").write_text("not code\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "notes")
    run_index(repo)
    assert meta()["indexed_head"] == git(repo, "rev-parse", "HEAD").strip() != before[
        "indexed_head"]


def test_a_held_store_is_refreshed_and_left_open(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"shop/app.py": APP})
    store = open_store(repo)
    store.notes.append("index rebuilt: test")
    assert run_index(repo, store=store).notes == ["index rebuilt: test"]
    (repo / "shop/models.py").write_text(MODELS)
    report = run_index(repo, store=store)
    assert (report.parsed, report.notes) == (["shop/models.py"], [])  # each note said once
    assert store.conn.execute("SELECT count(*) FROM files").fetchone() == (2,)


def test_a_held_store_reads_the_index_rebuilt_after_damage(
        make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS})
    run_index(repo)
    store = open_store(repo)
    db = repo / ".graphiq" / "graphiq.db"
    db.write_bytes(b"\xde\xad" * (db.stat().st_size // 2))  # damage under the open store
    report = run_index(repo, store=store)
    assert any(n.startswith("index rebuilt: ") for n in report.notes), report.notes
    assert store.conn.execute("SELECT count(*) FROM files").fetchone() == (2,)
    store.close()


def test_incremental_equals_full(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/__init__.py": ""})
    run_index(repo)
    (repo / "shop/models.py").write_text(MODELS.replace("class Item", "class Product"))
    (repo / "shop/extra.py").write_text("from shop.models import Product\n\n"
                                        "def price(p: Product) -> int:\n    return p.price\n")
    run_index(repo)
    incremental = (_symbols(repo), _edges(repo))
    run_index(repo, full=True)
    assert incremental == (_symbols(repo), _edges(repo))


def _index_names(repo: Path) -> set[str]:
    return {name for (name,) in _db(repo).execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}


def test_a_build_from_scratch_ends_with_every_index_it_dropped(
        make_repo: Callable[..., Path]) -> None:
    """A first run and a full run drop the secondary indexes while they insert and create them
    again before resolution reads them; an incremental run keeps them throughout."""
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/__init__.py": ""})
    run_index(repo)
    assert set(BULK_INDEXES) <= _index_names(repo)
    plan = _db(repo).execute("EXPLAIN QUERY PLAN SELECT id FROM symbols WHERE name = 'Cart'")
    assert "symbols_name" in " ".join(str(row) for row in plan)
    first = (_symbols(repo), _edges(repo))
    (repo / "shop/app.py").write_text(APP + "\n\ndef refund():\n    return checkout()\n")
    run_index(repo)
    assert set(BULK_INDEXES) <= _index_names(repo)
    run_index(repo, full=True)
    assert set(BULK_INDEXES) <= _index_names(repo)
    assert first[0] < _symbols(repo) and first[1] < _edges(repo)


def test_bad_files_are_skipped_or_partially_indexed(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({
        "good.py": "def fine():\n    return 1\n",
        "broken.py": "def ok_before():\n    pass\n\ndef (:\n\ndef ok_after():\n    pass\n",
        "notes.txt": "plain words about checkout\n",
    })
    (repo / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    (repo / "latin1.py").write_bytes("def caf\xe9():\n    pass\n# \xe9t\xe9\n".encode("latin-1"))
    (repo / "huge.py").write_text("x = 1\n" * 300_000)
    report = run_index(repo)
    assert report.skipped == {"blob.bin": "binary", "huge.py": "larger than 1048576 bytes"}
    assert "broken.py" in report.parse_errors
    names = {q for _, q, _ in _symbols(repo)}
    assert {"fine", "ok_before", "ok_after", "notes.txt", "latin1.py"} <= names


def test_empty_repo_and_plain_directory(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    assert run_index(empty).files_seen == 0

    plain = tmp_path / "plain"
    (plain / "pkg").mkdir(parents=True)
    (plain / "pkg" / "mod.py").write_text("def f():\n    pass\n")
    (plain / "pkg" / "gen.py").write_text("def g():\n    pass\n")
    (plain / ".gitignore").write_text("gen.py\n")
    report = run_index(plain)
    assert sorted(report.parsed) == [".gitignore", "pkg/mod.py"]


def test_indexes_this_repository() -> None:
    report = run_index(PROJECT_ROOT)
    assert report.files_seen > 20
    syms = _symbols(PROJECT_ROOT)
    assert ("graphiq_ci/index/run.py", "run_index", "function") in syms
    assert ("run_index", "_run", "calls") in _edges(PROJECT_ROOT)


def test_a_body_edit_keeps_symbol_ids_and_the_edges_into_them(
        make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/__init__.py": ""})
    run_index(repo)

    def ids() -> dict[str, int]:
        return dict(_db(repo).execute(
            "SELECT s.qualified, s.id FROM symbols s JOIN files f ON f.id = s.file_id "
            "WHERE f.path = 'shop/models.py'"))

    before = ids()
    (repo / "shop/models.py").write_text(MODELS.replace("sum(self.items)", "sum(self.items) or 0")
                                         + "\n\ndef discount():\n    return 0\n")
    assert run_index(repo).parsed == ["shop/models.py"]
    after = ids()
    assert {q: after[q] for q in before} == before  # same symbols, same ids
    assert "discount" in after and after["discount"] not in before.values()
    assert ("checkout", "Cart.total", "calls") in _edges(repo)
    incremental = (_symbols(repo), _edges(repo))
    run_index(repo, full=True)
    assert incremental == (_symbols(repo), _edges(repo))


def test_a_body_edit_rewrites_only_what_it_changed(make_repo: Callable[..., Path]) -> None:
    """The rows of definitions a re-parse finds as they were stay untouched: no FTS rewrite,
    no deep-edge work, and the graph cache patches only what changed (store/graph_log.py)."""
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/__init__.py": ""})
    run_index(repo)
    store = open_store(repo)
    generation = int(store.get_meta("generation", "0") or 0)
    ids = dict(store.conn.execute("SELECT qualified, id FROM symbols"))
    store.close()
    (repo / "shop/models.py").write_text(MODELS.replace("sum(self.items)",
                                                        "sum(self.items, start=0.0)"))
    assert run_index(repo).parsed == ["shop/models.py"]
    store = open_store(repo)
    touched = touched_since(store, generation)
    store.close()
    # the method and its class, whose source holds it; not the definitions beside them
    assert touched == {ids["Cart.total"], ids["Cart"]}
    incremental = (_symbols(repo), _edges(repo))
    run_index(repo, full=True)
    assert incremental == (_symbols(repo), _edges(repo))


def _refs(repo: Path, path: str) -> dict[tuple[str, int], tuple[int, str | None]]:
    """(name, line) → (rowid, resolved target's qualified name) of a file's references."""
    return {(name, line): (rowid, dst) for rowid, name, line, dst in _db(repo).execute(
        "SELECT r.rowid, r.name, r.line, d.qualified FROM refs r JOIN files f ON f.id = "
        "r.file_id LEFT JOIN symbols d ON d.id = r.dst_id WHERE f.path = ?", (path,))}


def test_references_read_as_before_keep_their_rows_and_targets(
        make_repo: Callable[..., Path]) -> None:
    """A re-parse resolves again only the sources whose references changed; the others keep
    their rows (a moved line is updated in place) and their resolved targets."""
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/__init__.py": ""})
    run_index(repo)
    before = _refs(repo, "shop/app.py")
    assert before[("total", 7)][1] == "Cart.total"
    (repo / "shop/app.py").write_text("# the till\n" + APP + "\n\ndef refund(cart: Cart) -> "
                                      "float:\n    return -cart.total()\n")
    run_index(repo)
    after = _refs(repo, "shop/app.py")
    assert after[("total", 8)] == before[("total", 7)]  # the same row, one line down
    assert after[("total", 13)][1] == "Cart.total"  # the new function's call, resolved
    assert ("refund", "Cart.total", "calls") in _edges(repo)
    incremental = (_symbols(repo), _edges(repo))
    run_index(repo, full=True)
    assert incremental == (_symbols(repo), _edges(repo))


def test_a_changed_import_resolves_the_whole_file_again(make_repo: Callable[..., Path]) -> None:
    """The same call, `cart.total()`, reaches another definition when the file imports its
    type from elsewhere, though the call itself reads as before."""
    repo = make_repo({"shop/app.py": APP, "shop/models.py": MODELS, "shop/legacy.py": MODELS,
                      "shop/__init__.py": ""})
    run_index(repo)

    def target() -> str:
        return str(_db(repo).execute(
            "SELECT f.path FROM edges e JOIN symbols a ON a.id = e.src_id JOIN symbols b ON "
            "b.id = e.dst_id JOIN files f ON f.id = b.file_id WHERE a.qualified = 'checkout' "
            "AND b.qualified = 'Cart.total' AND e.kind = 'calls'").fetchone()[0])

    assert target() == "shop/models.py"
    (repo / "shop/app.py").write_text(APP.replace("shop.models", "shop.legacy"))
    run_index(repo)
    assert target() == "shop/legacy.py"


SIZES = ("class Box {\n    int scale(int a) { return a; }\n"
         "    int scale(int a, int b) { return a + b; }\n}\n")
SWAPPED = ("class Box {\n    int scale(int a, int b) { return a + b; }\n"
           "    int scale(int a) { return a; }\n}\n")


def _edges_to_lines(repo: Path) -> set[tuple[str, str, int, str]]:
    return set(_db(repo).execute(
        "SELECT a.qualified, b.qualified, b.line, e.kind FROM edges e "
        "JOIN symbols a ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id"))


def test_overloads_keep_their_ids_and_swapping_them_re_resolves_their_calls(
        make_repo: Callable[..., Path]) -> None:
    """Overloads share a (qualified, kind) key: each gets its old id back in file order, so a
    body edit re-resolves none of their uses (#14: zod's schemas.ts re-resolved 41k of 59k
    references on every edit); swapped overloads put another argument count at an old id, and
    the calls that count picks resolve again (one whose receiver's type is not known, too),
    as a full index does."""
    repo = make_repo({"Box.java": SIZES,
                      "Use.java": "class Use {\n    int go() { return boxes().scale(1, 2); }\n}\n"})
    run_index(repo)

    def ids() -> list[int]:
        return [r[0] for r in _db(repo).execute(
            "SELECT id FROM symbols WHERE name = 'scale' ORDER BY line")]

    before = ids()
    (repo / "Box.java").write_text(SIZES.replace("return a; }", "return a * 1; }"))
    assert run_index(repo).parsed == ["Box.java"]
    assert ids() == before
    assert ("Use.go", "Box.scale", 3, "calls") in _edges_to_lines(repo)
    (repo / "Box.java").write_text(SWAPPED)
    run_index(repo)
    incremental = _edges_to_lines(repo)
    assert ("Use.go", "Box.scale", 2, "calls") in incremental
    run_index(repo, full=True)
    assert incremental == _edges_to_lines(repo)


def test_hub_marks_follow_incremental_runs_as_a_full_index_sets_them(
        make_repo: Callable[..., Path]) -> None:
    """An incremental run re-checks only the symbols its graph log names: a hub losing a
    caller loses the mark, and a hub whose file is re-parsed (hints written anew) keeps it."""
    callers = {f"c{i}.py": f"from lib import record\n\n\ndef use{i}():\n    return record()\n"
               for i in range(10)}
    repo = make_repo({"lib.py": "def record():\n    return 1\n", **callers})
    run_index(repo)

    def hints() -> set[tuple[str, str]]:
        return set(_db(repo).execute("SELECT qualified, hints FROM symbols"))

    def is_hub() -> bool:
        return "hub" in dict(hints())["record"].split()

    assert is_hub()
    (repo / "lib.py").write_text("def record():\n    return 2\n")
    run_index(repo)
    assert is_hub()
    (repo / "c0.py").write_text("def use0():\n    return 0\n")
    run_index(repo)
    assert not is_hub()
    incremental = hints()
    run_index(repo, full=True)
    assert incremental == hints()


def test_a_standard_method_name_is_not_resolved_to_the_only_definition(
        make_repo: Callable[..., Path]) -> None:
    repo = make_repo({
        "lazy.py": "class LazyDict:\n    def items(self):\n        return []\n",
        "cli.py": "import os\n\ndef env_pairs():\n    return list(os.environ.items())\n",
        "shop.py": "def restock():\n    return warehouse_refill()\n",
        "stock.py": "def warehouse_refill():\n    return 1\n",
    })
    run_index(repo)
    edges = _edges(repo)
    assert not any(src == "env_pairs" and dst == "LazyDict.items" for src, dst, _ in edges)
    assert ("restock", "warehouse_refill", "calls") in edges  # a distinctive name still resolves


def test_a_changed_base_class_re_resolves_calls_through_it_elsewhere(
        make_repo: Callable[..., Path]) -> None:
    """`r.send()` with `r = Retrying()` resolves through Retrying's bases; editing only the
    bases (a file no caller is in, no name added) must re-resolve it, as a full index does."""
    repo = make_repo({
        "transport.py": "class Plain:\n    def send(self, r):\n        return r\n\n\n"
                        "class Fancy:\n    def send(self, r):\n        return [r]\n\n\n"
                        "class Retrying(Plain):\n    pass\n",
        "client.py": "from transport import Retrying\n\n\n"
                     "def call():\n    r = Retrying()\n    return r.send(1)\n",
    })
    run_index(repo)
    assert ("call", "Plain.send", "calls") in _edges(repo)
    source = (repo / "transport.py").read_text()
    (repo / "transport.py").write_text(source.replace("(Plain):\n    pass", "(Fancy):\n    pass"))
    run_index(repo)
    incremental = _edges(repo)
    assert ("call", "Fancy.send", "calls") in incremental
    run_index(repo, full=True)
    assert incremental == _edges(repo)


@pytest.mark.parametrize("edit", ["a method added", "a method removed"])
def test_a_changed_member_re_resolves_calls_through_its_type_and_the_types_below(
        make_repo: Callable[..., Path], edit: str) -> None:
    """`s.put()` through Store, and through Cache (a subclass in a third file), in a file
    no edit touches: adding or removing `Store.put` changes only store.py, whose types an
    incremental run re-resolves calls through only when their members or bases changed.
    The member's name reaches both calls, as a full index finds them."""
    with_put = ("class Store:\n    def get(self, k):\n        return k\n\n"
                "    def put(self, k):\n        return k\n")
    without = "class Store:\n    def get(self, k):\n        return k\n"
    repo = make_repo({
        "store.py": without if edit == "a method added" else with_put,
        "cache.py": "from store import Store\n\n\nclass Cache(Store):\n    pass\n",
        "client.py": "from store import Store\nfrom cache import Cache\n\n\n"
                     "def direct():\n    s = Store()\n    return s.put(1)\n\n\n"
                     "def derived():\n    c = Cache()\n    return c.put(2)\n",
    })
    run_index(repo)
    calls = {("direct", "Store.put", "calls"), ("derived", "Store.put", "calls")}
    assert bool(calls & _edges(repo)) == (edit == "a method removed")
    (repo / "store.py").write_text(with_put if edit == "a method added" else without)
    run_index(repo)
    incremental = _edges(repo)
    if edit == "a method added":
        assert calls <= incremental
    else:
        assert not calls & incremental
    run_index(repo, full=True)
    assert incremental == _edges(repo)


_PARENT: list[int] = []  # the test's own pid: the history reader dies anywhere else
_READ_IN_PARENT: list[int] = []
_READ_HISTORY = history.read_history


def _read_history_dying_in_the_child(*args, **kwargs):  # type: ignore[no-untyped-def]
    """read_history, except in a child process, which ends at once as a SIGKILL would end it
    (no result, no exception sent back). Module level: the pool pickles it by name."""
    if os.getpid() != _PARENT[0]:
        os._exit(9)
    _READ_IN_PARENT.append(1)
    return _READ_HISTORY(*args, **kwargs)


def test_a_full_run_whose_history_reader_dies_reads_history_itself(
        make_repo: Callable[..., Path], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A full run reads git history in a child process; a child that dies (killed, out of
    memory) must not fail the run or lose the history: the parent reads it instead."""
    repo = make_repo({"a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n"})
    git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    _PARENT[:] = [os.getpid()]
    _READ_IN_PARENT.clear()
    monkeypatch.setattr(history, "read_history", _read_history_dying_in_the_child)
    report = run_index(repo, full=True)
    assert not [n for n in report.notes if "history" in n], report.notes
    assert _READ_IN_PARENT == [1]  # the child died; the parent read it, once
    with _db(repo) as conn:
        recency = dict(conn.execute("SELECT path, recency FROM files"))
        head = conn.execute("SELECT value FROM meta WHERE key = 'indexed_head'").fetchone()[0]
    assert set(recency) == {"a.py", "b.py"} and all(r > 0 for r in recency.values())
    assert head == git(repo, "rev-parse", "HEAD").strip()
