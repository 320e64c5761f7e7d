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
