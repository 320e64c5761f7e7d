from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
require 'json'
require_relative "lib/store"

# Orders live here.
module Shop
  MAX_ITEMS = 64

  # Persists orders.
  class OrderStore < BaseStore
    include Enumerable

    def initialize(db)
      @db = db
    end

    # Finds one.
    def find(id)
      row = @db.query("select order", id)
      Order.new(row).tap { |o| log(o.id) }
    rescue NotFoundError
      nil
    end

    def self.build
      new(Db.connect)
    end

    private

    def log(msg) = puts(msg)
  end
end

def helper; end
"""


def test_ruby_symbols() -> None:
    parsed = parse("ruby", "app/shop.rb", SOURCE)
    assert symbols(parsed) == {
        ("module", "Shop", 5),
        ("constant", "Shop.MAX_ITEMS", 6),
        ("class", "Shop.OrderStore", 9),
        ("method", "Shop.OrderStore.initialize", 12),
        ("method", "Shop.OrderStore.find", 17),
        ("method", "Shop.OrderStore.build", 24),
        ("method", "Shop.OrderStore.log", 30),
        ("function", "helper", 34),
    }
    assert symbol(parsed, "Shop.OrderStore").doc == "Persists orders."
    assert symbol(parsed, "Shop.OrderStore.find").doc == "Finds one."
    assert symbol(parsed, "Shop.OrderStore").parent == "Shop"


def test_ruby_references() -> None:
    parsed = parse("ruby", "app/shop.rb", SOURCE)
    find, build = "Shop.OrderStore.find", "Shop.OrderStore.build"
    assert refs(parsed, EdgeKind.EXTENDS) == {("Shop.OrderStore", "BaseStore")}
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {("Shop.OrderStore", "Enumerable")}
    calls = refs(parsed, EdgeKind.CALLS)
    assert {(find, "query"), (find, "Order"), (find, "new"), (find, "log")} <= calls
    assert {(build, "connect"), ("Shop.OrderStore.log", "puts")} <= calls
    assert not {name for _, name in calls} & {"require", "require_relative", "include"}
    assert {(find, "NotFoundError"), (build, "Db")} <= refs(parsed, EdgeKind.REFERENCES)
    assert imports(parsed) == {("json", ()), ("lib/store", ())}


def test_ruby_syntax_error_keeps_good_symbols() -> None:
    source = "def ok\n  1\nend\n\ndef broken(\n\nclass Later\nend\n"
    parsed = parse("ruby", "lib/x.rb", source)
    assert parsed.error
    assert ("function", "ok", 1) in symbols(parsed)
