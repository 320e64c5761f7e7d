"""A constructor's callers are whoever instantiates its type: `Proxy(...)` runs
`Proxy.__init__`, `new Cache(…)` runs `constructor`. Real repos, real branches, the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .shop import Repo, feature_branch, graphiq

PY = {
    "transport.py": '''class Proxy:
    """A proxy URL, checked once."""

    def __init__(self, url):
        if not url.startswith("http"):
            raise ValueError("bad proxy url")
        self.url = url
''',
    "client.py": '''from transport import Proxy


def make_client(url):
    return Proxy(url)
''',
    "tests/test_client.py": '''from client import make_client


def test_make_client():
    assert make_client("http://x").url == "http://x"
''',
}
TS = {
    "src/cache.ts": '''export class Cache {
  size: number;
  constructor(size: number) {
    this.size = size;
  }
}
''',
    "src/make.ts": '''import { Cache } from "./cache";

export function makeCache(): Cache {
  return new Cache(10);
}
''',
}


def _branch(tmp_path: Path, files: dict[str, str], path: str, old: str, new: str) -> Repo:
    return feature_branch(tmp_path / "repo", files, (path, old, new))


def _sections(repo: Repo) -> dict[str, list[str]]:
    out = graphiq("context", "--diff", "--format", "json", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    return {k: [by_id[i] for i in ids] for k, ids in data["sections"].items()}


@pytest.mark.parametrize("files, path, old, new, ctor, caller", [
    (PY, "transport.py", '"bad proxy url"', '"proxy URLs start with http"', "Proxy.__init__",
     "make_client"),
    (TS, "src/cache.ts", "this.size = size;", "this.size = Math.max(1, size);",
     "Cache.constructor", "makeCache"),
])
def test_a_constructor_change_lists_the_instantiating_callers(
        tmp_path: Path, files: dict[str, str], path: str, old: str, new: str, ctor: str,
        caller: str) -> None:
    repo = _branch(tmp_path, files, path, old, new)
    sections = _sections(repo)
    assert sections["changed"] == [ctor]
    assert caller in sections["impact"], sections


def test_the_tests_that_instantiate_a_changed_constructor_are_affected(tmp_path: Path) -> None:
    repo = _branch(tmp_path, PY, "transport.py", '"bad proxy url"', '"no"')
    out = graphiq("affected", "--format", "json", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    cases = [c for f in json.loads(out.stdout)["files"] for c in f["cases"]]
    assert [(c["id"], c["via"]) for c in cases] == [
        ("tests/test_client.py::test_make_client",
         ["test_make_client", "make_client", "Proxy.__init__"])]


SHARED_TYPE = {
    "money.py": '''class Money:
    """An amount in one currency."""

    def __init__(self, cents):
        self.cents = cents
''',
    "wallet.py": '''from money import Money


class Wallet:
    """Money held for one customer."""

    def __init__(self, owner, balance: Money):
        self.owner = owner
        self.balance = balance
''',
    "shop.py": '''from money import Money
from wallet import Wallet


def open_wallet(owner, balance: Money):
    return Wallet(owner, balance)
''',
}


def test_a_caller_that_also_shares_a_type_with_the_constructor_is_named_at_its_call(
        tmp_path: Path) -> None:
    """`open_wallet` instantiates `Wallet` and, like `Wallet.__init__`, takes a `Money`: the
    index links the two by the shared type as well. That link used to hide the call, so the
    comment said "1 caller" and listed no call site (auto's `new PropertySetter(...)`)."""
    repo = _branch(tmp_path, SHARED_TYPE, "wallet.py", "self.owner = owner",
                   "self.owner = owner.strip()")
    out = graphiq("context", "--diff", "--format", "json", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    (change,) = [c for c in data["changes"] if by_id.get(c["id"]) == "Wallet.__init__"]
    assert change["callers"] == 1
    assert [(s["caller"], s["file"], s["line"]) for s in change["call_sites"]] == [
        ("open_wallet", "shop.py", 6)], change
