"""The room a PR's changed lines need (`change_tokens`) is what the packer spends on them:
their signatures, closing lines, file header and `…` markers included, no more."""

from __future__ import annotations

from pathlib import Path

from graphiq_ci.context.model import CodeCandidates, CodeUnit
from graphiq_ci.render.pack import change_tokens, pack
from graphiq_ci.render.tokens import line_tokens


def rules(tmp_path: Path) -> CodeCandidates:
    """Eight functions of a real file, each with its third line changed (its unit's focus)."""
    path = tmp_path / "rules.py"
    path.write_text("".join(f"def rule_{i}(order):\n    \"\"\"Rule {i} of the price.\"\"\"\n"
                            f"    base = order['amount'] * order.get('rate_{i}', 1)\n"
                            f"    return base * 2\n\n\n" for i in range(8)))
    lines = path.read_text().splitlines()
    units = [CodeUnit("rules.py", f"rule_{i}", f"rule_{i}", "function", 6 * i + 1, 6 * i + 4,
                      [(6 * i + 1, 6 * i + 4)], 1.0 - i / 10, symbol_id=i + 1,
                      focus=(6 * i + 3,)) for i in range(8)]
    return CodeCandidates(units, {"rules.py": lines}, {"rules.py": "python"})


def shown(cc: CodeCandidates, budget: int) -> list[str]:
    return [line for sn in pack(cc, [], budget) for line in sn.code.splitlines()]


def test_the_changed_lines_fit_exactly_in_the_room_it_reserves(tmp_path: Path) -> None:
    cc = rules(tmp_path)
    changed = [cc.sources["rules.py"][u.focus[0] - 1] for u in cc.units]
    room = change_tokens(cc)
    assert all(line in shown(cc, room) for line in changed)
    assert not all(line in shown(cc, room - 10) for line in changed)  # not padded
    # the changed lines alone are far less than what showing them costs
    assert sum(line_tokens(line) for line in changed) < room / 2
