"""A type named in backticks leads the files even when its name is an ordinary word.

`Handler` in "Document type parameter `T` on `Handler`" was read as a sentence-start capital
and dropped from the task's names, so the file defining `trait Handler` ranked below files
that merely use the words "type" and "parameter" often (axum, issue #15)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options


def _wordy(n: int) -> str:
    """Type parameters everywhere, and handlers used, not defined."""
    return "use crate::handler::Handler;\n\n" + "\n\n".join(
        f"pub fn parse_type_{n}_{k}<T>(parameter: T) -> T {{\n"
        f"    // the type parameter of document {k}\n    parameter\n}}"
        for k in range(6)) + "\n"


def test_the_file_defining_a_backticked_type_ranks_first(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    files = {f"src/types_{n}.rs": _wordy(n) for n in range(5)}
    files["src/handler/mod.rs"] = (
        "pub trait Handler<T> {\n    fn call(self, req: Request) -> Response;\n}\n\n"
        "pub struct Request;\npub struct Response;\n")
    files["src/routing.rs"] = "pub fn route(path: &str) -> usize {\n    path.len()\n}\n"
    root = make_repo(files)
    ctx = graphiq_ci.build_context(root, "Document type parameter `T` on `Handler`", Options())
    assert ctx.files[0].path == "src/handler/mod.rs", [f.path for f in ctx.files]
    assert ctx.symbols[0].name == "Handler"
