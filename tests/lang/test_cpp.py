from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
#include "store.hpp"
#include <vector>

namespace acme {

/// Stores orders.
template <typename T>
class Store : public Base, private Mixin<T> {
public:
    Store(Db* db);
    ~Store();
    // Finds one.
    std::optional<Order> find(const std::string& id) const;
    void run() { helper(); }
    static constexpr int kMax = 64;
private:
    std::map<std::string, Order> cache_;
};

struct Point { double x; double y; };
enum class Color { Red, Green };
using OrderList = std::vector<Order>;

Store::Store(Db* db) : db_(db) {}

std::optional<Order> Store::find(const std::string& id) const {
    auto o = cache_.find(id);
    auto p = new Order(id);
    log::write("find called");
    return std::make_optional<Order>(*p);
}

}  // namespace acme
"""


def test_cpp_symbols() -> None:
    parsed = parse("cpp", "src/store.cpp", SOURCE)
    assert symbols(parsed) == {
        ("namespace", "acme", 4),
        ("class", "acme.Store", 8),
        ("constructor", "acme.Store.Store", 10),
        ("method", "acme.Store.~Store", 11),
        ("method", "acme.Store.find", 13),
        ("method", "acme.Store.run", 14),
        ("field", "acme.Store.kMax", 15),
        ("field", "acme.Store.cache_", 17),
        ("struct", "acme.Point", 20),
        ("field", "acme.Point.x", 20),
        ("field", "acme.Point.y", 20),
        ("enum", "acme.Color", 21),
        ("constant", "acme.Color.Red", 21),
        ("constant", "acme.Color.Green", 21),
        ("type", "acme.OrderList", 22),
        # out-of-line definitions: the class is not their lexical parent
        ("constructor", "acme.Store", 24),
        ("function", "acme.find", 26),
    }
    assert symbol(parsed, "acme.Store", "class").doc == "Stores orders."  # above `template <…>`
    assert symbol(parsed, "acme.Store.find").doc == "Finds one."
    assert symbol(parsed, "acme.Store.run").parent == "acme.Store"


def test_cpp_references() -> None:
    parsed = parse("cpp", "src/store.cpp", SOURCE)
    assert refs(parsed, EdgeKind.EXTENDS) == {("acme.Store", "Base"), ("acme.Store", "Mixin")}
    assert refs(parsed, EdgeKind.CALLS) == {
        ("acme.Store.run", "helper"), ("acme.find", "find"), ("acme.find", "Order"),
        ("acme.find", "write"), ("acme.find", "make_optional"),
    }
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("acme.Store.Store", "Db"), ("acme.Store.find", "Order")} <= types
    assert ("acme.OrderList", "Order") in types
    assert not {name for _, name in types} & {"T", "string", "map", "optional"}
    assert imports(parsed) == {("store.hpp", ()), ("<vector>", ())}


def test_cpp_inline_members_and_syntax_error() -> None:
    source = "class A {\n public:\n  A(int x) : x_(x) {}\n  int get() const { return x_; }\n"
    source += "  int x_;\n};\nvoid broken( {\n"
    parsed = parse("cpp", "a.hpp", source)
    assert parsed.error
    expected = {("constructor", "A.A", 3), ("method", "A.get", 4), ("field", "A.x_", 5)}
    assert expected <= symbols(parsed)
