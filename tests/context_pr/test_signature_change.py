"""A signature change names the callers the PR left alone, each with its call's line.

Real repos, real branches, the real CLI: `send` gains a parameter; one caller is updated in
the same PR, two are not (one of them through a typed receiver, `c.send(...)`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .shop import Repo, feature_branch, graphiq

FILES = {
    "client.py": '''class Client:
    def send(self, body):
        return body
''',
    "jobs.py": '''from client import Client


def nightly(c: Client):
    return c.send("report")


def hourly(c: Client):
    return c.send("ping")
''',
    "api.py": '''from client import Client


def handle(request, c: Client):
    payload = request.strip()
    return c.send(payload)
''',
}


def _branch(tmp_path: Path, files: dict[str, str], *edits: tuple[str, str, str]) -> Repo:
    return feature_branch(tmp_path / "repo", files, *edits)


def test_the_callers_a_signature_change_left_untouched_are_listed_with_their_call_line(
        tmp_path: Path) -> None:
    repo = _branch(
        tmp_path, FILES,
        ("client.py", "    def send(self, body):\n", "    def send(self, body, timeout):\n"),
        ("api.py", "    return c.send(payload)\n", "    return c.send(payload, 5)\n"))

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    changed = out.stdout.split("#### What changed", 1)[1].split("####", 1)[0]
    assert ("- `Client.send` (method) in `client.py:2` — **signature changed** · 3 callers; "
            "not updated in this PR:") in changed, changed
    assert "  - `nightly` calls it at `jobs.py:5`" in changed
    assert "  - `hourly` calls it at `jobs.py:9`" in changed
    assert "`handle` calls it" not in changed  # updated in this PR (so itself a change)
    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)
    by_name = {s["id"]: s["qualified"] for s in data["symbols"]}
    (change,) = [c for c in data["changes"] if by_name[c["id"]] == "Client.send"]
    assert (change["signature_changed"], change["callers"]) == (True, 3)
    assert {(s["caller"], s["line"], s["updated"]) for s in change["call_sites"]} == {
        ("nightly", 5, False), ("hourly", 9, False), ("handle", 6, True)}


def test_a_body_change_warns_of_nothing(tmp_path: Path) -> None:
    repo = _branch(tmp_path, FILES,
                   ("client.py", "        return body\n", "        return body.strip()\n"))

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    assert "- `Client.send` (method) in `client.py:2` · 3 callers\n" in out.stdout
    assert "signature changed" not in out.stdout and "not updated" not in out.stdout


OVERRIDES = {
    "schema.py": '''class Schema:
    def parse(self, data):
        return self._parse(data)

    def _parse(self, data):
        raise NotImplementedError


class StringSchema(Schema):
    def _parse(self, data):
        return str(data)


class NumberSchema(Schema):
    def _parse(self, data):
        return float(data)
''',
}


def test_an_override_is_called_wherever_the_method_it_overrides_is(tmp_path: Path) -> None:
    """`self._parse(data)` in the base class resolves to `Schema._parse`; at run time it runs
    the subclass's override, so that call site is a caller of `StringSchema._parse` too."""
    repo = _branch(
        tmp_path, OVERRIDES,
        ("schema.py", "        return str(data)\n", "        return str(data).strip()\n"))

    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)

    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    (change,) = [c for c in data["changes"] if by_id[c["id"]] == "StringSchema._parse"]
    assert [(s["caller"], s["line"]) for s in change["call_sites"]] == [("Schema.parse", 3)]
    assert "NumberSchema._parse" not in [s["caller"] for s in change["call_sites"]]


def test_a_test_calling_the_old_signature_is_a_caller_left_behind(tmp_path: Path) -> None:
    """Tests are listed apart from callers, but a test that calls the changed signature breaks
    as any caller does: it is among the callers not updated, marked as a test. Left out, the
    comment on bubbletea's `readInputs(input)` -> `readInputs(ctx, msgs, input)` warned of
    nothing, while `TestReadInput` still called it the old way."""
    files = {**FILES, "tests/test_client.py": '''from client import Client


def test_send():
    assert Client().send("x") == "x"
'''}
    repo = _branch(
        tmp_path, files,
        ("client.py", "    def send(self, body):\n", "    def send(self, body, timeout):\n"))

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    changed = out.stdout.split("#### What changed", 1)[1].split("####", 1)[0]
    assert "  - `test_send` calls it at `tests/test_client.py:5`" in changed, changed
    assert "  - `nightly` calls it at `jobs.py:5`" in changed
    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)
    (change,) = data["changes"]
    sites = [(s["caller"], s["test"]) for s in change["not_updated"]]
    assert sorted(sites[:-1]) == [("handle", False), ("hourly", False), ("nightly", False)]
    assert sites[-1] == ("test_send", True)  # after the callers

    unchanged = _branch(tmp_path / "body", files, (
        "client.py", "        return body\n", "        return body.strip()\n"))
    data = json.loads(graphiq("context", "--diff", "--format", "json",
                             cwd=unchanged.path).stdout)
    (change,) = data["changes"]  # a body change: the test is a test, not a call site
    assert not any(s["test"] for s in change["call_sites"]), change


def test_a_definition_the_branch_adds_is_added_not_a_signature_change(tmp_path: Path) -> None:
    """A new method's every line is new, its signature's too: it is "added", never "signature
    changed" (no caller can have been left behind)."""
    repo = _branch(tmp_path, FILES, (
        "client.py", "        return body\n",
        "        return body\n\n    def close(self, reason):\n        return reason\n"))

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    changed = out.stdout.split("#### What changed", 1)[1].split("####", 1)[0]
    assert "- `Client.close` (method) in `client.py:5` — **added** · 0 callers" in changed
    assert "signature changed" not in out.stdout and "not updated" not in out.stdout
    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    changes = {by_id[c["id"]]: (c["added"], c["signature_changed"]) for c in data["changes"]}
    # the class gained a method and a blank line before it: the blank line changes nothing,
    # so the class is not reported (nor its callers as the PR's reach)
    assert changes == {"Client.close": (True, False)}


WORKER = {
    "src/Worker.java": '''public class Worker {
    int run(int n) {
        return n;
    }
}
''',
    "src/Main.java": '''public class Main {
    static int go() {
        return new Worker().run(2);
    }
}
''',
}


@pytest.mark.parametrize("old, new, asks", [
    ("    int run(int n) {", "    public int run(int n) {", False),  # made visible wider
    ("    int run(int n) {", "    int run( int n ) {", False),  # reformatted
    ("    int run(int n) {", "    final int run(int n) {", False),  # a promise about the body
    ("    int run(int n) {", "    int run(int n, int m) {", True),  # a parameter more
    ("    int run(int n) {", "    private int run(int n) {", True),  # no longer reached
])
def test_a_signature_change_warns_only_when_it_asks_something_of_the_callers(
        tmp_path: Path, old: str, new: str, asks: bool) -> None:
    """jsoup made `And(...)` `public`, axum `pub fn max` a `pub const fn`: their callers need
    nothing, and the comment listed them as "not updated in this PR". The old signature is
    read from the base and compared word by word, an added modifier that asks nothing of a
    caller left out."""
    repo = _branch(tmp_path, WORKER, ("src/Worker.java", old, new))

    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)

    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    (change,) = [c for c in data["changes"] if by_id[c["id"]] == "Worker.run"]
    assert change["signature_changed"] is asks
    assert [(s["caller"], s["line"]) for s in change["not_updated"]] == (
        [("Main.go", 3)] if asks else [])
    markdown = graphiq("context", "--diff", cwd=repo.path).stdout
    assert ("**signature changed**" in markdown) is asks, markdown


def test_a_doc_comment_change_is_a_change_to_the_definition_below_it(tmp_path: Path) -> None:
    """The Javadoc above a method lies outside the method's node: a PR editing only it was
    reported as a change to the whole class (jsoup's `Document`, a thousand callers)."""
    files = {**WORKER, "src/Worker.java": '''public class Worker {
    int size;

    /**
     Runs the job once.
     */
    int run(int n) {
        return n;
    }
}
'''}
    repo = _branch(tmp_path, files, ("src/Worker.java", "Runs the job once.", "Runs it."))

    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)

    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    assert [by_id[i] for i in data["sections"]["changed"]] == ["Worker.run"]
    assert [by_id[c["id"]] for c in data["changes"]] == ["Worker.run"]


def test_the_summary_counts_the_callers_outside_the_change(tmp_path: Path) -> None:
    """jq's `binop_multiply` calls the new `jv_string_repeat` and both changed: the summary's
    count is of the callers the change leaves, and says so; the symbol's own line counts
    every caller."""
    files = {"calc.py": "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n"}
    repo = _branch(tmp_path, files, ("calc.py", "return 1", "return 2"),
                   ("calc.py", "return helper()", "return helper() + 1"))

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    assert "**2** changed symbols · **0** callers outside the change · " in out.stdout
    assert "- `helper` (function) in `calc.py:1` · 1 caller\n" in out.stdout


@pytest.mark.parametrize("path, source, old, new, changed", [
    ("fetch.py", "import functools\n\n\n# Retries a flaky call.\n@functools.cache\n"
                 "def fetch(url):\n    return url\n",
     "# Retries a flaky call.", "# Retries a flaky call, once.", "fetch"),
    ("src/lib.rs", "/// Clamps x.\n#[inline]\npub fn clamp(x: u8) -> u8 {\n    x.min(3)\n}\n",
     "/// Clamps x.", "/// Clamps x to three.", "clamp"),
    ("clamp.c", "#include \"limits.h\"\nint clamp(int x) {\n    return x > 3 ? 3 : x;\n}\n",
     "limits.h", "bounds.h", None),
    # a line of code that ends in a comment documents itself, not the function below
    ("clamp.js", "import { cap } from './cap.js'; /* the cap */\n"
                 "export function clamp(x) {\n  return x > cap ? cap : x;\n}\n",
     "./cap.js", "./caps.js", None),
])
def test_a_comment_or_attribute_above_a_definition_is_its_own(
        tmp_path: Path, path: str, source: str, old: str, new: str, changed: str | None) -> None:
    """A `#` comment over a decorator, a `///` doc over an attribute: the definition below
    changed. A C preprocessor line is no comment, nor is a line of code ending in one:
    editing the `#include` or an `import …; /* … */` right above a function changes no
    function."""
    repo = _branch(tmp_path, {path: source}, (path, old, new))

    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)

    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    names = [by_id[i] for i in data["sections"]["changed"]]
    if changed is None:
        assert "clamp" not in names, names
    else:
        assert names == [changed]
