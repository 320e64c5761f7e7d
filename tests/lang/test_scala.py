from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.lang.imports import scala as scala_imports
from graphiq_ci.model import EdgeKind

SOURCE = """\
package com.acme.orders

import scala.collection.mutable
import com.acme.db.{Connection, Pool => DbPool}
import com.acme.util._
import com.acme.json.Codec as JsonCodec; import scala.collection.{Seq => CSeq}

/** Persists orders. */
abstract class OrderStore(val db: Connection, name: String)
    extends BaseStore[Order](db) with Store with AutoCloseable {
  private val cache: mutable.Map[String, Order] = mutable.HashMap.empty
  var hits = 0

  def this() = this(Connection.default(), "orders")

  // Finds one.
  override def find(id: String): Option[Order] = {
    val row = db.query("select order", id)
    log(row.id)
    Some(Order(row.id, 42)).map(o => new OrderView(o))
  }

  def save[T <: Entity](order: T): Future[Either[StoreError, T]]
}

trait Store extends Base {
  def find(id: String): Option[Order]
}

case class Point(x: Double, y: Double) extends Shape

object Point {
  val Origin = Point(0, 0)
  def parse(s: String): Point = s.split(",") match {
    case Array(a, b) => Point(a.toDouble, b.toDouble)
  }
}

enum Direction(val dx: Int) extends Axis, Serializable:
  case North extends Direction(1)
  case South, West

type Handler = Order => Unit
val MaxItems = 64
var registry: Map[String, Order] = Map.empty

object Main:
  def main(args: Array[String]): Unit =
    val store = new OrderStore(DbPool.get)
    println(store find "x")
    store.close()
"""


def test_scala_symbols() -> None:
    parsed = parse("scala", "src/main/scala/com/acme/orders/OrderStore.scala", SOURCE)
    assert symbols(parsed) == {
        ("class", "OrderStore", 9),
        ("field", "OrderStore.db", 9),  # a `val` constructor parameter
        ("field", "OrderStore.cache", 11),
        ("field", "OrderStore.hits", 12),
        ("constructor", "OrderStore.this", 14),
        ("method", "OrderStore.find", 17),
        ("method", "OrderStore.save", 23),  # abstract
        ("trait", "Store", 26),
        ("method", "Store.find", 27),
        ("class", "Point", 30),
        ("field", "Point.x", 30),  # a case class's parameters are its fields
        ("field", "Point.y", 30),
        ("class", "Point", 32),  # the companion object
        ("field", "Point.Origin", 33),
        ("method", "Point.parse", 34),
        ("enum", "Direction", 39),
        ("field", "Direction.dx", 39),
        ("constant", "Direction.North", 40),
        ("constant", "Direction.South", 41),  # one node per name: not `South.West`
        ("constant", "Direction.West", 41),
        ("type", "Handler", 43),
        ("constant", "MaxItems", 44),  # a top-level `val`
        ("variable", "registry", 45),
        ("class", "Main", 47),  # a Scala 3 indented body
        ("method", "Main.main", 48),
    }
    store = symbol(parsed, "OrderStore")
    assert store.doc == "Persists orders."
    assert (store.line, store.end_line) == (9, 24)
    find = symbol(parsed, "OrderStore.find")
    assert find.doc == "Finds one."
    assert (find.parent, find.line, find.end_line) == ("OrderStore", 17, 21)
    assert symbol(parsed, "OrderStore.cache").visibility == "private"
    assert symbol(parsed, "Point.parse", "method").parent == "Point"
    assert parsed.error == ""


def test_scala_references() -> None:
    parsed = parse("scala", "src/main/scala/com/acme/orders/OrderStore.scala", SOURCE)
    find = "OrderStore.find"
    assert refs(parsed, EdgeKind.EXTENDS) == {
        ("OrderStore", "BaseStore"), ("Store", "Base"), ("Point", "Shape"),
        ("Direction", "Axis"), ("Direction.North", "Direction"),
    }
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("OrderStore", "Store"), ("OrderStore", "AutoCloseable"),
        ("Direction", "Serializable"),
    }
    assert refs(parsed, EdgeKind.CALLS) == {
        ("OrderStore.this", "default"),  # not `this(…)`
        (find, "query"), (find, "log"), (find, "Some"), (find, "Order"), (find, "map"),
        (find, "OrderView"),  # `new OrderView(o)`
        ("Point.Origin", "Point"), ("Point.parse", "split"), ("Point.parse", "Point"),
        ("Main.main", "OrderStore"), ("Main.main", "println"), ("Main.main", "close"),
        ("Main.main", "find"),  # infix: `store find "x"`
    }
    assert refs(parsed, EdgeKind.REFERENCES) == {
        ("OrderStore.db", "Connection"), ("OrderStore", "Order"), ("OrderStore.cache", "Order"),
        (find, "Order"), ("OrderStore.save", "Entity"), ("OrderStore.save", "StoreError"),
        ("Store.find", "Order"), ("Point.parse", "Point"), ("Handler", "Order"),
        ("registry", "Order"),
    }
    calls = {(r.scope, r.name): r for r in parsed.references if r.kind is EdgeKind.CALLS}
    assert calls[(find, "query")].receiver_type == "Connection"  # `db: Connection`
    assert calls[("Main.main", "close")].receiver_type == "OrderStore"  # `new OrderStore(…)`
    assert calls[("Point.parse", "split")].receiver_type == "String"
    assert calls[(find, "log")].bare and not calls[(find, "query")].bare
    assert imports(parsed) == {
        ("import scala.collection.mutable", ("mutable",)),
        ("Connection", ("Connection",)),  # a selector is named alone
        ("Pool", ("DbPool",)),
        ("import com.acme.util._", ()),
        ("import com.acme.json.Codec as JsonCodec", ("JsonCodec",)),
        ("import scala.collection.{Seq => CSeq}", ("CSeq",)),  # one selector: its path is known
    }
    deep = {(d.scope, d.kind, d.token) for d in parsed.deep_tokens}
    assert {(find, EdgeKind.SHARES_CONSTANT, "select order"),
            (find, EdgeKind.SHARES_DATA_SHAPE, "id"),
            ("OrderStore.save", EdgeKind.SHARES_ERROR_TYPE, "StoreError")} <= deep


def test_scala_import_candidates() -> None:
    here = "shared/src/main/scala/scopt/ORunner.scala"
    assert scala_imports("import scopt.OParser", here) == [
        "*/scopt/OParser.scala", "*/OParser.scala"]
    assert scala_imports("import com.acme.Models.User as U", here) == [
        "*/com/acme/Models/User.scala", "*/com/acme/Models.scala", "*/User.scala"]
    assert scala_imports("import scopt.OEffect._", here) == [
        "*/scopt/OEffect.scala", "*/scopt/OEffect/package.scala", "*/OEffect.scala",
        "*/scopt/OEffect/"]
    assert scala_imports("import OEffect.*", here) == [
        "shared/src/main/scala/scopt/OEffect.scala", "*/OEffect.scala",
        "*/OEffect/package.scala"]
    assert scala_imports("import com.acme.{given, *}", here) == [
        "*/com/acme.scala", "*/com/acme/package.scala", "*/com/acme/"]
    assert scala_imports("import scala.collection.{ Seq => CSeq }", here) == [
        "*/scala/collection/Seq.scala"]  # not scopt's own Seq.scala
    assert scala_imports("import a.B.{C => _, *}", here) == [  # C is hidden: B's members
        "*/a/B.scala", "*/a/B/package.scala", "*/B.scala", "*/a/B/"]
    assert scala_imports("Connection", here) == [
        "shared/src/main/scala/scopt/Connection.scala", "*/Connection.scala"]
    # the platform's own are found by their path only
    assert scala_imports("import scala.collection.mutable", here) == [
        "*/scala/collection/mutable.scala"]
    assert scala_imports("import java.io.\n  File", here) == ["*/java/io/File.scala"]
    assert scala_imports("import a.-.b", here) == []


def test_scala_syntax_error_keeps_good_symbols() -> None:
    source = "def ok(): Int = 1\n\ndef broken( = {\n\nclass Later\n"
    parsed = parse("scala", "x.scala", source)
    assert parsed.error
    assert ("function", "ok", 1) in symbols(parsed)
