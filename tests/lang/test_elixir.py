from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.lang import imports as candidates
from graphiq_ci.model import SCOPE_SEP, EdgeKind

SOURCE = """\
defmodule Shop.Orders do
  @moduledoc "Order lifecycle."

  use GenServer
  alias Shop.{Repo, Order}
  alias Shop.Billing.Invoice, as: Inv
  import Ecto.Query, only: [from: 2]
  require Logger
  @behaviour Shop.Store

  @max_items 64

  @type t :: %__MODULE__{id: integer()}

  @callback on_place(Order.t()) :: :ok

  @doc "Finds one order."
  @spec find(integer()) :: Order.t() | nil
  def find(id) when is_integer(id) do
    # look it up: Repo.get_by/2 raises
    Repo.get(Order, id) |> normalize()
  end

  def place(%Order{} = order) do
    case validate(order) do
      {:ok, order} ->
        Logger.info("placed order #{order.id}")
        Inv.issue(order, @max_items)

      {:error, _reason} ->
        raise ArgumentError, "invalid order"
    end
  end

  defp normalize(nil), do: nil
  defp normalize(order), do: %{order | lines: Enum.map(order.lines, &price/1)}

  defp validate(order), do: {:ok, order}

  defmacro __using__(_opts) do
    quote do
      import Shop.Orders
    end
  end

  defmodule NotFoundError do
    defexception [:id]
  end
end

defprotocol Shop.Priced do
  def price(item)
end

defimpl Shop.Priced, for: Shop.Line do
  def price(line), do: line.cents / 100
end
"""


def test_elixir_symbols() -> None:
    parsed = parse("elixir", "lib/shop/orders.ex", SOURCE)
    assert symbols(parsed) == {
        ("module", "Shop.Orders", 1),
        ("constant", "Shop.Orders.max_items", 11),
        ("type", "Shop.Orders.t", 13),
        ("function", "Shop.Orders.on_place", 15),
        ("function", "Shop.Orders.find", 19),
        ("function", "Shop.Orders.place", 24),
        # each clause of a multi-clause function is a definition, with its own references
        ("function", "Shop.Orders.normalize", 35),
        ("function", "Shop.Orders.normalize", 36),
        ("function", "Shop.Orders.validate", 38),
        ("function", "Shop.Orders.__using__", 40),
        ("module", "Shop.Orders.NotFoundError", 46),
        ("interface", "Shop.Priced", 51),
        ("method", "Shop.Priced.price", 52),
        ("class", "Shop.Line", 55),
        ("method", "Shop.Line.price", 56),
    }
    assert symbol(parsed, "Shop.Orders").doc == "Order lifecycle."
    assert symbol(parsed, "Shop.Orders.find").doc == "Finds one order."  # `@spec` between
    find = symbol(parsed, "Shop.Orders.find")
    assert (find.end_line, find.parent) == (22, "Shop.Orders")
    assert find.signature == "def find(id) when is_integer(id) do"
    assert symbol(parsed, "Shop.Orders.NotFoundError").parent == "Shop.Orders"
    assert symbol(parsed, "Shop.Line.price").parent == "Shop.Line"
    assert symbol(parsed, "Shop.Orders.validate").visibility == "private"  # defp
    assert symbol(parsed, "Shop.Orders.find").visibility == ""


def test_elixir_references() -> None:
    parsed = parse("elixir", "lib/shop/orders.ex", SOURCE)
    find, place = "Shop.Orders.find", "Shop.Orders.place"
    normalize = f"Shop.Orders.normalize{SCOPE_SEP}2"  # its second clause holds the calls
    assert refs(parsed, EdgeKind.CALLS) == {
        (find, "is_integer"), (find, "get"), (find, "normalize"),
        (place, "validate"), (place, "info"), (place, "issue"),
        (normalize, "map"), (normalize, "price"),
    }  # not the heads, keywords, attributes, typespecs (`integer()`, `Order.t()`), `quote`
    calls = {r.name: r for r in parsed.references if r.kind is EdgeKind.CALLS}
    assert calls["get"].alias == ("Repo",)  # through `alias Shop.{Repo, Order}`
    assert calls["issue"].alias == ("Inv",)  # through `alias …, as: Inv`
    assert (calls["info"].receiver_type, calls["map"].receiver_type) == ("Logger", "Enum")
    assert calls["normalize"].bare and not calls["get"].bare
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("Shop.Orders", "GenServer"), ("Shop.Orders", "Shop.Store"), ("Shop.Line", "Shop.Priced"),
    }
    assert refs(parsed, EdgeKind.REFERENCES) == {
        ("Shop.Orders.on_place", "Order"), ("Shop.Orders", "Order"),  # `Order.t()` in specs
        (place, "Order"), (place, "ArgumentError"),  # `%Order{}`, `raise ArgumentError`
    }
    assert imports(parsed) == {
        ("GenServer", ()), ("Repo", ("Repo",)), ("Order", ("Order",)),
        ("Shop.Billing.Invoice", ("Inv",)), ("Ecto.Query", ()), ("Logger", ()),
        ("Shop.Orders", ()),  # `import` inside the `quote` of `__using__`
    }


def test_elixir_deep_tokens() -> None:
    parsed = parse("elixir", "lib/shop/orders.ex", SOURCE)
    tokens = {(t.scope, t.kind, t.token) for t in parsed.deep_tokens}
    assert {
        ("Shop.Orders.place", EdgeKind.SHARES_DATA_SHAPE, "id"),  # `order.id`
        (f"Shop.Orders.normalize{SCOPE_SEP}2", EdgeKind.SHARES_DATA_SHAPE, "lines"),
        ("Shop.Line.price", EdgeKind.SHARES_DATA_SHAPE, "cents"),
        ("Shop.Orders.place", EdgeKind.SHARES_CONSTANT, ":error"),
        ("Shop.Orders.place", EdgeKind.SHARES_CONSTANT, "invalid order"),
        ("Shop.Orders.max_items", EdgeKind.SHARES_CONSTANT, "64"),
        ("Shop.Orders.find", EdgeKind.COMMENT_REF, "get_by"),
    } <= tokens
    assert not any(t.token == "info" for t in parsed.deep_tokens)  # a remote call, no field


def test_elixir_import_candidates() -> None:
    assert candidates.elixir("Phoenix.Socket.LongPoll", "lib/phoenix/endpoint.ex") == [
        "lib/phoenix/socket/long_poll.ex", "*/lib/phoenix/socket/long_poll.ex",  # umbrella
        "*/phoenix/socket/long_poll.ex",
        "lib/phoenix/socket.ex", "*/lib/phoenix/socket.ex",  # nested in its parent's file
        "*/test/support/long_poll.ex", "*/test/support/long_poll.exs",
    ]
    assert candidates.elixir("MyAppWeb.HTTPClient", "lib/x.ex")[0] == \
        "lib/my_app_web/http_client.ex"
    assert candidates.elixir("Mix.Tasks.Phx.Gen.Secret", "test/x_test.exs")[0] == \
        "lib/mix/tasks/phx.gen.secret.ex"
    # a member of `alias Phoenix.Router.{Route}` in router.ex, or Elixir's own `Logger`
    assert candidates.elixir("Route", "lib/phoenix/router.ex") == [
        "lib/phoenix/router/route.ex", "lib/route.ex", "*/lib/route.ex",
        "*/test/support/route.ex", "*/test/support/route.exs",
    ]
    assert candidates.elixir("__MODULE__.Scope", "lib/phoenix/router.ex") == [
        "lib/phoenix/router/scope.ex",
    ]
    assert candidates.elixir(":ets", "lib/x.ex") == []


def test_elixir_syntax_error_keeps_good_symbols() -> None:
    source = "defmodule Ok do\n  def fine(x), do: x\n\n  def broken(\nend\n"
    parsed = parse("elixir", "lib/ok.ex", source)
    assert parsed.error
    assert ("module", "Ok", 1) in symbols(parsed)
    assert "fine" in {s.name for s in parsed.symbols}
