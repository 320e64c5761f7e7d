"""A member the task writes after its type (`Serve.tcp_nodelay`) names that type's member, not
every definition with the same name (context/candidates.py: `_exact_names`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.context.model import Context


def _named(ctx: Context) -> set[str]:
    return {f.path for f in ctx.files if any(r.startswith("named_symbol") for r in f.reasons)}


def test_only_the_named_types_member_is_named(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({
        "serve.py": "class Serve:\n    def tcp_nodelay(self, on):\n        self.nodelay = on\n",
        "client.py": "class Client:\n    def tcp_nodelay(self, on):\n        self.flag = on\n",
    })
    ctx = graphiq_ci.build_context(root, "Make `Serve.tcp_nodelay` return self", Options())
    assert _named(ctx) == {"serve.py"}
    assert ctx.files[0].path == "serve.py"


def test_a_member_of_a_type_outside_the_repository_names_nothing_here(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({
        "more_types.py": "class MoreTypes:\n    def as_member_of(self, types, c, m):\n"
                         "        return types.as_member_of(c, m)\n",
        "processor.py": "def property_type(types, c, m):\n    return types.as_member_of(c, m)\n",
    })
    ctx = graphiq_ci.build_context(
        root, "Don't call `Types.as_member_of` when `m` is defined in `c`", Options())
    assert _named(ctx) == set()  # the wrapper in MoreTypes is not the method the task names
    bare = graphiq_ci.build_context(root, "Don't call `as_member_of` twice", Options())
    assert _named(bare) == {"more_types.py"}  # written alone, the name is the wrapper's
