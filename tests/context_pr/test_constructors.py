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
