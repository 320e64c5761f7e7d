from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
import Foundation
import struct Combine.AnyPublisher

let maxItems = 64
var registry: [String: Order] = [:]

/// Persists orders.
final class OrderStore: BaseStore, Store, Sendable {
    private let db: Connection
    var cache = [String: Order]()

    init(db: Connection) {
        self.db = db
        super.init()
    }

    // Finds one.
    override func find(id: String) -> Order? {
        let row = db.query("select order", id: id)
        return Order(id: row.id, count: 42)
    }
}

protocol Store: Base {
    var name: String { get }
    func find(id: String) -> Order?
}

struct Point: Equatable {
    let x: Double
    var length: Double { x.magnitude }
}

enum Color: String {
    case red, green, blue
    case custom(Palette)
}

extension OrderStore: CustomStringConvertible {
    var description: String { "store" }
    func save(_ order: Order) async throws -> Result<Order, StoreError> {
        items.forEach { log($0) }
        _ = self.find(id: order.id)
        return try await db.write(order)
    }
}

typealias Handler = (Order) -> Void
func makeStore() -> OrderStore { OrderStore(db: .shared) }
"""


def test_swift_symbols() -> None:
    parsed = parse("swift", "Sources/Orders/OrderStore.swift", SOURCE)
    assert symbols(parsed) == {
        ("constant", "maxItems", 4),  # a top-level `let`
        ("variable", "registry", 5),
        ("class", "OrderStore", 8),
        ("field", "OrderStore.db", 9),
        ("field", "OrderStore.cache", 10),
        ("constructor", "OrderStore.init", 12),
        ("method", "OrderStore.find", 18),
        ("interface", "Store", 24),
        ("field", "Store.name", 25),
        ("method", "Store.find", 26),
        ("struct", "Point", 29),
        ("field", "Point.x", 30),
        ("field", "Point.length", 31),
        ("enum", "Color", 34),
        ("constant", "Color.red", 35),  # one node, one name each: not `red.green`
        ("constant", "Color.green", 35),
        ("constant", "Color.blue", 35),
        ("constant", "Color.custom", 36),
        # an extension is a `type` named after the extended type: members qualify under it
        ("type", "OrderStore", 39),
        ("field", "OrderStore.description", 40),
        ("method", "OrderStore.save", 41),
        ("type", "Handler", 48),
        ("function", "makeStore", 49),
    }
    assert symbol(parsed, "OrderStore", "class").doc == "Persists orders."
    assert symbol(parsed, "OrderStore.find").doc == "Finds one."
    assert symbol(parsed, "OrderStore.save").parent == "OrderStore"
    assert symbol(parsed, "Color.custom").signature == "case custom(Palette)"
    assert parsed.error == ""


def test_swift_references() -> None:
    parsed = parse("swift", "Sources/Orders/OrderStore.swift", SOURCE)
    find, save = "OrderStore.find", "OrderStore.save"
    # a class's first inheritance item is its superclass; the rest, and every item of a
    # struct, enum or extension, are conformances; a protocol extends its parents
    assert refs(parsed, EdgeKind.EXTENDS) == {("OrderStore", "BaseStore"), ("Store", "Base")}
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("OrderStore", "Store"), ("OrderStore", "Sendable"), ("Point", "Equatable"),
        ("OrderStore", "CustomStringConvertible"),
    }  # `Color: String` names a raw-value type, not a supertype
    assert refs(parsed, EdgeKind.CALLS) == {
        ("OrderStore.init", "init"),  # super.init()
        (find, "query"), (find, "Order"),  # a method on a receiver; a constructor call
        (save, "forEach"), (save, "log"),  # a trailing closure, and a call inside it
        (save, "find"), (save, "write"),
        ("makeStore", "OrderStore"),  # `.shared` is a member, not a call
    }
    types = refs(parsed, EdgeKind.REFERENCES)
    assert types == {  # not String, Double, Void, nor the supertypes counted above
        ("registry", "Order"), ("OrderStore.db", "Connection"),
        ("OrderStore.init", "Connection"), (find, "Order"), ("Store.find", "Order"),
        ("Color.custom", "Palette"), (save, "Order"), (save, "Result"), (save, "StoreError"),
        ("Handler", "Order"), ("makeStore", "OrderStore"),
    }
    assert imports(parsed) == {
        ("Foundation", ()),
        ("Combine.AnyPublisher", ("AnyPublisher",)),
    }


def test_swift_receivers() -> None:
    parsed = parse("swift", "Sources/Orders/OrderStore.swift", SOURCE)
    receivers = {(r.scope, r.name, r.receiver_type) for r in parsed.references
                 if r.kind is EdgeKind.CALLS and r.receiver_type}
    # `db` is a field annotated `Connection`, seen from the class and from its extension (a type
    # of the same name); `self` in an extension is the extended type
    assert receivers == {
        ("OrderStore.find", "query", "Connection"),
        ("OrderStore.save", "write", "Connection"),
        ("OrderStore.save", "find", "OrderStore"),
    }


def test_swift_syntax_error_keeps_good_symbols() -> None:
    source = "func ok() -> Int { 1 }\n\nfunc broken( {\n\nclass Later {}\n"
    parsed = parse("swift", "x.swift", source)
    assert parsed.error
    assert ("function", "ok", 1) in symbols(parsed)


def test_swift_backticked_names_are_plain() -> None:
    """``let `default` `` defines `default`, the name its uses call (`Session.default`)."""
    parsed = parse("swift", "Sources/Session.swift", """\
        final class Session {
            public static let `default` = Session()
        }
        """)
    assert symbols(parsed) == {("class", "Session", 1), ("field", "Session.default", 2)}
