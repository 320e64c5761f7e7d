from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
package com.acme.orders

import java.util.UUID
import com.acme.db.Connection as Conn
import kotlinx.coroutines.*

const val MAX_ITEMS = 64
val registry = mutableMapOf<String, Order>()

/** Persists orders. */
@Service
class OrderStore(private val db: Conn) : BaseStore<Order>(), Store, AutoCloseable {
    private val cache: MutableMap<String, Order> = HashMap()

    constructor() : this(Conn.default())

    // Finds one.
    override fun find(id: String): Order? {
        val row = db.query("select order", id)
        return Order(row.id).also { log(it) }
    }

    companion object {
        fun create(): OrderStore = OrderStore()
    }
}

interface Store : Base {
    fun find(id: String): Order?
}
data class Point(val x: Double, val y: Double)
enum class Color { RED, GREEN }
typealias Handler = (Order) -> Unit
fun String.slug(): String = lowercase()
"""


def test_kotlin_symbols() -> None:
    parsed = parse("kotlin", "src/main/kotlin/OrderStore.kt", SOURCE)
    assert symbols(parsed) == {
        ("constant", "MAX_ITEMS", 7),
        ("variable", "registry", 8),
        ("class", "OrderStore", 11),
        ("field", "OrderStore.db", 12),
        ("field", "OrderStore.cache", 13),
        ("constructor", "OrderStore.constructor", 15),
        ("method", "OrderStore.find", 18),
        ("method", "OrderStore.create", 24),  # companion members belong to the class
        ("interface", "Store", 28),
        ("method", "Store.find", 29),
        ("class", "Point", 31),
        ("field", "Point.x", 31),
        ("field", "Point.y", 31),
        ("enum", "Color", 32),
        ("constant", "Color.RED", 32),
        ("constant", "Color.GREEN", 32),
        ("type", "Handler", 33),
        ("function", "slug", 34),
    }
    assert symbol(parsed, "OrderStore").doc == "Persists orders."
    assert symbol(parsed, "OrderStore.find").doc == "Finds one."
    assert symbol(parsed, "OrderStore.find").parent == "OrderStore"
    assert parsed.error == ""


def test_kotlin_references() -> None:
    parsed = parse("kotlin", "src/main/kotlin/OrderStore.kt", SOURCE)
    find = "OrderStore.find"
    assert refs(parsed, EdgeKind.EXTENDS) == {("OrderStore", "BaseStore"), ("Store", "Base")}
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("OrderStore", "Store"), ("OrderStore", "AutoCloseable"),
    }
    calls = refs(parsed, EdgeKind.CALLS)
    assert {(find, "query"), (find, "Order"), (find, "also"), (find, "log")} <= calls
    assert {("OrderStore.create", "OrderStore"), ("OrderStore.cache", "HashMap")} <= calls
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("OrderStore.db", "Conn"), (find, "Order"), ("Handler", "Order")} <= types
    assert not {name for _, name in types} & {"String", "Unit", "BaseStore"}
    assert imports(parsed) == {
        ("java.util.UUID", ("UUID",)),
        ("com.acme.db.Connection", ("Conn",)),
        ("kotlinx.coroutines", ()),
    }


def test_kotlin_syntax_error_keeps_good_symbols() -> None:
    source = "fun ok() = 1\n\nfun broken( {\n\nclass Later\n"
    parsed = parse("kotlin", "x.kt", source)
    assert parsed.error
    assert ("function", "ok", 1) in symbols(parsed)
