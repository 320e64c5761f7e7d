from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
using System;
using System.Collections.Generic;
using Db = Acme.Data.Database;

namespace Acme.Orders
{
    /// <summary>Stores orders.</summary>
    [Serializable]
    public class OrderStore : BaseStore<Order>, IStore, IDisposable
    {
        private const int Max = 64;
        private readonly Dictionary<string, Order> _cache = new();
        public string Name { get; set; }

        public OrderStore(Db db) : base(db) { }

        // Finds one.
        public Order? Find(string id)
        {
            var o = _cache.GetValueOrDefault(id);
            Log.Write("find called");
            return o ?? new Order(id);
        }
    }

    public interface IStore : IReadable { Order? Find(string id); }
    public struct Point : IEquatable<Point> { public double X; }
    public enum Color { Red, Green }
    public record Pair(string A, int B);
    public delegate void Handler(Order o);
}
"""


def test_csharp_symbols() -> None:
    parsed = parse("csharp", "src/OrderStore.cs", SOURCE)
    ns = "Acme.Orders"
    assert symbols(parsed) == {
        ("namespace", ns, 5),
        ("class", f"{ns}.OrderStore", 8),
        ("constant", f"{ns}.OrderStore.Max", 11),
        ("field", f"{ns}.OrderStore._cache", 12),
        ("field", f"{ns}.OrderStore.Name", 13),
        ("constructor", f"{ns}.OrderStore.OrderStore", 15),
        ("method", f"{ns}.OrderStore.Find", 18),
        ("interface", f"{ns}.IStore", 26),
        ("method", f"{ns}.IStore.Find", 26),
        ("struct", f"{ns}.Point", 27),
        ("field", f"{ns}.Point.X", 27),
        ("enum", f"{ns}.Color", 28),
        ("constant", f"{ns}.Color.Red", 28),
        ("constant", f"{ns}.Color.Green", 28),
        ("class", f"{ns}.Pair", 29),
        ("type", f"{ns}.Handler", 30),
    }
    store = symbol(parsed, f"{ns}.OrderStore")
    assert store.doc == "<summary>Stores orders.</summary>"  # above the [attribute]
    assert store.parent == ns
    assert symbol(parsed, f"{ns}.OrderStore.Find").doc == "Finds one."


def test_csharp_references() -> None:
    parsed = parse("csharp", "src/OrderStore.cs", SOURCE)
    store, find = "Acme.Orders.OrderStore", "Acme.Orders.OrderStore.Find"
    assert refs(parsed, EdgeKind.EXTENDS) == {
        (store, "BaseStore"), ("Acme.Orders.IStore", "IReadable"),
    }
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        (store, "IStore"), (store, "IDisposable"), ("Acme.Orders.Point", "IEquatable"),
    }
    assert refs(parsed, EdgeKind.CALLS) == {
        (find, "GetValueOrDefault"), (find, "Write"), (find, "Order"),
    }
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {(f"{store}._cache", "Dictionary"), (f"{store}.OrderStore", "Db")} <= types
    assert (find, "Order") in types
    assert imports(parsed) == {
        ("System", ()), ("System.Collections.Generic", ()), ("Acme.Data.Database", ("Db",)),
    }


def test_csharp_syntax_error_keeps_good_symbols() -> None:
    source = "class A {\n  void Ok() {}\n  void Bad() { if (x { } }\n}\nclass Later {}\n"
    parsed = parse("csharp", "A.cs", source)
    assert parsed.error
    assert {("class", "A", 1), ("method", "A.Ok", 2), ("class", "Later", 5)} <= symbols(parsed)
