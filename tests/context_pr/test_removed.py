"""A definition the branch removed is reported as removed, with the references left to it.

Real repos, real branches, the real CLI. Deleting a method whole used to charge its lines to
the class around it: the class read as "changed" and its callers filled the comment, while
the calls that now name nothing went unmentioned.
"""

from __future__ import annotations

import json
from pathlib import Path

from graphiq_ci.context.removed import realigned
from graphiq_ci.lang.extract import extract
from graphiq_ci.lang.registry import plugin_for
from graphiq_ci.vcs import changed_hunks, changed_symbols

from .shop import Repo, feature_branch, graphiq

CLIENT = '''class Client:
    def open(self):
        return self.ping(1)

    def ping(self, n):
        return n + 1

    def shutdown(self):
        return None
'''

JOBS = '''from client import Client


def nightly(c: Client):
    return c.ping(2)


def hourly():
    return Client().ping(3)


def daily(c: Client):
    return c.shutdown()
'''


def _pr(tmp_path: Path, files: dict[str, str], *edits: tuple[str, str, str]) -> dict:
    repo = feature_branch(tmp_path / "repo", files, *edits)
    out = graphiq("context", "--diff", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)
    data["markdown"] = out.stdout
    return data


def _changed(data: dict) -> set[str]:
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    return {by_id[i] for i in data["sections"]["changed"]}


def test_a_method_removed_whole_is_removed_and_its_class_unchanged(tmp_path: Path) -> None:
    data = _pr(tmp_path, {"client.py": CLIENT, "jobs.py": JOBS},
               ("client.py", "    def ping(self, n):\n        return n + 1\n\n", ""))

    (removed,) = data["removed"]
    assert (removed["qualified"], removed["kind"], removed["file"], removed["line"]) == (
        "Client.ping", "method", "client.py", 5)
    # self.ping(), a typed parameter's c.ping(), Client().ping(): each now names nothing
    assert [(s["caller"], s["file"], s["line"]) for s in removed["left_behind"]] == [
        ("Client.open", "client.py", 3), ("nightly", "jobs.py", 5), ("hourly", "jobs.py", 9)]
    assert removed["references"] == 3
    assert "Client" not in _changed(data)  # the class lost no line of its own
    # the code still calling it is what depends on the change
    by_id = {s["id"]: s for s in data["symbols"]}
    assert sorted((by_id[i]["qualified"], by_id[i]["reasons"][0])
                  for i in data["sections"]["impact"]) == [
        (q, "names a definition the branch removed") for q in ("Client.open", "hourly",
                                                               "nightly")]
    md = data["markdown"]
    assert "**0** changed symbols · **1** removed" in md
    assert ("- `Client.ping` (method) — **removed** (the base has it at `client.py:5`); "
            "still referenced 3 times:\n  - `Client.open` at `client.py:3`\n"
            "  - `nightly` at `jobs.py:5`\n  - `hourly` at `jobs.py:9`\n") in md


def test_a_removal_whose_callers_were_updated_leaves_nothing_behind(tmp_path: Path) -> None:
    data = _pr(tmp_path, {"client.py": CLIENT, "jobs.py": JOBS},
               ("client.py", "    def shutdown(self):\n        return None\n", ""),
               ("jobs.py", "    return c.shutdown()\n", "    return None\n"))

    (removed,) = data["removed"]
    assert (removed["qualified"], removed["references"], removed["left_behind"]) == (
        "Client.shutdown", 0, [])
    assert "`Client.shutdown` (method) — **removed** (the base has it at `client.py:8`); " \
           "nothing references it any more" in data["markdown"]
    assert _changed(data) == {"daily"}


def test_a_rename_removes_the_old_name(tmp_path: Path) -> None:
    data = _pr(tmp_path, {"client.py": CLIENT, "jobs.py": JOBS},
               ("client.py", "    def ping(self, n):\n", "    def probe(self, n):\n"))

    assert [(r["qualified"], r["references"]) for r in data["removed"]] == [("Client.ping", 3)]
    assert _changed(data) == {"Client.probe"}


def test_a_function_moved_to_another_file_is_not_removed(tmp_path: Path) -> None:
    files = {"a.py": "def helper(x):\n    return x * 2\n\n\ndef main():\n    return helper(1)\n",
             "b.py": "def other():\n    return 0\n"}
    data = _pr(tmp_path, files,
               ("a.py", "def helper(x):\n    return x * 2\n\n\n", "from b import helper\n\n\n"),
               ("b.py", "def other():\n", "def helper(x):\n    return x * 2\n\n\ndef other():\n"))

    assert data["removed"] == []


def test_a_removed_function_is_left_behind_only_where_no_namesake_remains(
        tmp_path: Path) -> None:
    files = {"a.py": "def helper(x):\n    return x * 2\n\n\ndef main():\n    return helper(1)\n",
             "c.py": "def run():\n    return helper(3)\n"}
    data = _pr(tmp_path, files, ("a.py", "def helper(x):\n    return x * 2\n\n\n", ""))
    (removed,) = data["removed"]
    assert [(s["caller"], s["line"]) for s in removed["left_behind"]] == [("main", 2), ("run", 2)]

    # another definition of the name may be what the calls mean now: never a guess
    files["d.py"] = "def helper(x):\n    return x\n"
    data = _pr(tmp_path / "namesake", files,
               ("a.py", "def helper(x):\n    return x * 2\n\n\n", ""))
    (removed,) = data["removed"]
    assert (removed["qualified"], removed["left_behind"]) == ("helper", [])


def test_a_class_removed_whole_is_one_removal(tmp_path: Path) -> None:
    files = {"client.py": CLIENT + "\n\nclass Pool:\n    def take(self):\n        return 1\n",
             "jobs.py": "from client import Pool\n\n\ndef grab(p: Pool):\n    return p\n"}
    data = _pr(tmp_path, files, ("client.py", "\n\nclass Pool:\n    def take(self):\n"
                                              "        return 1\n", "\n"))

    assert [(r["qualified"], r["kind"]) for r in data["removed"]] == [("Pool", "class")]
    # the import that binds it fails now, then the annotation
    assert [(s["caller"], s["line"]) for s in data["removed"][0]["left_behind"]] == [
        ("jobs.py", 1), ("grab", 4)]
    assert "still referenced 2 times:\n  - `jobs.py:1`\n  - `grab` at `jobs.py:4`\n" \
        in data["markdown"]
    assert "Client" not in _changed(data)


JAVA = {"src/Shop.java": '''public class Shop {
    public int total() {
        return price() + 1;
    }

    public int price() {
        return 3;
    }
}
''', "src/Till.java": '''public class Till {
    public int ring(Shop shop) {
        return shop.price();
    }
}
'''}


def test_java_bare_and_typed_calls_of_a_removed_method_are_left_behind(tmp_path: Path) -> None:
    data = _pr(tmp_path, JAVA, ("src/Shop.java", "\n    public int price() {\n"
                                                 "        return 3;\n    }\n", ""))

    (removed,) = data["removed"]
    assert removed["qualified"] == "Shop.price"
    assert [(s["caller"], s["file"], s["line"]) for s in removed["left_behind"]] == [
        ("Shop.total", "src/Shop.java", 3), ("Till.ring", "src/Till.java", 3)]
    assert "Shop" not in _changed(data)


GO = {"server.go": '''package main

type Server struct{}

func (s *Server) Start() int {
	return s.Port()
}

func (s *Server) Port() int {
	return 80
}
''', "main.go": '''package main

func run(s *Server) int {
	return s.Port()
}
'''}


def test_go_receiver_calls_of_a_removed_method_are_left_behind(tmp_path: Path) -> None:
    data = _pr(tmp_path, GO, ("server.go", "\nfunc (s *Server) Port() int {\n\treturn 80\n}\n",
                              ""))

    (removed,) = data["removed"]
    assert removed["qualified"] == "Server.Port"
    assert [(s["caller"], s["line"]) for s in removed["left_behind"]] == [
        ("run", 4), ("Server.Start", 6)]
    assert "Server.Start" not in _changed(data)


def test_affected_runs_the_tests_that_still_call_a_removed_method(tmp_path: Path) -> None:
    """A test still calling the removed method fails: it is affected, with the removal in its
    chain. So is one that makes the type: a removed member changes it. A test of another
    type is not."""
    files = {"client.py": CLIENT + "\n\nclass Pool:\n    def take(self):\n        return 1\n",
             "tests/test_client.py": "from client import Client, Pool\n\n\n"
                                     "def test_ping(client: Client):\n"
                                     "    assert client.ping(1) == 2\n\n\n"
                                     "def test_shutdown():\n"
                                     "    assert Client().shutdown() is None\n"
                                     "\n\ndef test_take():\n    assert Pool().take() == 1\n"}
    repo = feature_branch(tmp_path / "repo", files,
                          ("client.py", "    def ping(self, n):\n        return n + 1\n\n", ""))

    out = graphiq("affected", "--all", "--format", "pytest", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    assert sorted(out.stdout.split()) == ["tests/test_client.py::test_ping",
                                          "tests/test_client.py::test_shutdown"]
    text = graphiq("affected", cwd=repo.path).stdout
    assert "  - `tests/test_client.py::test_ping`: `test_ping` → `Client.ping (removed)`" in text


def test_a_deleted_file_leaves_its_callers_behind_and_bad_files_cost_nothing(
        tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    repo.write({"util.py": "def normalise(x):\n    return x.strip()\n",
                "app.py": "from util import normalise\n\n\ndef main(s):\n"
                          "    return normalise(s)\n"})
    (repo.path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0")
    (repo.path / "latin.py").write_bytes(b"# caf\xe9\ndef old():\n    return 1\n")
    repo.commit("start")
    repo.git("checkout", "-q", "-b", "drop")
    for name in ("util.py", "logo.png", "latin.py"):
        (repo.path / name).unlink()
    repo.commit("drop util, the logo and the Latin-1 file")

    out = graphiq("context", "--base", "main", "--format", "json", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    removed = {r["qualified"]: r for r in json.loads(out.stdout)["removed"]}
    assert set(removed) == {"normalise", "old"}  # nothing from the binary file
    assert [(s["caller"], s["line"]) for s in removed["normalise"]["left_behind"]] == [
        ("main", 5)]
    assert removed["old"]["left_behind"] == []


def _rust_tests(names: list[str]) -> str:
    tests = [f"    #[test]\n    fn {n}() {{\n        let app = make(\"{n}\");\n\n"
             f"        assert_eq!(app.len(), {len(n)});\n    }}\n" for n in names]
    return "mod tests {\n    use super::*;\n\n" + "\n".join(tests) + "}\n"


def _spans(path: str, text: str) -> list[tuple[str, str, int, int]]:
    parsed = extract(plugin_for("rust"), path, text.encode())
    return [(path, s.qualified, s.line, s.end_line) for s in parsed.symbols]


def test_a_deletion_git_put_one_closing_brace_early_is_slid_onto_the_definitions(
        tmp_path: Path) -> None:
    """Among equal lines git may start a deletion at the `}` closing the definition before the
    removed ones (it did on axum's PR removing two tests), leaving the last removed test's
    `}`: the test before them then read as changed. Every placement git could choose is
    reported alike: the two tests removed, no survivor changed."""
    before, after = _rust_tests(["one", "two", "three", "four"]), _rust_tests(["one", "four"])
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    base = repo.commit("start", {"lib.rs": before})
    repo.write({"lib.rs": after})
    (git_put,) = changed_hunks(repo.path, base)["lib.rs"]
    lines = before.splitlines()
    early = git_put  # the same deletion slid up along equal lines to start at one's `}`
    while lines[early.old_start - 1] != "    }":
        start, end = early.old_start - 1, early.old_start + early.old_count - 1
        assert lines[start - 1] == lines[end - 1], "not the same text: git could not choose it"
        early = early._replace(old_start=start, new_start=early.new_start - 1,
                               blank_old=frozenset(n for n in range(start, end)
                                                   if not lines[n - 1].strip()))
    removed_spans = [(a - 1, b) for _, q, a, b in _spans("lib.rs", before)  # `#[test]` too
                     if q in ("tests.two", "tests.three")]
    gone = {"lib.rs": {n for a, b in removed_spans for n in range(a, b + 1)}}
    after_spans = _spans("lib.rs", after)
    assert [c.qualified for c in changed_symbols({"lib.rs": [early]}, after_spans, gone)] == [
        "tests.one"]  # the defect
    for h in (git_put, early):
        (slid,) = realigned(h, lines, removed_spans)
        assert lines[slid.old_start - 1] != "    }"
        assert changed_symbols({"lib.rs": [slid]}, after_spans, gone) == []


def test_a_branch_that_only_removes_draws_no_changed_symbol(tmp_path: Path) -> None:
    """The diagram's legend calls a double box a changed symbol: with nothing changed (a
    method removed), the task ranking's symbols were drawn as double boxes. Now the code
    still calling the removed method is drawn, as callers; and with nothing calling it,
    there is no diagram at all."""
    edit = ("client.py", "    def ping(self, n):\n        return n + 1\n\n", "")
    repo = feature_branch(tmp_path / "called", {"client.py": CLIENT, "jobs.py": JOBS}, edit)

    out = graphiq("context", "--diff", "--diagram", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    chart = out.stdout.split("```mermaid\n", 1)[1].split("```", 1)[0]
    nodes = sorted(line.strip().split(" ", 1)[0][2:] for line in chart.splitlines()
                   if line.startswith("  n") and "-->" not in line)
    assert nodes == ['("Client.open")', '("hourly")', '("nightly")'], chart
    repo = feature_branch(tmp_path / "uncalled", {"client.py": CLIENT},
                          ("client.py", "\n    def shutdown(self):\n        return None\n", ""))
    out = graphiq("context", "--diff", "--diagram", cwd=repo.path)
    assert "**removed**" in out.stdout and "```mermaid" not in out.stdout


TS_SHOP = {"a.ts": '''export class Shop {
  total(): number {
    return this.price() + 1;
  }

  price(): number {
    return 3;
  }
}

export function helper(x: number): number {
  return x * 2;
}
''', "b.ts": '''import { Shop, helper } from "./a";

export function ring(shop: Shop): number {
  return shop.price() + helper(2);
}
'''}


def test_a_deletion_across_a_closing_brace_leaves_the_class_unchanged(tmp_path: Path) -> None:
    """Deleting a class's last method and the function after the class, git removes the
    class's `}` and keeps the function's (the same text): the class read as changed. The
    two equal lines are swapped back: both removals, no changed symbol."""
    repo = feature_branch(tmp_path / "repo", TS_SHOP,
                          ("a.ts", "\n  price(): number {\n    return 3;\n  }\n", ""),
                          ("a.ts", "\nexport function helper(x: number): number {\n"
                                   "  return x * 2;\n}\n", ""))
    hunks = changed_hunks(repo.path, repo.git("rev-parse", "main"))["a.ts"]
    assert [(h.old_start, h.old_count) for h in hunks] == [(5, 8)]  # git's: lines 5-12

    data = _pr(tmp_path / "cli", TS_SHOP,
               ("a.ts", "\n  price(): number {\n    return 3;\n  }\n", ""),
               ("a.ts", "\nexport function helper(x: number): number {\n"
                        "  return x * 2;\n}\n", ""))

    assert _changed(data) == set()
    assert [(r["qualified"], r["references"]) for r in data["removed"]] == [
        ("Shop.price", 2), ("helper", 2)]


def test_a_method_a_base_outside_the_repository_may_provide_claims_nothing(
        tmp_path: Path) -> None:
    """Removing an override from a class whose base is a library's (a Django model's
    `archive`), the calls may now reach the base's method: the comment lists the removal but
    neither names those calls as broken nor says nothing references it."""
    files = {"shop.py": "from django.db import models\n\n\nclass Order(models.Model):\n"
                        "    def archive(self):\n        return 1\n\n    def total(self):\n"
                        "        return 2\n",
             "jobs.py": "from shop import Order\n\n\ndef nightly(o: Order):\n"
                        "    return o.archive()\n"}
    data = _pr(tmp_path, files, ("shop.py", "    def archive(self):\n        return 1\n\n", ""))

    (removed,) = data["removed"]
    assert (removed["qualified"], removed["references"], removed["left_behind"]) == (
        "Order.archive", None, [])
    assert "`Order.archive` (method) — **removed** (the base has it at `shop.py:5`); its type " \
           "inherits from outside the repository, which may still answer its calls" \
           in data["markdown"]
    assert data["sections"]["impact"] == []


def test_removals_past_the_lists_room_are_counted(tmp_path: Path) -> None:
    """A deleted module of ten functions: the comment lists eight and counts the rest."""
    module = "".join(f"def step_{k}(x):\n    return x + {k}\n\n\n" for k in range(10))
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    repo.commit("start", {"steps.py": module, "main.py": "def main():\n    return 0\n"})
    repo.git("checkout", "-q", "-b", "drop")
    (repo.path / "steps.py").unlink()
    repo.commit("drop steps.py")

    out = graphiq("context", "--base", "main", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    assert "· **10** removed ·" in out.stdout
    assert out.stdout.count("— **removed**") == 8
    assert "- … and 2 more removed\n" in out.stdout


def test_a_nested_function_removed_while_its_parent_still_calls_it(tmp_path: Path) -> None:
    files = {"steps.py": "def outer(x):\n    def helper(y):\n        return y + 1\n\n"
                         "    return helper(x)\n"}
    data = _pr(tmp_path, files, ("steps.py", "    def helper(y):\n        return y + 1\n\n", ""))

    (removed,) = data["removed"]
    assert removed["qualified"] == "outer.helper"
    assert [(s["caller"], s["line"]) for s in removed["left_behind"]] == [("outer", 2)]


def test_a_namesake_from_another_module_is_not_left_behind(tmp_path: Path) -> None:
    """`headers::Host` in a test is another crate's type, though the refs table records it
    as `Host`: removing the crate's own `Host` lists the code that imports it only (axum's
    removal of axum-extra's `Host` listed four tests using `headers::Host`)."""
    files = {"src/lib.rs": "mod host;\nmod user;\n",
             "src/host.rs": "pub struct Host {\n    pub name: String,\n}\n\n"
                            "pub fn port() -> u16 {\n    80\n}\n",
             "src/user.rs": "use crate::host::Host;\n\npub fn name(h: Host) -> String {\n"
                            "    h.name\n}\n",
             "tests/named.rs": "use headers;\n\nstruct Extractor {\n"
                               "    host: headers::Host,\n}\n"}
    data = _pr(tmp_path, files,
               ("src/host.rs", "pub struct Host {\n    pub name: String,\n}\n\n", ""))

    (removed,) = data["removed"]
    assert removed["qualified"] == "Host"
    assert {s["file"] for s in removed["left_behind"]} == {"src/user.rs"}


def test_another_packages_type_of_the_same_name_is_not_left_behind(tmp_path: Path) -> None:
    """Go: removing the package's own `Buffer`, `bytes.Buffer` in the same package is the
    standard library's (bubbletea's tests held 46 such uses); `Buffer{}` is the removed one."""
    files = {"buffer.go": "package main\n\ntype Buffer struct {\n\tcells []rune\n}\n\n"
                          "func Width() int {\n\treturn 80\n}\n",
             "render.go": "package main\n\nimport \"bytes\"\n\nfunc render() int {\n"
                          "\tvar out bytes.Buffer\n\tb := Buffer{}\n\treturn out.Len() + "
                          "len(b.cells)\n}\n"}
    data = _pr(tmp_path, files,
               ("buffer.go", "type Buffer struct {\n\tcells []rune\n}\n\n", ""))

    (removed,) = data["removed"]
    assert removed["qualified"] == "Buffer"
    assert [(s["caller"], s["line"]) for s in removed["left_behind"]] == [("render", 7)]


def test_a_call_through_the_removals_module_is_left_behind(tmp_path: Path) -> None:
    """`tuple::generate()` (Rust's `mod tuple;`) and `jobs.nightly()` (`import jobs`) name
    the removed function through its module: the call now fails. A namesake in another
    module (`enum_::generate`) keeps its calls, and so does a call through that module."""
    rust = {"src/lib.rs": "mod enum_;\nmod tuple;\n\npub fn expand() -> u8 {\n"
                          "    tuple::generate() + enum_::generate()\n}\n",
            "src/enum_.rs": "pub fn generate() -> u8 {\n    1\n}\n",
            "src/tuple.rs": "pub fn generate() -> u8 {\n    2\n}\n\npub fn size() -> u8 {\n"
                            "    3\n}\n"}
    data = _pr(tmp_path / "rust", rust,
               ("src/tuple.rs", "pub fn generate() -> u8 {\n    2\n}\n\n", ""))
    (removed,) = data["removed"]
    assert (removed["qualified"], removed["file"]) == ("generate", "src/tuple.rs")
    assert [(s["caller"], s["file"], s["line"]) for s in removed["left_behind"]] == [
        ("expand", "src/lib.rs", 5)]

    python = {"jobs.py": "def nightly():\n    return 1\n\n\ndef hourly():\n    return 2\n",
              "cron.py": "import jobs\n\n\ndef run():\n    return jobs.nightly() + jobs.hourly()\n"}
    data = _pr(tmp_path / "python", python,
               ("jobs.py", "def nightly():\n    return 1\n\n\n", ""))
    (removed,) = data["removed"]
    assert [(s["caller"], s["file"], s["line"]) for s in removed["left_behind"]] == [
        ("run", "cron.py", 5)]


def test_a_call_on_a_type_imported_from_elsewhere_is_not_left_behind(tmp_path: Path) -> None:
    """`sdk.py` imports its `Client` from a package outside the repository: its
    `c.ping()` is that Client's, not the one whose method the branch removed (serde moved
    `ContentVisitor` to another crate and listed the file importing it from there)."""
    files = {"client.py": CLIENT, "jobs.py": JOBS,
             "sdk.py": "from vendor_sdk import Client\n\n\ndef probe(c: Client):\n"
                       "    return c.ping(4)\n"}
    data = _pr(tmp_path, files,
               ("client.py", "    def ping(self, n):\n        return n + 1\n\n", ""))
    (removed,) = data["removed"]
    assert [s["file"] for s in removed["left_behind"]] == ["client.py", "jobs.py", "jobs.py"]

    # imported through a package that passes it on, it is the removal's type
    package = {"pkg/__init__.py": "from .client import Client\n", "pkg/client.py": CLIENT,
               "run.py": "from pkg import Client\n\n\ndef probe(c: Client):\n"
                         "    return c.ping(5)\n"}
    data = _pr(tmp_path / "package", package,
               ("pkg/client.py", "    def ping(self, n):\n        return n + 1\n\n", ""))
    (removed,) = data["removed"]
    assert [s["file"] for s in removed["left_behind"]] == ["pkg/client.py", "run.py"]


def test_a_go_call_through_the_removals_package_is_left_behind(tmp_path: Path) -> None:
    """Go's import names a folder: `tui.NewLight()` goes through the package, whichever of
    its files the import resolved to (here `tui/tui.go`, not the removal's `light.go`)."""
    files = {"go.mod": "module example.com/shop\n",
             "tui/tui.go": "package tui\n\nfunc New() int {\n\treturn 1\n}\n",
             "tui/light.go": "package tui\n\nfunc NewLight() int {\n\treturn 2\n}\n\n"
                             "func Dim() int {\n\treturn 3\n}\n",
             "main.go": "package main\n\nimport \"example.com/shop/tui\"\n\nfunc main() {\n"
                        "\t_ = tui.New() + tui.NewLight()\n}\n"}
    data = _pr(tmp_path, files,
               ("tui/light.go", "func NewLight() int {\n\treturn 2\n}\n\n", ""))
    (removed,) = data["removed"]
    assert (removed["qualified"], removed["file"]) == ("NewLight", "tui/light.go")
    assert [(s["caller"], s["file"], s["line"]) for s in removed["left_behind"]] == [
        ("main", "main.go", 6)]

    # a type named through the package: `tui.Lamp`
    files["tui/light.go"] += "\ntype Lamp struct {\n\tOn bool\n}\n"
    files["main.go"] += "\nfunc shine(l tui.Lamp) bool {\n\treturn l.On\n}\n"
    data = _pr(tmp_path / "type", files,
               ("tui/light.go", "\ntype Lamp struct {\n\tOn bool\n}\n", ""))
    (removed,) = data["removed"]
    assert (removed["qualified"], removed["kind"]) == ("Lamp", "struct")
    assert [(s["caller"], s["file"]) for s in removed["left_behind"]] == [
        ("shine", "main.go")]

    # a constant read through the package: `tui.Glow`
    files["tui/light.go"] += "\nconst Glow = 4\n"
    files["main.go"] += "\nfunc level() int {\n\treturn tui.Glow\n}\n"
    data = _pr(tmp_path / "constant", files, ("tui/light.go", "\nconst Glow = 4\n", ""))
    (removed,) = data["removed"]
    assert (removed["qualified"], removed["kind"]) == ("Glow", "constant")
    assert [(s["caller"], s["file"]) for s in removed["left_behind"]] == [("level", "main.go")]
