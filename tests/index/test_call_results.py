"""A method called on another call's result resolves through that call's declared return type.

Each repository defines `take` on two types, so names alone resolve none of the chained calls
below (`shop.pool().take()`): every edge asserted exists only because the inner call resolved
to one definition whose return type this repository defines. A return type that is not the
repository's (`int`, `List<Pool>`, a type parameter) leaves the call as names alone leave it.
Real git repos, the real indexer, edges read back from the index.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from graphiq_ci.index import redo, run_index
from tests.index.test_receivers import calls

JAVA = {
    "src/shop/Pool.java": "package shop;\nclass Pool { int take() { return 1; } }\n",
    "src/shop/Queue.java": "package shop;\nclass Queue { int take() { return 2; } }\n",
    "src/shop/Shop.java": """package shop;
import java.util.List;
class Shop {
  Pool pool() { return new Pool(); }
  static Queue queue(int size) { return new Queue(); }
  Shop self() { return this; }
  List<Pool> pools() { return List.of(); }
  <T> T any() { return null; }
}
""",
    "src/shop/Client.java": """package shop;
class Client {
  int chained(Shop shop) { return shop.pool().take() + Shop.queue(3).take(); }
  int deeper(Shop shop) { return shop.self().self().pool().take(); }
  int unknown(Shop shop) { return shop.pools().get(0).take() + shop.any().take(); }
}
""",
}
PYTHON = {
    "pool.py": "class Pool:\n    def take(self):\n        return 1\n",
    "queue.py": "class Queue:\n    def take(self):\n        return 2\n",
    "shop.py": '''from pool import Pool
from queue import Queue


class Shop:
    def pool(self) -> "Pool":
        return Pool()

    def pools(self) -> list[Pool]:
        return [Pool()]


def make_queue() -> Queue:
    return Queue()
''',
    "client.py": '''from shop import Shop, make_queue


def chained(shop: Shop):
    return shop.pool().take() + make_queue().take()


def unknown(shop: Shop):
    return shop.pools()[0].take()
''',
}
TYPESCRIPT = {
    "src/pool.ts": "export class Pool { take() { return 1; } }\n",
    "src/queue.ts": "export class Queue { take() { return 2; } }\n",
    "src/shop.ts": """import { Pool } from './pool';
import { Queue } from './queue';
export class Shop {
  pool(): Pool { return new Pool(); }
  pools(): Pool[] { return [new Pool()]; }
}
export function makeQueue(): Queue { return new Queue(); }
""",
    "src/client.ts": """import { Shop, makeQueue } from './shop';
export function chained(shop: Shop) { return shop.pool().take() + makeQueue().take(); }
export function unknown(shop: Shop) { return shop.pools()[0].take(); }
""",
}
RUST = {
    "src/lib.rs": """pub struct Pool;
impl Pool { pub fn take(&self) -> u8 { 1 } }
pub struct Queue;
impl Queue { pub fn take(&self) -> u8 { 2 } }
pub struct Shop { pool: Pool }
impl Shop {
    pub fn pool(&self) -> &Pool { &self.pool }
    pub fn itself(&self) -> &Self { self }
    pub fn count(&self) -> usize { 0 }
}
pub fn make_queue() -> Queue { Queue }
pub fn chained(shop: &Shop) -> u8 { shop.itself().pool().take() + make_queue().take() }
""",
}
GO = {
    "go.mod": "module shop\n",
    "pool.go": "package shop\n\ntype Pool struct{}\n\nfunc (p *Pool) Take() int { return 1 }\n",
    "queue.go": "package shop\n\ntype Queue struct{}\n\nfunc (q Queue) Take() int { return 2 }\n",
    "shop.go": """package shop

type Shop struct{ pool *Pool }

func (s *Shop) Pool() *Pool { return s.pool }

func MakeQueue() Queue { return Queue{} }

func Pair() (*Pool, error) { return nil, nil }
""",
    "client.go": """package shop

func Chained(s *Shop) int { return s.Pool().Take() + MakeQueue().Take() }
""",
}


def takes(edges: set[tuple[str, str]], caller: str) -> set[str]:
    return {dst for src, dst in edges if src == caller and dst.endswith((".take", ".Take"))}


@pytest.mark.parametrize("files, chained, unknown", [
    (JAVA, "Client.chained", "Client.unknown"),
    (PYTHON, "chained", "unknown"),
    (TYPESCRIPT, "chained", "unknown"),
    (RUST, "chained", None),
    (GO, "Chained", None),
], ids=["java", "python", "typescript", "rust", "go"])
def test_a_call_on_a_call_result_is_the_returned_types_member(
        make_repo: Callable[[dict[str, str]], Path], files: dict[str, str], chained: str,
        unknown: str | None) -> None:
    repo = make_repo(files)
    run_index(repo)
    edges = calls(repo)
    names = {"Pool.take", "Queue.take"} if files is not GO else {"Pool.Take", "Queue.Take"}
    assert takes(edges, chained) == names  # `shop.pool().take()` and `make_queue().take()`
    if unknown is not None:  # a list of Pools, an array, a type parameter: not guessed
        assert takes(edges, unknown) == set()


def test_a_chain_resolves_call_by_call(make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`shop.self().self().pool().take()`: three calls deep, each through the one before."""
    repo = make_repo(JAVA)
    run_index(repo)
    assert takes(calls(repo), "Client.deeper") == {"Pool.take"}


OVERLOADS = {
    "src/shop/Pool.java": "package shop;\nclass Pool { int take() { return 1; } }\n",
    "src/shop/Queue.java": "package shop;\nclass Queue { int take() { return 2; } }\n",
    "src/shop/Shop.java": """package shop;
class Shop {
  Pool pool(int size) { return new Pool(); }
  Pool pool(String name) { return new Pool(); }
  Pool any(int size) { return new Pool(); }
  Queue any(String name) { return new Queue(); }
}
""",
    "src/shop/Client.java": """package shop;
class Client {
  int agreed(Shop shop) { return shop.pool(3).take(); }
  int differ(Shop shop) { return shop.any(3).take(); }
}
""",
}


def test_overloads_that_return_one_type_tell_the_type(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`pool(int)` and `pool(String)` take one argument each, so `shop.pool(3)` may be either
    (argument types are not read); both return a Pool, so `.take()` is Pool's. `any(…)`
    returns a Pool or a Queue: not guessed."""
    repo = make_repo(OVERLOADS)
    run_index(repo)
    edges = calls(repo)
    assert takes(edges, "Client.agreed") == {"Pool.take"}
    assert takes(edges, "Client.differ") == set()


ASSIGNED = {
    "python": {**{k: v for k, v in PYTHON.items() if k != "client.py"},
               "client.py": "from shop import Shop\n\n\n"
                            "def assigned(shop: Shop):\n    p = shop.pool()\n"
                            "    return p.take()\n"},
    "typescript": {**{k: v for k, v in TYPESCRIPT.items() if k != "src/client.ts"},
                   "src/client.ts": """import { Shop, makeQueue } from './shop';
export function assigned(shop: Shop) { const p = shop.pool(); const q = makeQueue();
  return p.take() + q.take(); }
"""},
    "java": {**{k: v for k, v in JAVA.items() if k != "src/shop/Client.java"},
             "src/shop/Client.java": """package shop;
class Client {
  int assigned(Shop shop) { var p = shop.pool(); return p.take(); }
}
"""},
    "go": {**{k: v for k, v in GO.items() if k != "client.go"}, "client.go": """package shop

func Assigned(s *Shop) int {
	p := s.Pool()
	return p.Take()
}
"""},
    "rust": {"src/lib.rs": RUST["src/lib.rs"].replace(
        "pub fn chained", "pub fn assigned(shop: &Shop) -> u8 { let p = shop.pool(); "
        "let q = make_queue(); p.take() + q.take() }\npub fn chained")},
}


@pytest.mark.parametrize("language, caller, wanted", [
    ("python", "assigned", {"Pool.take"}),
    ("typescript", "assigned", {"Pool.take", "Queue.take"}),
    ("java", "Client.assigned", {"Pool.take"}),
    ("go", "Assigned", {"Pool.Take"}),
    ("rust", "assigned", {"Pool.take", "Queue.take"}),
])
def test_a_variable_assigned_a_calls_result_has_its_return_type(
        make_repo: Callable[[dict[str, str]], Path], language: str, caller: str,
        wanted: set[str]) -> None:
    """`p = shop.pool(); p.take()`: the variable's type is what the call returns."""
    repo = make_repo(ASSIGNED[language])
    run_index(repo)
    assert takes(calls(repo), caller) == wanted


@pytest.fixture(params=["names picked in SQL", "every chain read"])
def chain_selection(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """An incremental run picks the chains to resolve again by a substring test in SQLite
    while its names are few, and reads every chain when they are many: both must pick the
    chains a full index resolves differently."""
    if request.param == "every chain read":
        monkeypatch.setattr(redo, "SQL_TERMS", 0)


@pytest.mark.usefixtures("chain_selection")
def test_a_changed_return_type_re_resolves_the_calls_on_it_elsewhere(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Only shop.py changes (`pool()` now returns a Queue); the chain in client.py must follow
    it in an incremental run, as a full index does."""
    repo = make_repo(PYTHON)
    run_index(repo)
    assert takes(calls(repo), "chained") == {"Pool.take", "Queue.take"}
    shop = repo / "shop.py"
    shop.write_text(shop.read_text().replace('-> "Pool"', "-> Queue"))
    run_index(repo)
    incremental = calls(repo)
    assert takes(incremental, "chained") == {"Queue.take"}
    run_index(repo, full=True)
    assert calls(repo) == incremental


@pytest.mark.usefixtures("chain_selection")
def test_a_changed_base_of_a_returned_type_re_resolves_the_calls_on_it(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`make().send()`: `make` returns Retrying, whose base decides which `send` runs. Only the
    base changes, in a file neither the call nor `make` is in."""
    repo = make_repo({
        "transport.py": "class Plain:\n    def send(self):\n        return 1\n\n\n"
                        "class Fancy:\n    def send(self):\n        return 2\n\n\n"
                        "class Retrying(Plain):\n    pass\n",
        "factory.py": "from transport import Retrying\n\n\n"
                      "def make() -> Retrying:\n    return Retrying()\n",
        "client.py": "from factory import make\n\n\ndef call():\n    return make().send()\n",
    })
    run_index(repo)
    assert ("call", "Plain.send") in calls(repo)
    transport = repo / "transport.py"
    transport.write_text(transport.read_text().replace("(Plain):", "(Fancy):"))
    run_index(repo)
    incremental = calls(repo)
    assert ("call", "Fancy.send") in incremental and ("call", "Plain.send") not in incremental
    run_index(repo, full=True)
    assert calls(repo) == incremental


def test_an_incremental_run_rejects_a_return_type_with_an_ambiguous_base_as_a_full_index_does(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`make()` returns Retrying, whose base `Base` two files define: which type the call's
    result is stays unknown, and `send` (two of them) unresolved. An incremental run that
    resolves client.py again (a new import) loads only the names its references look up; it
    must load the returned type's bases too, or it takes Retrying for certain (axum's
    RequestBuilder, whose base the repository also names, c9a911b799)."""
    repo = make_repo({
        "base_a.py": "class Base:\n    pass\n",
        "base_b.py": "class Base:\n    pass\n",
        "transport.py": "from base_a import Base\n\n\nclass Retrying(Base):\n"
                        "    def send(self):\n        return 1\n\n\n"
                        "class Other:\n    def send(self):\n        return 2\n",
        "factory.py": "from transport import Retrying\n\n\n"
                      "def make() -> Retrying:\n    return Retrying()\n",
        "client.py": "from factory import make\n\n\ndef call():\n    return make().send()\n",
    })
    run_index(repo)
    assert ("call", "Retrying.send") not in calls(repo)
    client = repo / "client.py"
    client.write_text("import os\n" + client.read_text())
    run_index(repo)
    incremental = calls(repo)
    assert ("call", "Retrying.send") not in incremental
    run_index(repo, full=True)
    assert calls(repo) == incremental
