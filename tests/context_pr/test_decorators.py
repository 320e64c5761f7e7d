"""A decorator is a call of it made for what it decorates: `@retry` above `def fetch` runs
`retry(fetch)`. So a changed decorator's callers are the definitions it decorates, and the
tests that reach them are affected. Real repos, real branches, the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .shop import Repo, feature_branch, graphiq

PY = {
    "retrying.py": '''def retry(fn):
    """Call fn again once when it fails."""
    def wrapper(*args):
        try:
            return fn(*args)
        except OSError:
            return fn(*args)
    return wrapper
''',
    "fetch.py": '''import retrying


class Fetcher:
    @retrying.retry
    def fetch(self, url):
        return url
''',
    "tests/test_fetch.py": '''from fetch import Fetcher


def test_fetch():
    fetcher = Fetcher()
    assert fetcher.fetch("x") == "x"
''',
}
TS = {
    "src/log.ts": '''export function Log(target: any, key: string): void {
  console.log(key);
}
''',
    "src/shop.ts": '''import { Log } from "./log";

export class Shop {
  @Log
  checkout(): number {
    return 1;
  }
}
''',
}


def _branch(tmp_path: Path, files: dict[str, str], path: str, old: str, new: str) -> Repo:
    return feature_branch(tmp_path / "repo", files, (path, old, new))


@pytest.mark.parametrize("files, path, old, new, decorator, decorated", [
    (PY, "retrying.py", "    return wrapper", "    wrapper.retries = 1\n    return wrapper",
     "retry", "Fetcher.fetch"),
    # the wrapper runs when the decorated method does: its callers are the decorator's
    (PY, "retrying.py", "except OSError:", "except (OSError, TimeoutError):", "retry.wrapper",
     "Fetcher.fetch"),
    (TS, "src/log.ts", "console.log(key);", "console.info(key);", "Log", "Shop.checkout"),
])
def test_a_decorator_change_lists_what_it_decorates_as_callers(
        tmp_path: Path, files: dict[str, str], path: str, old: str, new: str, decorator: str,
        decorated: str) -> None:
    repo = _branch(tmp_path, files, path, old, new)
    out = graphiq("context", "--diff", "--format", "json", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    sections = {k: [by_id[i] for i in ids] for k, ids in data["sections"].items()}
    assert decorator in sections["changed"], sections
    assert decorated in sections["impact"], sections


@pytest.mark.parametrize("old, new, changed", [
    ('"""Call fn again once when it fails."""', '"""Call fn once more when it fails."""',
     "retry"),
    ("except OSError:", "except ValueError:", "retry.wrapper"),
])
def test_the_tests_that_reach_a_decorated_method_are_affected_by_its_decorator(
        tmp_path: Path, old: str, new: str, changed: str) -> None:
    repo = _branch(tmp_path, PY, "retrying.py", old, new)
    out = graphiq("affected", "--format", "json", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    cases = [c for f in json.loads(out.stdout)["files"] for c in f["cases"]]
    assert [(c["id"], c["via"]) for c in cases] == [
        ("tests/test_fetch.py::test_fetch", ["test_fetch", "Fetcher.fetch", changed])]
