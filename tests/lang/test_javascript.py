from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
// Order utilities.
import fs from 'fs';
import { readFile as rf, join } from "./paths.js";
import * as api from '../api';
const { parse: p, dump } = require('./codec');

/** Maximum retries. */
export const MAX_RETRIES = 5;
let counter = 0;

/**
 * Sums order totals.
 */
export function total(orders) {
  return orders.map((o) => o.price).reduce(add, 0);
}

const add = (x, y) => x + y;
const fetchAll = function () { return api.client.fetch("orders/all"); };

// Base service.
class Service extends Base {
  static count = 0;
  constructor(db) {
    super();
    this.db = db;
  }
  // Loads one order.
  async load(id) {
    return this.db.find(new Request(id));
  }
  #secret() {}
}

export default function () {
  return <Panel title="x" />;
}
export const handlers = {
  onClick() { return total([]); },
  onHover: () => import('./hover.js'),
};
module.exports.legacy = function () {};
"""


def test_javascript_symbols() -> None:
    parsed = parse("javascript", "src/orders.js", SOURCE)
    assert symbols(parsed) == {
        ("constant", "MAX_RETRIES", 8),
        ("variable", "counter", 9),
        ("function", "total", 14),
        ("function", "add", 18),
        ("function", "fetchAll", 19),
        ("class", "Service", 22),
        ("field", "Service.count", 23),
        ("method", "Service.constructor", 24),
        ("method", "Service.load", 29),
        ("method", "Service.#secret", 32),
        ("function", "default", 35),
        ("variable", "handlers", 38),
        ("function", "handlers.onClick", 39),
        ("function", "handlers.onHover", 40),
        ("function", "legacy", 42),
    }
    assert symbol(parsed, "Service.load").parent == "Service"
    assert symbol(parsed, "Service.load").doc == "Loads one order."
    assert symbol(parsed, "total").doc == "Sums order totals."
    assert symbol(parsed, "MAX_RETRIES").doc == "Maximum retries."
    assert parsed.error == ""


def test_javascript_references() -> None:
    parsed = parse("javascript", "src/orders.js", SOURCE)
    calls = refs(parsed, EdgeKind.CALLS)
    assert {("total", "map"), ("total", "reduce"), ("fetchAll", "fetch")} <= calls
    assert {("Service.load", "find"), ("Service.load", "Request")} <= calls
    assert ("default", "Panel") in calls  # a JSX component is rendered (called)
    assert ("handlers.onClick", "total") in calls
    assert not any(name == "require" for _, name in calls)
    assert refs(parsed, EdgeKind.EXTENDS) == {("Service", "Base")}
    assert imports(parsed) == {
        ("fs", ("fs",)),
        ("./paths.js", ("rf",)),
        ("./paths.js", ("join",)),
        ("../api", ("api",)),
        ("./codec", ("p",)),
        ("./codec", ("dump",)),
        ("./hover.js", ()),
    }
    deep = {(d.scope, d.kind, d.token) for d in parsed.deep_tokens}
    assert ("total", EdgeKind.SHARES_DATA_SHAPE, "price") in deep
    assert ("fetchAll", EdgeKind.SHARES_CONSTANT, "orders/all") in deep


def test_javascript_syntax_error_keeps_good_symbols() -> None:
    broken = "function ok() { return 1; }\nif (a { }\nclass Fine { run() {} }\n"
    parsed = parse("jsx", "src/broken.jsx", broken)
    assert parsed.error
    assert {"ok", "Fine", "Fine.run"} <= {s.qualified for s in parsed.symbols}
