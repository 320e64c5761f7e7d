"""A programming language graphiq-ci holds at file level (Elixir, Swift, Scala, …) is ranked
as the source code it is: only markup and configuration are `not_code`. Ranked as text,
Phoenix's Elixir files fell behind its few JavaScript files on every task about them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.lang.registry import detect_language, plugin_for

_ROUTER = '''defmodule Phoenix.Router do
  @doc "Defines a list of plugs (and their options) to call before dispatch."
  defmacro pipe_through(pipes) do
    quote do
      pipes = Phoenix.Router.expand_plugs(unquote(pipes))
      @phoenix_pipeline pipes
    end
  end

  def expand_plugs(pipes) when is_list(pipes), do: Enum.map(pipes, &plug_with_options/1)
  def expand_plugs(pipe), do: [plug_with_options(pipe)]

  defp plug_with_options({plug, opts}), do: {plug, opts}
  defp plug_with_options(plug), do: {plug, []}
end
'''
_SOCKET = '''export class Socket {
  constructor(endpoint, opts = {}) {
    this.endpoint = endpoint
    this.pipeline = opts.pipeline || []
  }

  connect() {
    return this.pipeline.map(step => step(this.endpoint))
  }
}
'''
_README = '''# Phoenix

Routers group routes in pipelines: `pipe_through :browser` runs each plug of the pipeline,
with its options, before the route's controller.
'''


def test_source_held_as_text_is_code_and_markup_is_not() -> None:
    for path in ("lib/router.ex", "Sources/Session.swift", "core/Parser.scala", "src/a.zig"):
        assert plugin_for(detect_language(path) or "text").is_code, path
    for path in ("README.md", "config/app.yml", "Cargo.toml", "notes.unknown"):
        assert not plugin_for(detect_language(path) or "text").is_code, path


def test_an_elixir_file_outranks_javascript_and_the_readme_on_its_own_words(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"lib/phoenix/router.ex": _ROUTER, "assets/js/socket.js": _SOCKET,
                      "README.md": _README})
    ctx = graphiq_ci.build_context(root, "Support module plugs with options in pipe_through",
                                   Options())
    assert [f.path for f in ctx.files][:1] == ["lib/phoenix/router.ex"], ctx.files
    assert "not source code" not in ctx.files[0].why
