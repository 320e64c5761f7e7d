from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
//! Order storage.
use std::collections::HashMap;
use crate::db::{Conn, Pool as DbPool};
use super::errors::*;

/// Max entries.
pub const MAX: usize = 64;

/// A stored order.
pub struct Order {
    pub id: u64,
    items: Vec<Item>,
}

pub enum Status { Open, Closed(u8) }

pub type Result<T> = std::result::Result<T, StoreError>;

/// Something that stores.
pub trait Store: Send + Sync {
    fn get(&self, id: u64) -> Option<Order>;
}

impl Store for MemStore {
    fn get(&self, id: u64) -> Option<Order> {
        self.map.get(&id).cloned()
    }
}

impl MemStore {
    /// Makes one.
    pub fn new(conn: Conn) -> Self {
        helpers::log("created store");
        MemStore { map: HashMap::new(), conn }
    }
}

mod helpers {
    pub fn log(msg: &str) { println!("{}", msg); }
}
mod codec;
"""


def test_rust_symbols() -> None:
    parsed = parse("rust", "src/store.rs", SOURCE)
    assert symbols(parsed) == {
        ("constant", "MAX", 7),
        ("struct", "Order", 10),
        ("field", "Order.id", 11),
        ("field", "Order.items", 12),
        ("enum", "Status", 15),
        ("constant", "Status.Open", 15),
        ("constant", "Status.Closed", 15),
        ("type", "Result", 17),
        ("trait", "Store", 20),
        ("method", "Store.get", 21),
        # impl blocks are named after their self type, so methods qualify as `Type.method`
        ("type", "MemStore", 24),
        ("method", "MemStore.get", 25),
        ("type", "MemStore", 30),
        ("method", "MemStore.new", 32),
        ("module", "helpers", 38),
        ("function", "helpers.log", 39),
    }
    assert symbol(parsed, "MemStore.new").doc == "Makes one."
    assert symbol(parsed, "Order").doc == "A stored order."
    assert symbol(parsed, "helpers.log").parent == "helpers"


def test_rust_references() -> None:
    parsed = parse("rust", "src/store.rs", SOURCE)
    calls = refs(parsed, EdgeKind.CALLS)
    assert calls == {
        ("MemStore.get", "get"), ("MemStore.get", "cloned"), ("MemStore.new", "log"),
        ("MemStore.new", "MemStore"), ("MemStore.new", "new"),
    }  # println! is skipped
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {("MemStore", "Store")}
    assert refs(parsed, EdgeKind.EXTENDS) == {("Store", "Send"), ("Store", "Sync")}
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("Order.items", "Item"), ("Store.get", "Order"), ("MemStore.new", "Conn")} <= types
    assert {("Result", "StoreError")} <= types
    assert not {name for _, name in types} & {"T", "Vec", "Option", "Self"}
    assert imports(parsed) == {
        ("std::collections::HashMap", ("HashMap",)),
        ("crate::db", ("Conn",)),
        ("crate::db", ("DbPool",)),
        ("super::errors", ()),
        ("codec", ("codec",)),  # `mod codec;` binds `codec`: `codec::decode()` goes there
    }


def test_rust_syntax_error_keeps_good_symbols() -> None:
    source = "fn good() {}\n\nfn broken( {\n\nstruct Later { a: u8 }\n"
    parsed = parse("rust", "src/lib.rs", source)
    assert parsed.error
    assert ("function", "good", 1) in symbols(parsed)
    assert any(s.name == "Later" for s in parsed.symbols)
