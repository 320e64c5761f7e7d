"""The changed lines of a changed symbol are in the code shown, even when the symbol is far
bigger than the budget: PR mode's packer shows them first (#11: "a `default.py:136-220
(shortened)` snippet shows 8 signature lines and `...`; the changed branch is never shown")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .shop import Repo, graphiq

STEPS = 120
LEDGER = ("def reconcile(ledger):\n    \"\"\"Fold every ledger entry into one total.\"\"\"\n"
          + "".join(f"    step_{i} = ledger.get('entry_{i}', 0) + {i}\n" for i in range(STEPS))
          + "    return sum(v for k, v in locals().items() if k.startswith('step_'))\n")


@pytest.fixture
def branch(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    repo.commit("ledger", {"ledger.py": LEDGER, "report.py":
                           "from ledger import reconcile\n\n\ndef report(l):\n"
                           "    return reconcile(l)\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.edit("ledger.py", "    step_61 = ledger.get('entry_61', 0) + 61\n",
              "    step_61 = ledger.get('entry_61', 0) * 61  # scaled, not shifted\n")
    repo.commit("scale entry 61")
    return repo


@pytest.mark.parametrize("fmt", ["markdown", "prompt"])
def test_the_changed_line_of_a_long_function_is_shown(branch: Repo, fmt: str) -> None:
    out = graphiq("context", "--diff", "--format", fmt, "--max-tokens", "500", cwd=branch.path)
    assert out.returncode == 0, out.stderr
    assert "step_61 = ledger.get('entry_61', 0) * 61  # scaled, not shifted" in out.stdout
    assert "def reconcile(ledger):" in out.stdout  # with its signature, as a shortened unit
    assert "step_100 = " not in out.stdout  # the budget holds far less than all 120 steps


def test_every_changed_file_is_listed_even_when_it_holds_no_code(branch: Repo) -> None:
    """#11: "No list of changed files. CHANGELOG.md and docs changes appear nowhere"."""
    branch.commit("notes", {"CHANGELOG.md": "## Unreleased\n\n- entry 61 is scaled\n",
                            "docs/ledger.md": "# Ledger\n"})
    out = graphiq("context", "--diff", cwd=branch.path)
    assert out.returncode == 0, out.stderr
    listed = out.stdout.split("Files this PR changes (3)", 1)[1].split("</details>", 1)[0]
    assert "- `ledger.py` (modified, +1 −1)" in listed
    assert "- `CHANGELOG.md` (added, +3 −0)" in listed
    assert "- `docs/ledger.md` (added, +1 −0)" in listed
    data = graphiq("context", "--diff", "--format", "json", cwd=branch.path)
    assert {"path": "CHANGELOG.md", "status": "added", "added": 3, "deleted": 0} in json.loads(
        data.stdout)["changed_files"]


def test_changed_lines_outside_every_definition_are_shown(branch: Repo) -> None:
    """An import and module-level code belong to no definition, yet they are the change."""
    branch.edit("report.py", "from ledger import reconcile\n",
                "from ledger import reconcile  # the scaled ledger\nimport decimal\n")
    with open(branch.path / "report.py", "a", encoding="utf-8") as f:
        f.write("\n\nif __name__ == '__main__':\n    print(report({'entry_61': 2}))\n")
    branch.commit("report from the command line")
    out = graphiq("context", "--diff", "--max-tokens", "600", cwd=branch.path)
    assert out.returncode == 0, out.stderr
    for line in ("from ledger import reconcile  # the scaled ledger", "import decimal",
                 "if __name__ == '__main__':", "print(report({'entry_61': 2}))",
                 "step_61 = ledger.get('entry_61', 0) * 61  # scaled, not shifted"):
        assert line in out.stdout, line


def _module(n: int) -> str:
    body = "".join(f"    total += item.part_{k} * {k}\n" for k in range(25))
    return f"def settle_{n}(item):\n    total = 0\n{body}    return total\n"


def test_every_changed_line_is_shown_before_the_callers_code(tmp_path: Path) -> None:
    """Six functions too long to show whole, one line changed in each, each with callers of
    its own: at a budget that holds the six changed lines and little more, all six are
    shown, where ranking by value per token would spend it on the short callers first."""
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    files = {f"settle_{n}.py": _module(n) for n in range(6)}
    files.update({f"use_{n}.py": f"from settle_{n} import settle_{n}\n\n\n" + "".join(
        f"def use_{n}_{k}(x):\n    return settle_{n}(x)\n\n\n" for k in range(4))
        for n in range(6)})
    repo.commit("settlements", files)
    repo.git("checkout", "-q", "-b", "feature")
    for n in range(6):
        repo.edit(f"settle_{n}.py", "    total += item.part_17 * 17\n",
                  f"    total += item.part_17 * 17 * rate_{n}  # rated\n")
    repo.commit("rate part 17")
    out = graphiq("context", "--diff", "--max-tokens", "900", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    code = out.stdout.split("<summary>Code", 1)[1]
    for n in range(6):
        assert f"total += item.part_17 * 17 * rate_{n}  # rated" in code, n
        assert f"def settle_{n}(item):" in code  # each inside its signature


def test_a_long_list_of_changed_files_says_how_many_it_leaves_out(branch: Repo) -> None:
    """When the lists must be shortened to fit, the changed files keep the longest list and
    the heading still counts them all."""
    branch.commit("notes", {f"docs/page_{n:02d}.md": f"# Page {n}\n" for n in range(30)})
    out = graphiq("context", "--diff", "--max-tokens", "400", "--change-tokens", "0",
                  cwd=branch.path)
    assert out.returncode == 0, out.stderr
    listed = out.stdout.split("Files this PR changes (31)", 1)[1].split("</details>", 1)[0]
    assert listed.count("(added, +1 −0)") == 20
    assert "- … and 11 more" in listed


def _rates(n: int) -> str:
    return "def rates(order):\n    \"\"\"Every rate the order pays.\"\"\"\n" + "".join(
        f"    rate_{k} = order.base * {k} + order.extra_{k}\n" for k in range(n)) + \
        "    return locals()\n"


def test_a_change_larger_than_the_budget_gets_room_of_its_own(tmp_path: Path) -> None:
    """#11: "the changed lines of every changed symbol visible in the comment". Eighty
    changed lines cost more than the whole --max-tokens: each is shown, and the text is
    longer than the budget by no more than those lines cost. With --change-tokens 0 they
    share the budget and most are cut."""
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    repo.commit("rates", {"rates.py": _rates(80), "bill.py":
                          "from rates import rates\n\n\ndef bill(o):\n    return rates(o)\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("rates scale", {"rates.py": _rates(80).replace("order.base * ",
                                                                "order.scaled_base * ")})
    changed = [f"rate_{k} = order.scaled_base * {k} + order.extra_{k}" for k in range(80)]
    change_cost = sum(len(f"    {line}\n") for line in changed) / 4

    out = graphiq("context", "--diff", "--max-tokens", "500", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    assert all(line in out.stdout for line in changed)
    assert 500 < len(out.stdout) / 4 <= 500 + change_cost + 20  # 20: the file's block header

    shared = graphiq("context", "--diff", "--max-tokens", "500", "--change-tokens", "0",
                     cwd=repo.path)
    assert shared.returncode == 0, shared.stderr
    assert len(shared.stdout) / 4 <= 500
    assert sum(line in shared.stdout for line in changed) < 40

    capped = graphiq("context", "--diff", "--max-tokens", "500", "--change-tokens", "300",
                     "--format", "prompt", cwd=repo.path)
    assert capped.returncode == 0, capped.stderr
    assert len(capped.stdout) / 4 <= 800
    assert 0 < sum(line in capped.stdout for line in changed) < 80
