from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
package com.acme.orders;

import java.util.List;
import java.util.concurrent.*;
import static org.junit.Assert.assertEquals;

/** Stores orders. */
@Service
public class OrderStore extends BaseStore<Order> implements Store, AutoCloseable {
    private static final int MAX = 128;
    private final Map<String, Order> cache = new HashMap<>();

    /** Builds it. */
    public OrderStore(Db db) { super(db); }

    // Finds one.
    @Override
    public Optional<Order> find(String id) throws NotFoundException {
        Order o = cache.get(id);
        this.db.log("lookup by id");
        return Optional.ofNullable(o);
    }

    enum Mode { FAST, SAFE }
    interface Listener extends EventListener { void on(Order o); }
    record Pair(String a, int b) {}
}
"""


def test_java_symbols() -> None:
    parsed = parse("java", "src/main/java/com/acme/orders/OrderStore.java", SOURCE)
    assert symbols(parsed) == {
        ("class", "OrderStore", 8),
        ("constant", "OrderStore.MAX", 10),
        ("field", "OrderStore.cache", 11),
        ("constructor", "OrderStore.OrderStore", 14),
        ("method", "OrderStore.find", 17),
        ("enum", "OrderStore.Mode", 24),
        ("constant", "OrderStore.Mode.FAST", 24),
        ("constant", "OrderStore.Mode.SAFE", 24),
        ("interface", "OrderStore.Listener", 25),
        ("method", "OrderStore.Listener.on", 25),
        ("class", "OrderStore.Pair", 26),
    }
    assert symbol(parsed, "OrderStore").doc == "Stores orders."
    assert symbol(parsed, "OrderStore.find").doc == "Finds one."
    assert symbol(parsed, "OrderStore.find").parent == "OrderStore"
    assert symbol(parsed, "OrderStore.cache").visibility == "private"


def test_java_references() -> None:
    parsed = parse("java", "src/main/java/com/acme/orders/OrderStore.java", SOURCE)
    assert refs(parsed, EdgeKind.EXTENDS) == {
        ("OrderStore", "BaseStore"), ("OrderStore.Listener", "EventListener"),
    }
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("OrderStore", "Store"), ("OrderStore", "AutoCloseable"),
    }
    assert refs(parsed, EdgeKind.CALLS) == {
        ("OrderStore.cache", "HashMap"), ("OrderStore.find", "get"),
        ("OrderStore.find", "log"), ("OrderStore.find", "ofNullable"),
    }
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("OrderStore.find", "NotFoundException"), ("OrderStore.OrderStore", "Db")} <= types
    assert {("OrderStore", "Order"), ("OrderStore.cache", "Map")} <= types
    assert not {name for _, name in types} & {"String", "BaseStore", "Store"}
    assert imports(parsed) == {
        ("java.util.List", ("List",)),
        ("java.util.concurrent", ()),
        ("org.junit.Assert", ("assertEquals",)),
    }


def test_java_syntax_error_keeps_good_symbols() -> None:
    source = "class A {\n  void ok() {}\n  void bad( {\n}\nclass Later {}\n"
    parsed = parse("java", "A.java", source)
    assert parsed.error
    assert {("class", "A", 1), ("method", "A.ok", 2)} <= symbols(parsed)


def test_java_annotations_reference_their_type() -> None:
    """`@Nullable`, `@AutoValue.Builder` and `@Memoized(x)` are uses of an annotation type, so
    the type's users are the code it annotates; java.lang's `@Override` is left out."""
    source = ("@AutoValue\nabstract class Money {\n  @AutoValue.Builder interface B {}\n"
              "  @Memoized(cache = true) @Override public String toString() { return \"\"; }\n"
              "  @Nullable abstract String note();\n}\n")
    types = refs(parse("java", "Money.java", source), EdgeKind.REFERENCES)
    assert {("Money", "AutoValue"), ("Money.B", "Builder"), ("Money.toString", "Memoized"),
            ("Money.note", "Nullable")} <= types
    assert "Override" not in {name for _, name in types}
