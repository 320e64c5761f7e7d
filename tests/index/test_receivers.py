"""Method calls resolve through their receiver's type when the file shows it; else never guessed.

Each repository defines `take` (or `send`) on two types, so names alone resolve nothing: every
edge below exists only because the receiver's type picked one. Real git repos, the real
indexer, edges read back from the index.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from graphiq_ci.index import run_index

PYTHON = {
    "pool.py": "class Pool:\n    def take(self):\n        return 1\n",
    "queue.py": "class Queue:\n    def take(self):\n        return 2\n",
    "transport.py": "class Transport:\n    def send(self, r):\n        return r\n\n\n"
                    "class Retrying(Transport):\n    pass\n",
    "client.py": '''from pool import Pool
from queue import Queue
from transport import Retrying, Transport
import vendor


class Client:
    transport: Transport

    def __init__(self):
        self.pool = Pool()
        self.transport = Retrying()

    def send(self, r):
        return self.transport.send(r)

    def get(self, url):
        return self.send(url)


def annotated(q: Queue):
    return q.take()


def constructed():
    p = Pool()
    return p.take()


def attribute(c: Client):
    return c.pool.take()


def inherited():
    r = Retrying()
    return r.send(5)


def inline():
    return Pool().take()


def unknown(x):
    return x.take()


def external():
    v = vendor.Pool()
    w = Pool
    return v.take()
''',
}
GO = {
    "go.mod": "module shop\n",
    "pool.go": "package shop\n\ntype Pool struct{}\n\nfunc (p *Pool) Take() int { return 1 }\n\n"
               "func NewPool() *Pool { return &Pool{} }\n",
    "queue.go": "package shop\n\ntype Queue struct{}\n\nfunc (q Queue) Take() int { return 2 }\n\n"
                "func newQueue() (Queue, error) { return Queue{}, nil }\n",
    "client.go": """package shop

type Client struct {
	pool *Pool
}

func (c *Client) Get() int { return c.pool.Take() }

func Annotated(q Queue) int { return q.Take() }

func Constructed() int {
	p := &Pool{}
	return p.Take()
}

func Unknown(x interface{ Take() int }) int { return x.Take() }

func ByConstructor() int {
	p := NewPool()
	q, _ := newQueue()
	return p.Take() + q.Take()
}

func ByOtherCall() int {
	p := Pools()[0]
	return p.Take()
}
""",
}
RUST = {
    "src/lib.rs": """pub struct Pool;
impl Pool { pub fn take(&self) -> u8 { 1 } pub fn new() -> Pool { Pool } }
pub struct Queue;
impl Queue { pub fn take(&self) -> u8 { 2 } }
pub trait Sender { fn send(&self) -> u8 { 3 } }
pub struct Client { pool: Pool }
impl Sender for Client {}
pub struct Other;
impl Other { pub fn send(&self) -> u8 { 4 } }
impl Client {
    pub fn get(&self, q: &Queue) -> u8 { self.pool.take() + q.take() + self.send() }
    pub fn constructed() -> u8 { let p = Pool::new(); p.take() }
    pub fn inline() -> u8 { Pool::new().take() }
}
""",
}
JAVA = {
    "src/shop/Pool.java": "package shop;\nclass Pool { int take() { return 1; } }\n",
    "src/shop/Queue.java": "package shop;\nclass Queue { int take() { return 2; } }\n",
    "src/shop/Client.java": """package shop;
class Client {
  private Pool pool;
  int get(Queue q) { return pool.take() + q.take(); }
  int constructed() { var p = new Pool(); return p.take(); }
  int inline() { return new Pool().take(); }
}
""",
}
TYPESCRIPT = {
    "src/pool.ts": "export class Pool { take() { return 1; } }\n",
    "src/queue.ts": "export class Queue { take() { return 2; } }\n",
    "src/client.ts": """import { Pool } from './pool';
import { Queue } from './queue';
export class Client {
  pool: Pool;
  get(q: Queue) { return this.pool.take() + q.take(); }
  constructed() { const p = new Pool(); return p.take(); }
  inline() { return new Pool().take(); }
}
""",
}


def calls(repo: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        return set(conn.execute(
            "SELECT a.qualified, b.qualified FROM edges e JOIN symbols a ON a.id = e.src_id "
            "JOIN symbols b ON b.id = e.dst_id WHERE e.kind = 'calls'"))
    finally:
        conn.close()


def located_calls(repo: Path, kind: str = "calls") -> set[tuple[str, str]]:
    """Call edges (or `kind`'s) as (source's path:qualified name, target's path:qualified
    name)."""
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    try:
        return set(conn.execute(
            "SELECT fa.path || ':' || a.qualified, fb.path || ':' || b.qualified FROM edges e "
            "JOIN symbols a ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id "
            "JOIN files fa ON fa.id = a.file_id JOIN files fb ON fb.id = b.file_id "
            "WHERE e.kind = ?", (kind,)))
    finally:
        conn.close()


def test_python_receivers(make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(PYTHON)
    run_index(repo)
    edges = calls(repo)
    assert {
        ("annotated", "Queue.take"),           # a parameter annotation
        ("constructed", "Pool.take"),          # assigned from a constructor
        ("attribute", "Pool.take"),            # c: Client, Client.pool = Pool()
        ("Client.send", "Transport.send"),     # declared `transport: Transport` outranks Retrying()
        ("Client.get", "Client.send"),         # self
        ("inherited", "Transport.send"),       # Retrying has no send: its base does
        ("inline", "Pool.take"),               # the receiver is a constructor call itself
    } <= edges
    assert not {dst for src, dst in edges if src in ("unknown", "external")} & {
        "Pool.take", "Queue.take"}                 # untyped, or another package's Pool


def test_go_receivers(make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(GO)
    run_index(repo)
    edges = calls(repo)
    assert {("Client.Get", "Pool.Take"), ("Annotated", "Queue.Take"),
            ("Constructed", "Pool.Take"),
            ("ByConstructor", "Pool.Take"), ("ByConstructor", "Queue.Take"),  # NewPool, newQueue
            } <= edges
    assert not {dst for src, dst in edges if src in ("Unknown", "ByOtherCall")} & {
        "Pool.Take", "Queue.Take"}


def test_rust_receivers(make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(RUST)
    run_index(repo)
    edges = calls(repo)
    assert {("Client.get", "Pool.take"), ("Client.get", "Queue.take"),
            ("Client.get", "Sender.send"),  # the trait Client implements, not Other.send
            ("Client.constructed", "Pool.take"), ("Client.inline", "Pool.take")} <= edges
    assert ("Client.get", "Other.send") not in edges


@pytest.mark.parametrize("files, caller", [(JAVA, "Client"), (TYPESCRIPT, "Client")],
                         ids=["java", "typescript"])
def test_java_and_typescript_receivers(make_repo: Callable[[dict[str, str]], Path],
                                       files: dict[str, str], caller: str) -> None:
    repo = make_repo(files)
    run_index(repo)
    edges = calls(repo)
    assert {(f"{caller}.get", "Pool.take"), (f"{caller}.get", "Queue.take"),
            (f"{caller}.constructed", "Pool.take"), (f"{caller}.inline", "Pool.take")} <= edges
    assert (f"{caller}.constructed", "Queue.take") not in edges


STATIC = {
    "src/shop/Parser.java": "package shop;\nclass Parser { static int parse() { return 1; } }\n",
    "src/shop/Lexer.java": "package shop;\nclass Lexer { static int parse() { return 2; } }\n",
    "src/shop/Main.java": """package shop;
class Main {
  int run() { return Parser.parse() + Math.max(1, 2); }
}
""",
    "src/util.ts": "export function format(x: number) { return `${x}`; }\n",
    "src/config.ts": """import * as Util from './util';
export class Config { static load() { return Util.format(1); } }
export class Store { static load() { return 2; } }
export function boot() { return Config.load(); }
""",
}


def test_a_call_on_a_type_name_is_that_types_member(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`Parser.parse(...)` is Parser's static method, not Lexer's; `Util.format` goes through
    the namespace import `Util` (an import alias, not a type), as before."""
    repo = make_repo(STATIC)
    run_index(repo)
    edges = calls(repo)
    assert ("Main.run", "Parser.parse") in edges and ("Main.run", "Lexer.parse") not in edges
    assert ("boot", "Config.load") in edges and ("boot", "Store.load") not in edges
    assert ("Config.load", "format") in edges


def test_a_name_prefix_is_not_a_shared_scope(make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`_Option` is not an enclosing name of `_OptionParser`: an untyped `arg.process()` in
    the parser is either class's `process`, so it stays unresolved (it resolved to
    `_Option.process` while scopes were compared character by character). A class's own
    method called from its sibling still resolves through the shared class name."""
    repo = make_repo({"parser.py": '''class _Option:
    def process(self, value):
        return value


class _Argument:
    def process(self, value):
        return [value]

    def both(self, value):
        return self.process(value)


class _OptionParser:
    def run(self, arg, value):
        return arg.process(value)
'''})
    run_index(repo)
    edges = calls(repo)
    assert ("_Argument.both", "_Argument.process") in edges
    assert not {dst for src, dst in edges if src == "_OptionParser.run"} & {
        "_Option.process", "_Argument.process"}


RUST_PATHS = {
    "Cargo.toml": "[package]\nname = \"shop\"\n",
    "src/lib.rs": """mod enum_;
mod identifier;
mod store;
mod tuple;
use crate::store::Store;

pub struct Params;
impl Params {
    pub fn new() -> Self { Params }
}

pub fn expand() -> u8 {
    enum_::generate();
    tuple::generate();
    let _s = Store::new();
    let _v: Vec<u8> = Vec::new();
    lookup().identifier()
}
""",
    "src/enum_.rs": "use crate::tuple;\n\npub fn generate() -> u8 { tuple::generate() }\n",
    "src/tuple.rs": "pub fn generate() -> u8 { 2 }\n",
    "src/identifier.rs": "pub const KIND: u8 = 3;\n",
    "src/shapes.rs": """pub mod one {
    pub enum E { A(u8) }
    pub fn make() -> E { E::A(1) }
}
pub mod two {
    pub enum E { A(u8) }
    pub fn make() -> E { E::A(2) }
}
""",
    "src/store.rs": """pub struct Store;
impl Store {
    pub fn new() -> Self { Self::empty() }
    fn empty() -> Self { Store }
}
pub struct Attrs;
impl Attrs {
    pub fn identifier(&self) -> u8 { 1 }
}
pub fn lookup() -> Attrs { Attrs }
""",
}


def test_a_rust_path_call_is_its_modules_or_its_types(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`tuple::generate()` is the `generate` of the module `mod tuple;` or `use …::tuple`
    binds, never the caller's own namesake (`enum_.rs` calling `tuple::generate` was an edge
    to itself); `Store::new()` with `Store` imported is Store's, `Vec::new()` nobody's here,
    `Self::empty()` the enclosing impl's; and a method call whose name is also a module's
    (`….identifier()`, `mod identifier;`) is not a call of the module."""
    repo = make_repo(RUST_PATHS)
    run_index(repo)
    edges = located_calls(repo)
    assert {("src/lib.rs:expand", "src/enum_.rs:generate"),
            ("src/lib.rs:expand", "src/tuple.rs:generate"),
            ("src/enum_.rs:generate", "src/tuple.rs:generate"),
            ("src/lib.rs:expand", "src/store.rs:Store.new"),
            ("src/store.rs:Store.new", "src/store.rs:Store.empty"),
            ("src/lib.rs:expand", "src/store.rs:Attrs.identifier"),
            # a type named twice in a file: the one the caller's module holds
            ("src/shapes.rs:one.make", "src/shapes.rs:one.E.A"),
            ("src/shapes.rs:two.make", "src/shapes.rs:two.E.A")} <= edges
    assert ("src/enum_.rs:generate", "src/enum_.rs:generate") not in edges
    assert ("src/lib.rs:expand", "src/lib.rs:Params.new") not in edges  # Vec::new()
    assert not {dst for _, dst in edges if dst.startswith("src/identifier.rs")}


PYTHON_PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/rich_utils.py": "def render(x):\n    return x\n",
    "pkg/core.py": "def render(x):\n    return -x\n\n\ndef show(x):\n"
                   "    from . import rich_utils\n    return rich_utils.render(x)\n",
    "tools/render.py": "def render(x):\n    return x * 2\n",
    "main.py": "import pkg.core\nfrom pkg import rich_utils\n\n\ndef run():\n"
               "    return rich_utils.render(1)\n",
}


def test_a_python_submodule_import_binds_the_submodule(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`from . import rich_utils` binds `pkg/rich_utils.py`, not the package's
    `__init__.py`: `rich_utils.render()` is that file's `render` (three in the repository,
    one beside the caller), which names alone never picked."""
    repo = make_repo(PYTHON_PACKAGE)
    run_index(repo)
    assert {(src, dst) for src, dst in located_calls(repo) if dst.endswith(":render")} == {
        ("pkg/core.py:show", "pkg/rich_utils.py:render"),
        ("main.py:run", "pkg/rich_utils.py:render")}


GO_PACKAGES = {
    "go.mod": "module example.com/shop\n",
    "tui/tui.go": "package tui\n\ntype Window struct{}\n\nconst Bold = 1\n\n"
                  "func New() int { return 1 }\n",
    "tui/light.go": "package tui\n\nfunc NewLight() int { return New() + 1 }\n",
    "util/util.go": "package util\n\ntype Window struct{}\n\nconst Bold = 2\n\n"
                    "func New() int { return 2 }\n",
    "main.go": """package main

import (
	"example.com/shop/tui"
	u "example.com/shop/util"
)

func New() int { return 0 }

func main() {
	_ = tui.New() + u.New() + tui.NewLight() + New()
}

func draw(w tui.Window) u.Window {
	return u.Window{}
}

func weight() int {
	run := tui.New
	return tui.Bold + run()
}
""",
}


def test_a_go_call_through_a_package_is_that_folders(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """A Go package is its folder: `tui.New()` is the `New` of any file in `tui/`, through
    the package's name (the import path's last segment) or its alias (`u`), and never the
    caller's own `New`; three `New`s made names alone resolve none of them. A type, a
    constant or a function read through a package (`tui.Window`, `u.Window{}`, `tui.Bold`,
    `tui.New` as a value) is that package's too."""
    repo = make_repo(GO_PACKAGES)
    run_index(repo)
    assert located_calls(repo) == {
        ("main.go:main", "tui/tui.go:New"), ("main.go:main", "util/util.go:New"),
        ("main.go:main", "tui/light.go:NewLight"), ("main.go:main", "main.go:New"),
        ("tui/light.go:NewLight", "tui/tui.go:New"), ("main.go:draw", "util/util.go:Window")}
    assert located_calls(repo, "references") >= {
        ("main.go:draw", "tui/tui.go:Window"), ("main.go:draw", "util/util.go:Window"),
        ("main.go:weight", "tui/tui.go:Bold"), ("main.go:weight", "tui/tui.go:New")}


INHERITED_OVERLOADS = {
    "src/shop/Query.java": "package shop;\nclass Query {}\n",
    "src/shop/Items.java": "package shop;\n"
                           "class Items { Items select(String q) { return this; } }\n",
    "src/shop/Node.java": """package shop;
class Node {
  Items select(String q) { return new Items(); }
  Items select(Query q) { return new Items(); }
}
""",
    "src/shop/Page.java": """package shop;
import shop.Items;
class Page extends Node {
  Items forms() { return select("form"); }
}
""",
}


def test_a_bare_call_of_ambiguous_inherited_overloads_is_no_other_types(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`select("form")` in Page is one of its base Node's two one-argument `select`s, which
    the argument count cannot tell apart: it stays unresolved, never the imported Items'
    own `select` (names alone took that one: the only `select` in an imported file)."""
    repo = make_repo(INHERITED_OVERLOADS)
    run_index(repo)
    assert not {dst for src, dst in calls(repo) if src == "Page.forms"}
