from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
#include "store.h"
#include <stdio.h>

#define MAX_ITEMS 64
#define SQUARE(x) ((x) * (x))

/* An order record. */
typedef struct order {
    int id;
    struct item *items;
} order_t;

struct node { int v; };
enum color { RED, GREEN = 2 };
typedef int (*cmp_fn)(const void *, const void *);

static int counter = 0;

// Loads an order.
static order_t *load(store_t *s, int id) {
    order_t *o = find_order(s->index, id);
    printf("loaded order %d\\n", o->id);
    return o;
}

int main(void) { return load(NULL, 3) != 0; }
"""

HEADER = """\
#ifndef STORE_H
#define STORE_H
/* Opens a store. */
store_t *store_open(const char *path);
extern int store_count;
#endif
"""


def test_c_symbols() -> None:
    parsed = parse("c", "src/store.c", SOURCE)
    assert symbols(parsed) == {
        ("constant", "MAX_ITEMS", 4),
        ("function", "SQUARE", 5),
        ("struct", "order_t", 8),  # a typedef'd struct is one symbol, named by the typedef
        ("field", "order_t.id", 9),
        ("field", "order_t.items", 10),
        ("struct", "node", 13),
        ("field", "node.v", 13),
        ("enum", "color", 14),
        ("constant", "color.RED", 14),
        ("constant", "color.GREEN", 14),
        ("type", "cmp_fn", 15),
        ("variable", "counter", 17),
        ("function", "load", 20),
        ("function", "main", 26),
    }
    assert symbol(parsed, "order_t").doc == "An order record."
    assert symbol(parsed, "load").doc == "Loads an order."
    assert symbol(parsed, "node.v").parent == "node"


def test_c_header_prototypes_inside_include_guard() -> None:
    parsed = parse("c", "include/store.h", HEADER)
    assert symbols(parsed) == {("function", "store_open", 4), ("variable", "store_count", 5)}
    assert symbol(parsed, "store_open").doc == "Opens a store."


def test_c_references() -> None:
    parsed = parse("c", "src/store.c", SOURCE)
    assert refs(parsed, EdgeKind.CALLS) == {
        ("load", "find_order"), ("load", "printf"), ("main", "load"),
    }
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("load", "order_t"), ("load", "store_t"), ("order_t.items", "item")} <= types
    assert imports(parsed) == {("store.h", ()), ("<stdio.h>", ())}
    deep = {(d.scope, d.kind, d.token) for d in parsed.deep_tokens}
    assert ("load", EdgeKind.SHARES_DATA_SHAPE, "index") in deep
    assert ("MAX_ITEMS", EdgeKind.SHARES_CONSTANT, "64") not in deep  # macro bodies are raw text


def test_c_syntax_error_keeps_good_symbols() -> None:
    source = "int good(void) { return 1; }\nint broken( { \nstruct later { int a; };\n"
    parsed = parse("c", "src/x.c", source)
    assert parsed.error
    assert ("function", "good", 1) in symbols(parsed)


def test_a_keyword_recovered_from_a_syntax_error_names_no_definition() -> None:
    """A `}` inside `#ifdef` closes the function early for a parser that does not run the
    preprocessor: the `else if (…) {` left at the top level is recovered as a function `if`."""
    source = """\
    int scale(int e) {
        if (e > 0) {
            return 1;
        }
    #ifdef EXTRA
        }
    #endif
        else if (e < -3) {
            return 2;
        }
        return 0;
    }

    int after(void) { return 1; }
    """
    parsed = parse("c", "src/scale.c", source)
    assert parsed.error
    assert {(k, n) for k, n, _ in symbols(parsed)} == {("function", "scale"),
                                                      ("function", "after")}


def test_a_keyword_names_a_definition_where_the_language_allows_it() -> None:
    """Outside an error recovery a grammar keyword may be a name: Python's soft keywords."""
    parsed = parse("python", "m.py", "def match(pattern):\n    return pattern\n\n\n"
                   "def type(value):\n    return value\n")
    assert {("function", "match", 1), ("function", "type", 5)} <= symbols(parsed)


def test_c_prototypes_declare_and_bodies_define() -> None:
    header = parse("c", "include/store.h", HEADER)
    assert symbol(header, "store_open").declaration
    assert not symbol(header, "store_count").declaration  # a variable, not a prototype
    source = parse("c", "src/store.c", SOURCE)
    assert not any(s.declaration for s in source.symbols)
