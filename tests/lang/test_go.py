from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
package store

import (
	"context"
	"fmt"
	db "example.com/app/internal/db"
)

// MaxSize is the cap.
const MaxSize = 10

const (
	A = iota
	B
)

var (
	// registry maps names to ids.
	registry = map[string]int{}
)

// Store persists orders.
type Store struct {
	conn *db.Conn
	Name string
	Base
}

// Reader reads.
type Reader interface {
	io.Closer
	Read(ctx context.Context, id string) (*Order, error)
}

type ID = string

// Get loads one order.
func (s *Store) Get(ctx context.Context, id string) (*Order, error) {
	row := s.conn.Query(ctx, "select 1234")
	if row == nil {
		return nil, fmt.Errorf("missing %s", id)
	}
	return &Order{ID: id}, nil
}

func New[T any](c *db.Conn, items []T) *Store {
	return &Store{conn: c}
}
"""


def test_go_symbols() -> None:
    parsed = parse("go", "internal/store/store.go", SOURCE)
    assert symbols(parsed) == {
        ("constant", "MaxSize", 10),
        ("constant", "A", 13),
        ("constant", "B", 14),
        ("variable", "registry", 19),
        ("struct", "Store", 23),
        ("field", "Store.conn", 24),
        ("field", "Store.Name", 25),
        ("interface", "Reader", 30),
        ("method", "Reader.Read", 32),
        ("type", "ID", 35),
        ("method", "Store.Get", 38),  # a receiver method belongs to the receiver's type
        ("function", "New", 46),
    }
    assert symbol(parsed, "Store").doc == "Store persists orders."
    assert symbol(parsed, "MaxSize").doc == "MaxSize is the cap."
    assert symbol(parsed, "registry").doc == "registry maps names to ids."
    assert symbol(parsed, "Store.Get").doc == "Get loads one order."
    assert symbol(parsed, "Store.Get").parent == "Store"
    assert symbol(parsed, "Reader.Read").parent == "Reader"


def test_go_references() -> None:
    parsed = parse("go", "internal/store/store.go", SOURCE)
    assert refs(parsed, EdgeKind.CALLS) == {
        ("Store.Get", "Query"), ("Store.Get", "Errorf"), ("Store.Get", "Order"),
        ("New", "Store"),
    }
    assert refs(parsed, EdgeKind.EXTENDS) == {("Store", "Base"), ("Reader", "Closer")}
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("Store.conn", "Conn"), ("Store.Get", "Context"), ("Store.Get", "Order"),
            ("New", "Store")} <= types
    assert not {name for _, name in types} & {"string", "error", "T", "any", "Closer"}
    assert imports(parsed) == {
        # the package's name is its path's last segment, or the alias the import gives
        ("context", ("context",)), ("fmt", ("fmt",)), ("example.com/app/internal/db", ("db",)),
    }
    deep = {(d.scope, d.kind, d.token) for d in parsed.deep_tokens}
    assert ("Store.Get", EdgeKind.SHARES_CONSTANT, "select 1234") in deep
    assert ("Store.Get", EdgeKind.SHARES_DATA_SHAPE, "conn") in deep
    # `s.conn.Query`: s is a *Store, but Store.conn a *db.Conn, another package's type
    receivers = {(r.name, r.receiver_type) for r in parsed.references if r.kind is EdgeKind.CALLS}
    assert ("Query", "") in receivers and ("Errorf", "") in receivers


def test_go_syntax_error_keeps_good_symbols() -> None:
    source = "package p\n\nfunc Good() {}\n\nfunc (x {\n\ntype Later struct{ a int }\n"
    parsed = parse("go", "p/p.go", source)
    assert parsed.error
    assert {("function", "Good", 3)} <= symbols(parsed)
    assert any(s.name == "Later" for s in parsed.symbols)
