"""A call through a module's name (`Shop.Repo.get(id)` in Elixir) reaches the module's
function: a module is a namespace a qualified call names, as a class is. Before, a receiver
that named no class or struct counted as external and the call stayed unresolved."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index

from .test_name_facts import call_edges

ELIXIR = {
    "lib/shop/repo.ex": """defmodule Shop.Repo do
  def get(id), do: {:ok, id}
  def all(), do: []
end
""",
    "lib/shop/cache.ex": """defmodule Shop.Cache do
  def get(key), do: {:miss, key}
end
""",
    "lib/shop/orders.ex": """defmodule Shop.Orders do
  def find(id) do
    Shop.Repo.get(id)
  end

  def cached(key), do: Shop.Cache.get(key)

  def external(x), do: Jason.encode(x)
end
""",
}


def test_a_call_through_a_module_name_reaches_its_function(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(ELIXIR)
    run_index(repo)
    found = {(caller, callee, path) for caller, callee, path in call_edges(repo)
             if str(caller).startswith("Shop.Orders")}
    assert found == {
        ("Shop.Orders.find", "Shop.Repo.get", "lib/shop/repo.ex"),
        ("Shop.Orders.cached", "Shop.Cache.get", "lib/shop/cache.ex"),
    }  # `Jason` is not this repository's: no edge


def test_a_bare_call_inside_an_impl_reaches_its_own_helper(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`defimpl … for: Shop.Line` is a class, its functions methods: a bare call of one of
    them from another is a call within the class (Elixir's `implicit_self`)."""
    repo = make_repo({"lib/shop/line.ex": """defprotocol Shop.Priced do
  def price(item)
end

defimpl Shop.Priced, for: Shop.Line do
  def price(line), do: total(line) * 2

  defp total(line), do: line.qty
end
"""})
    run_index(repo)
    assert ("Shop.Line.price", "Shop.Line.total", "lib/shop/line.ex") in call_edges(repo)


JAVA_THROUGH_TYPE = {
    "src/shop/Parser.java": "package shop;\npublic class Parser {\n"
                            "    public static int parse(String s) { return 1; }\n}\n",
    "src/shop/Jsonish.java": "package shop;\npublic class Jsonish {\n"
                             "    public static int parse(String s) { return 2; }\n}\n",
    "src/app/Client.java": "package app;\nimport shop.Jsonish;\nimport shop.Parser;\n\n"
                           "class Client {\n    int run() { return Parser.parse(\"x\"); }\n"
                           "    int other() { return Jsonish.parse(\"y\"); }\n}\n",
}


def test_a_file_resolved_again_still_follows_a_call_through_an_imported_type(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`Parser.parse(…)`, where both imported files define a `parse` of one argument,
    resolves through the imported type's name. A new import makes an incremental run resolve
    the whole file again, having loaded only the names its references look up: the type's
    name must be one of them (jsoup's ElementTest lost seven `QueryParser.parse` calls on
    such an edit, f10c02e12a)."""
    repo = make_repo(JAVA_THROUGH_TYPE)
    run_index(repo)
    wanted = ("Client.run", "Parser.parse", "src/shop/Parser.java")
    assert wanted in call_edges(repo)
    client = repo / "src/app/Client.java"
    client.write_text(client.read_text().replace("import shop.Parser;",
                                                 "import shop.Parser;\nimport java.util.List;"))
    run_index(repo)
    incremental = call_edges(repo)
    assert wanted in incremental
    run_index(repo, full=True)
    assert incremental == call_edges(repo)
