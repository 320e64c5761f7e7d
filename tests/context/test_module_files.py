"""A folder's module file (`mod.rs`, `__init__.py`, `index.ts`) is evidence when the task
uses the folder's name: adding to a module registers the new piece there
(context/files.py: `module_file`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.lang import MODULE_FILES


def _messages(lang: str) -> str:
    return (f"export default function {lang}() {{\n  return {{ invalid: (issue) => "
            f"'invalid input ({lang})' }};\n}}\n")


def test_the_module_file_of_the_named_folder_is_evidence(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    files = {f"src/locales/{lang}.ts": _messages(lang) for lang in ("en", "fr", "de")}
    files["src/locales/index.ts"] = "".join(
        f'export {{ default as {lang} }} from "./{lang}.js";\n' for lang in ("en", "fr", "de"))
    files["src/core/config.ts"] = ("export function config(locale) {\n"
                                   "  // the locale support: error messages per language\n"
                                   "  return { localeError: locale().localeError };\n}\n")
    root = make_repo(files)
    ctx = graphiq_ci.build_context(root, "Add Spanish (es) locale support", Options())
    reasons = {f.path: f.reasons for f in ctx.files}
    assert "module_file +0.300" in reasons["src/locales/index.ts"], reasons
    assert "the module file of a folder the task names" in next(
        f.why for f in ctx.files if f.path == "src/locales/index.ts")
    assert not any(r.startswith("module_file") for p, rs in reasons.items()
                   if p != "src/locales/index.ts" for r in rs)
    assert ctx.files[0].path == "src/locales/index.ts", list(reasons)


def test_module_files_are_language_data() -> None:
    assert {"mod.rs", "lib.rs", "__init__.py", "index.ts", "index.js"} <= MODULE_FILES


def test_a_file_named_like_the_folder_beside_it_is_its_module_file(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Rust's `routing.rs` beside `routing/` (and TypeScript's `middleware.ts` beside
    `middleware/`) declares the folder's modules as `routing/mod.rs` would."""
    root = make_repo({
        "src/routing.rs": "pub mod get;\npub mod post;\n",
        "src/routing/get.rs": "pub fn get() -> u8 { 1 }\n",
        "src/routing/post.rs": "pub fn post() -> u8 { 2 }\n",
        "src/server.rs": "pub fn serve() { /* routes each request to its route */ }\n",
    })
    ctx = graphiq_ci.build_context(root, "Add a put routing method", Options())
    reasons = {f.path: f.reasons for f in ctx.files}
    assert "module_file +0.300" in reasons["src/routing.rs"], reasons
    assert not any(r.startswith("module_file") for p, rs in reasons.items()
                   if p != "src/routing.rs" for r in rs)
