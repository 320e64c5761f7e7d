"""A name the task spells out is full evidence for the file that defines it as a type or
function, half for a file where it is only a data member (context/files.py: NAMED_DATA)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options


def test_an_enum_member_of_the_same_name_is_weaker_evidence_than_the_class(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({
        "kinds.py": "from enum import Enum\n\n\nclass Kind(Enum):\n    Parser = 1\n"
                    "    Lexer = 2\n",
        "parser.py": "class Parser:\n    def parse(self, text):\n        return text.split()\n",
        "lexer.py": "def tokens(text):\n    return list(text)\n",
    })
    ctx = graphiq_ci.build_context(root, "Fix error recovery in `Parser`", Options())
    reasons = {f.path: f.reasons for f in ctx.files}
    assert "named_symbol +0.600" in reasons["parser.py"], reasons
    assert "named_symbol +0.300" in reasons["kinds.py"], reasons
    assert ctx.files[0].path == "parser.py"
