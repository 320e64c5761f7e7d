from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.lang.imports import dart
from graphiq_ci.model import EdgeKind

SOURCE = """\
import 'dart:async' show Future, Stream;
import 'package:http/src/client.dart';
import 'src/utils.dart' as u;
export 'src/model.dart';
part 'order_store.g.dart';

const int maxItems = 64;
final registry = <String, Order>{};

/// Persists orders.
@immutable
class OrderStore extends BaseStore<Order> with Logging implements Store, Closeable {
  final Client client;
  int _count = 0, total;

  OrderStore(this.client);

  OrderStore.named(Client c) : client = c;

  factory OrderStore.create() => OrderStore(Client());

  // Finds one.
  Future<Order?> find(String id) async {
    final row = await client.db.query("select order", id);
    u.log(row.id);
    return Order.fromRow(row)..save();
  }

  int get count => _count;

  static OrderStore of(Context ctx) => new OrderStore(ctx.client);
}

abstract class Store {
  Order? find(String id);
}

mixin Logging on Base {
  void log(Object o) => print(o);
}

extension OrderLabel on Order {
  String get label => 'order $id';
}

enum Color { red, green }

typedef Handler = void Function(Order order);

Order parse(String s) {
  return const Order.empty();
}
"""


def test_dart_symbols() -> None:
    parsed = parse("dart", "lib/src/order_store.dart", SOURCE)
    assert symbols(parsed) == {
        ("constant", "maxItems", 7),
        ("variable", "registry", 8),
        ("class", "OrderStore", 11),  # from its annotation: the doc comment is above both
        ("field", "OrderStore.client", 13),
        ("field", "OrderStore._count", 14),
        ("field", "OrderStore.total", 14),
        ("constructor", "OrderStore.OrderStore", 16),
        ("constructor", "OrderStore.named", 18),
        ("constructor", "OrderStore.create", 20),
        ("method", "OrderStore.find", 23),
        ("method", "OrderStore.count", 29),
        ("method", "OrderStore.of", 31),
        ("class", "Store", 34),
        ("method", "Store.find", 35),
        ("trait", "Logging", 38),
        ("method", "Logging.log", 39),
        ("class", "OrderLabel", 42),
        ("method", "OrderLabel.label", 43),
        ("enum", "Color", 46),
        ("constant", "Color.red", 46),
        ("constant", "Color.green", 46),
        ("type", "Handler", 48),
        ("function", "parse", 50),
    }
    store = symbol(parsed, "OrderStore")
    assert (store.doc, store.end_line) == ("Persists orders.", 32)
    find = symbol(parsed, "OrderStore.find")
    assert (find.doc, find.parent) == ("Finds one.", "OrderStore")
    assert find.signature == "Future<Order?> find(String id)"
    assert symbol(parsed, "OrderStore.client").signature == "final Client client"
    assert symbol(parsed, "OrderStore._count").visibility == "private"
    # A callable runs from its signature to the end of the body beside it (@body).
    assert (find.line, find.end_line) == (23, 27)
    assert symbol(parsed, "parse").end_line == 52
    assert parsed.error == ""


def test_dart_references() -> None:
    parsed = parse("dart", "lib/src/order_store.dart", SOURCE)
    assert refs(parsed, EdgeKind.EXTENDS) == {("OrderStore", "BaseStore"), ("Logging", "Base")}
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("OrderStore", "Logging"), ("OrderStore", "Store"), ("OrderStore", "Closeable"),
    }
    find = "OrderStore.find"
    assert refs(parsed, EdgeKind.CALLS) == {
        ("OrderStore.create", "OrderStore"), ("OrderStore.create", "Client"),
        (find, "query"), (find, "log"), (find, "fromRow"), (find, "save"),
        ("OrderStore.of", "OrderStore"),  # `new OrderStore(…)`
        ("Logging.log", "print"),
        ("parse", "empty"),  # `const Order.empty()`: the named constructor, on Order
    }
    calls = {r.name: r for r in parsed.references if r.kind is EdgeKind.CALLS}
    assert calls["log"].alias == ("u",)  # through the import prefix
    assert calls["fromRow"].receiver_type == "Order"  # a named constructor or static method
    assert calls["empty"].receiver_type == "Order"
    assert calls["print"].bare and not calls["query"].bare
    assert refs(parsed, EdgeKind.REFERENCES) == {
        ("registry", "Order"), ("OrderStore", "Order"), ("OrderStore.client", "Client"),
        ("OrderStore.named", "Client"), ("OrderStore.find", "Order"),
        ("OrderStore.of", "OrderStore"), ("OrderStore.of", "Context"),
        ("Store.find", "Order"), ("OrderLabel", "Order"), ("Handler", "Order"),
        ("parse", "Order"),
    }
    assert imports(parsed) == {
        ("dart:async", ("Future", "Stream")),
        ("package:http/src/client.dart", ()),
        ("src/utils.dart", ("u",)),
        ("src/model.dart", ()),
        ("order_store.g.dart", ()),
    }


def test_dart_deep_tokens() -> None:
    parsed = parse("dart", "lib/src/order_store.dart", SOURCE)
    tokens = {(d.scope, d.kind, d.token) for d in parsed.deep_tokens}
    assert {
        ("maxItems", EdgeKind.SHARES_CONSTANT, "64"),
        ("OrderStore.find", EdgeKind.SHARES_CONSTANT, "select order"),
        ("OrderStore.find", EdgeKind.SHARES_DATA_SHAPE, "db"),
        ("OrderStore.client", EdgeKind.SHARES_TYPE, "Client"),
    } <= tokens


def test_dart_new_and_const_construct() -> None:
    source = ("void main() {\n  run(new Box(1), const Key('k'), new p.Widget(),"
              " new Box.sized(2));\n}\n")
    parsed = parse("dart", "bin/main.dart", source)
    calls = {(r.name, r.receiver_type) for r in parsed.references if r.kind is EdgeKind.CALLS}
    assert calls == {("run", ""), ("Box", ""), ("Key", ""), ("Widget", ""), ("sized", "Box")}


def test_dart_syntax_error_keeps_good_symbols() -> None:
    source = "int ok() => 1;\n\nvoid broken( {\n\nclass Later {}\n"
    parsed = parse("dart", "lib/x.dart", source)
    assert parsed.error
    assert ("function", "ok", 1) in symbols(parsed)


def test_dart_import_forms() -> None:
    source = """\
import 'charts.dart' deferred as charts;
import 'io.dart' if (dart.library.html) 'web.dart';
import 'model.dart' as m show Order;
import 'hidden.dart' hide Secret;
export 'src/order.dart' show Order, OrderLine;
part of 'store.dart';
"""
    assert imports(parse("dart", "lib/parts.dart", source)) == {
        ("charts.dart", ("charts",)),
        ("io.dart", ()),  # the default of a conditional import
        ("model.dart", ("m",)),
        ("hidden.dart", ()),
        ("src/order.dart", ("Order", "OrderLine")),
        ("store.dart", ()),
    }


def test_dart_import_candidates() -> None:
    assert dart("src/utils.dart", "lib/order.dart") == ["lib/src/utils.dart"]
    assert dart("../model.dart", "lib/src/order.dart") == ["lib/model.dart"]
    assert dart("dart:async", "lib/order.dart") == []
    # a package by name: a folder named after it (a monorepo), the importing file's own
    # package, the repository's root package
    assert dart("package:http/src/client.dart", "pkgs/http_io/test/io_test.dart") == [
        "*/http/lib/src/client.dart", "pkgs/http_io/lib/src/client.dart",
        "lib/src/client.dart",
    ]
    assert dart("package:http/http.dart", "test/client_test.dart") == [
        "*/http/lib/http.dart", "lib/http.dart",
    ]
