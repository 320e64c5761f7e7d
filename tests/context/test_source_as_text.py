"""A programming language graphiq-ci holds at file level (Scala, Lua, OCaml, …) is ranked as
the source code it is: only markup and configuration are `not_code`. Ranked as text,
Phoenix's Elixir files (before Elixir was parsed) fell behind its few JavaScript files on
every task about them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.lang.registry import detect_language, plugin_for

_PARSER = '''package scopt

abstract class OptionParser[C](programName: String) {
  protected val options = new ListBuffer[OptionDef[_, C]]

  /** Adds an option invoked by `--name` that also takes a short `-x` alias. */
  def opt[A: Read](name: String): OptionDef[A, C] = add(new OptionDef[A, C](name))

  def parse(args: Seq[String], init: C): Option[C] =
    options.foldLeft(Option(init)) { (config, option) => config.flatMap(option.applyTo) }

  private def add[A](option: OptionDef[A, C]): OptionDef[A, C] = {
    options += option
    option
  }
}
'''
_CLI = '''export class Command {
  constructor(name, opts = {}) {
    this.name = name
    this.options = opts.options || []
  }

  parse(argv) {
    return this.options.map(option => option(argv))
  }
}
'''
_README = '''# scopt

A command line options parser: each `opt` takes a name and a short alias, and `parse` reads
the arguments into your config.
'''


def test_source_held_as_text_is_code_and_markup_is_not() -> None:
    for path in ("lib/router.ex", "Sources/Session.swift", "core/Parser.scala", "src/a.zig",
                 "lib/json.lua", "src/lexer.ml"):
        assert plugin_for(detect_language(path) or "text").is_code, path
    for path in ("README.md", "config/app.yml", "Cargo.toml", "notes.unknown"):
        assert not plugin_for(detect_language(path) or "text").is_code, path


def test_a_scala_file_outranks_javascript_and_the_readme_on_its_own_words(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"core/src/main/scala/scopt/OptionParser.scala": _PARSER,
                      "src/command.js": _CLI, "README.md": _README})
    ctx = graphiq_ci.build_context(root, "Allow a short alias for an option", Options())
    assert [f.path for f in ctx.files][:1] == ["core/src/main/scala/scopt/OptionParser.scala"], \
        ctx.files
    assert "not source code" not in ctx.files[0].why
