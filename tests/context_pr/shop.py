"""A small shop repository with real commits and call relations, for PR-mode tests.

`charge` (billing.py) is called by `checkout` (checkout.py) and tested by
`test_charge_positive` (tests/test_billing.py); `ship` (shipping.py) is unrelated.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: Commit times advance an hour per commit from here, so history order is fixed.
EPOCH = 1_700_000_000

BILLING = '''"""Billing: charging and refunding cards."""


def charge(amount, currency="EUR"):
    """Charge a card for `amount`."""
    if amount <= 0:
        raise ValueError("amount must be positive")
    return {"amount": amount, "currency": currency}


def refund(amount):
    """Give money back."""
    return {"amount": -amount}
'''

CHECKOUT = '''from billing import charge


def checkout(cart):
    """Pay for everything in the cart."""
    total = sum(item["price"] for item in cart)
    return charge(total)
'''

TEST_BILLING = '''from billing import charge


def test_charge_positive():
    assert charge(10)["amount"] == 10
'''

SHIPPING = '''def ship(order):
    """Hand an order to the carrier."""
    return {"shipped": order}
'''

FILES = {
    "billing.py": BILLING,
    "checkout.py": CHECKOUT,
    "tests/test_billing.py": TEST_BILLING,
    "shipping.py": SHIPPING,
}


def clean_env(**extra: str) -> dict[str, str]:
    """The environment minus per-invocation git state (a hook running pytest exports it)."""
    keep = {"GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_EXEC_PATH", "GIT_TERMINAL_PROMPT"}
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("GIT_") and k not in keep) and not k.startswith("GITHUB_")}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1", **extra)
    return env


class Repo:
    """A work tree and the git verbs the tests script histories with."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = EPOCH
        path.mkdir(parents=True, exist_ok=True)

    def git(self, *args: str) -> str:
        self.clock += 3600
        env = clean_env(GIT_AUTHOR_DATE=f"@{self.clock} +0000",
                        GIT_COMMITTER_DATE=f"@{self.clock} +0000")
        return subprocess.run(
            ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
             "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
             "-c", "advice.detachedHead=false", *args],
            cwd=self.path, env=env, check=True, capture_output=True, text=True,
        ).stdout.strip()

    def write(self, files: dict[str, str]) -> None:
        for name, text in files.items():
            target = self.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)

    def edit(self, name: str, old: str, new: str) -> None:
        target = self.path / name
        text = target.read_text()
        assert old in text, f"{old!r} not in {name}"
        target.write_text(text.replace(old, new))

    def commit(self, message: str, files: dict[str, str] | None = None) -> str:
        if files:
            self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")


def make_shop(path: Path) -> Repo:
    """main: the shop, then one more unrelated commit after `feature` forked.

    feature: one commit that changes the body of `charge`. HEAD is on feature.
    """
    repo = Repo(path)
    repo.git("init", "-q", "-b", "main")
    repo.commit("shop", FILES)
    repo.git("checkout", "-q", "-b", "feature")
    repo.edit("billing.py", '        raise ValueError("amount must be positive")\n',
              '        raise ValueError("amount must be positive")\n'
              '    amount = round(amount, 2)\n')
    repo.commit("charge: round to cents")
    repo.git("checkout", "-q", "main")
    repo.commit("main moves on", {"extra.py": "def extra():\n    return 1\n"})
    repo.git("checkout", "-q", "feature")
    return repo


def feature_branch(path: Path, files: dict[str, str], *edits: tuple[str, str, str]) -> Repo:
    """`files` on main, then a feature branch (checked out) with one commit making each
    (path, old, new) edit."""
    repo = Repo(path)
    repo.git("init", "-q", "-b", "main")
    repo.commit("start", files)
    repo.git("checkout", "-q", "-b", "feature")
    for name, old, new in edits:
        repo.edit(name, old, new)
    repo.commit("the change")
    return repo


def graphiq(*args: str, cwd: Path, env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real CLI, as a subprocess."""
    return subprocess.run([sys.executable, "-m", "graphiq_ci", *args], cwd=cwd,
                          env=env or clean_env(), capture_output=True, text=True,
                          timeout=timeout)
