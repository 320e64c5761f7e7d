"""`graphiq-ci affected`: the real CLI on the shop's branches, and its pytest arguments run
under the real pytest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .shop import Repo, clean_env, feature_branch, graphiq, make_shop

TEST_CHECKOUT = '''from checkout import checkout


def test_checkout_charges_the_total():
    assert checkout([{"price": 3}, {"price": 4}])["amount"] == 7
'''
TEST_SHIPPING = '''from shipping import ship


def test_ship():
    assert ship("o1")["shipped"] == "o1"
'''


@pytest.fixture
def shop(tmp_path: Path) -> Repo:
    """The shop plus a test two hops from `charge` (test → checkout → charge) and one that
    never reaches it, committed on main before `feature` forked."""
    repo = make_shop(tmp_path / "shop")
    repo.git("checkout", "-q", "main")
    repo.git("reset", "-q", "--hard", "HEAD~1")  # drop "main moves on": fork point stays
    repo.commit("more tests", {"tests/test_checkout.py": TEST_CHECKOUT,
                               "tests/test_shipping.py": TEST_SHIPPING})
    repo.git("checkout", "-q", "feature")
    repo.git("rebase", "-q", "main")
    return repo


def affected(repo: Repo, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    if stdin is None:
        return graphiq("affected", *args, cwd=repo.path)
    return subprocess.run([sys.executable, "-m", "graphiq_ci", "affected", *args],
                          cwd=repo.path, env=clean_env(), input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_a_test_two_hops_away_is_found_with_its_path_and_chain(shop: Repo) -> None:
    out = affected(shop, "--all", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_id = {c["id"]: c for f in data["files"] for c in f["cases"]}
    assert set(by_id) == {"tests/test_billing.py::test_charge_positive",
                          "tests/test_checkout.py::test_checkout_charges_the_total"}
    assert by_id["tests/test_checkout.py::test_checkout_charges_the_total"]["via"] == [
        "test_checkout_charges_the_total", "checkout", "charge"]
    assert data["compared_with"]["ref"] == "main"
    text = affected(shop, "--all").stdout
    assert "`tests/test_checkout.py::test_checkout_charges_the_total`: " \
           "`test_checkout_charges_the_total` → `checkout` → `charge`" in text
    assert "test_shipping" not in text


def test_only_the_strongest_evidence_is_listed_unless_all_is_asked(shop: Repo) -> None:
    """test_billing calls the changed `charge` and is named after billing.py; test_checkout
    only reaches it through `checkout`. The default lists the first and names the second as
    weaker; `--all` lists both, strongest first."""
    data = json.loads(affected(shop, "--format", "json").stdout)
    assert [f["path"] for f in data["files"]] == ["tests/test_billing.py"]
    assert data["weaker"] == ["tests/test_checkout.py"]
    assert affected(shop, "--format", "pytest").stdout == \
        "tests/test_billing.py::test_charge_positive\n"
    assert "1 more with weaker evidence (`--all`, or `everything` over MCP, lists them): " \
        "`tests/test_checkout.py`" in affected(shop).stdout
    every = json.loads(affected(shop, "--all", "--format", "json").stdout)
    assert [f["path"] for f in every["files"]] == ["tests/test_billing.py",
                                                   "tests/test_checkout.py"]
    assert every["weaker"] == []


def test_pytest_runs_exactly_the_affected_tests(shop: Repo) -> None:
    out = affected(shop, "--all", "--format", "pytest")
    assert out.returncode == 0, out.stderr
    selected = out.stdout.split()
    assert sorted(selected) == ["tests/test_billing.py::test_charge_positive",
                                "tests/test_checkout.py::test_checkout_charges_the_total"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                          *selected], cwd=shop.path, env=clean_env(), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    ran = sorted(line.split()[1] for line in run.stdout.splitlines()
                 if line.startswith("PASSED "))  # -rA names each test that ran
    assert ran == sorted(selected) and "2 passed" in run.stdout, run.stdout


def test_hostile_file_names_stay_one_argument_each(shop: Repo) -> None:
    """A test file whose name holds a line break cannot be a line of pytest arguments: it is
    left out, and said; one whose name starts with `-` is passed as `./-…`, which pytest does
    not read as an option. Plain `search` prints the first quoted, on one line."""
    body = 'from billing import charge\n\n\ndef test_{}():\n    assert charge(5)["amount"] == 5\n'
    shop.commit("odd names", {"-charge_test.py": body.format("dash"),
                              "tests/test_odd\nname.py": body.format("odd")})
    out = affected(shop, "--all", "--format", "pytest")
    assert out.returncode == 0, out.stderr
    args = out.stdout.splitlines()
    assert "./-charge_test.py" in args
    assert not [a for a in args if "odd" in a or a.startswith("name.py")], args
    assert "left out of the pytest arguments, its name holds a control character: " \
        '"tests/test_odd\\nname.py"' in out.stderr
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                         cwd=shop.path, env=clean_env(), capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(args)} passed" in run.stdout and "test_odd" not in run.stdout, run.stdout
    hits = graphiq("search", "test_odd", cwd=shop.path).stdout.splitlines()
    assert '"tests/test_odd\\nname.py":4  test_odd  [function]' in hits, hits
    explained = graphiq("search", "test_odd", "--explain", cwd=shop.path).stdout
    assert '[function]  "tests/test_odd\\nname.py":4  score ' in explained, explained


def test_a_changed_test_file_is_affected_by_its_own_change(shop: Repo) -> None:
    """test_shipping reaches nothing the branch changed; editing it puts it in, whole."""
    assert "test_shipping" not in affected(shop).stdout
    shop.edit("tests/test_shipping.py", '"o1"', '"o2"')
    out = affected(shop, "--format", "pytest")
    assert out.returncode == 0, out.stderr
    assert "tests/test_shipping.py" in out.stdout.split()  # the file, not one of its ids
    files = {f["path"]: f for f in json.loads(affected(shop, "--format", "json").stdout)["files"]}
    assert files["tests/test_shipping.py"]["changed"] is True
    assert files["tests/test_shipping.py"]["cochanged"] is None


def test_nothing_reached_is_an_empty_list_and_exit_0(shop: Repo) -> None:
    shop.git("checkout", "-q", "-b", "docs", "main")
    shop.commit("docs", {"NOTES.md": "nothing to test\n"})
    out = affected(shop, "--format", "pytest")
    assert out.returncode == 0 and out.stdout == "", (out.stdout, out.stderr)
    assert affected(shop).stdout.startswith("No test reaches what changed compared with")


def test_changed_paths_from_stdin(shop: Repo) -> None:
    out = affected(shop, "--stdin", "--format", "pytest", stdin="shipping.py\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["tests/test_shipping.py::test_ship"]


def test_bad_input_is_one_line_and_exit_2(shop: Repo, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.py").write_text("def a():\n    return 1\n")
    for out, says in ((affected(shop, "--base", "no-such-ref"), "no-such-ref"),
                      (affected(shop, "--format", "yaml"), "unknown format 'yaml'"),
                      (graphiq("affected", "--repo", str(plain), cwd=plain),
                       "is not a git repository")):
        assert out.returncode == 2, out.stdout
        assert says in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "tests/../../x.py"])
def test_stdin_paths_outside_the_repository_are_refused_in_one_line(shop: Repo,
                                                                    path: str) -> None:
    out = affected(shop, "--stdin", stdin=f"billing.py\n{path}\n")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == f"graphiq-ci: {path!r} is not a path inside the repository"


def test_the_pr_comment_lists_a_test_two_calls_away_with_its_chain(shop: Repo) -> None:
    """#11: tests reach the change by calls within two hops, each shown with its path."""
    out = graphiq("context", "--diff", cwd=shop.path)
    assert out.returncode == 0, out.stderr
    tests = out.stdout.split("Tests that reach the changed code", 1)[1].split("</details>")[0]
    assert ("- `test_checkout_charges_the_total` in `tests/test_checkout.py:4`, via "
            "`checkout` → `charge`") in tests
    assert "- `test_charge_positive` in `tests/test_billing.py:4`" in tests
    assert "test_ship" not in tests
    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=shop.path).stdout)
    names = {s["id"]: s["qualified"] for s in data["symbols"]}
    assert [names[i] for i in data["sections"]["tests"]] == [
        "test_charge_positive", "test_checkout_charges_the_total"]
    assert list(data["test_chains"].values()) == [
        ["test_checkout_charges_the_total", "checkout", "charge"]]


def test_the_pr_diagram_holds_only_the_sections_with_a_legend(shop: Repo) -> None:
    """#11: the 23-node diagram mixed in unrelated nodes and had no legend for its shapes."""
    out = graphiq("context", "--diff", "--diagram", cwd=shop.path)
    assert out.returncode == 0, out.stderr
    chart = out.stdout.split("```mermaid\n", 1)[1].split("```", 1)[0]
    nodes = sorted(line.strip().split(" ", 1)[0][2:] for line in chart.splitlines()
                   if line.startswith("  n") and "-->" not in line)
    assert nodes == sorted(['[["charge"]]', '("checkout")', '{{"test_charge_positive"}}',
                            '{{"test_checkout_charges_the_total"}}']), chart
    assert "Shapes: a double box is a changed symbol, a rounded box a caller, a hexagon a " \
           "test." in out.stdout


CLI_TEST = '''import subprocess


def test_the_cli_prints_the_invoice():
    out = subprocess.run(["python", "-m", "invoice"], capture_output=True, text=True)
    assert "total" in out.stdout
'''


def test_a_test_no_call_reaches_is_found_from_history_and_marked_as_such(tmp_path: Path) -> None:
    """A CLI test runs the code in a subprocess: no call edge links them, but every commit
    that changed invoice.py on main (the first one included) also changed its test."""
    repo = Repo(tmp_path / "repo")
    repo.git("init", "-q", "-b", "main")
    repo.commit("start", {"invoice.py": "def render(total):\n    return f'total {total}'\n",
                          "tests/test_invoice_cli.py": CLI_TEST,
                          "tests/test_other.py": "def test_other():\n    assert True\n",
                          "other.py": "def other():\n    return 0\n"})
    for n in range(3):
        repo.commit(f"invoice v{n}", {
            "invoice.py": f"def render(total):\n    return f'total {{total}} v{n}'\n",
            "tests/test_invoice_cli.py": CLI_TEST + f"# v{n}\n"})
        repo.commit(f"other v{n}", {"other.py": f"def other():\n    return {n + 1}\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.edit("invoice.py", "v2'", "v3'")
    repo.commit("invoice v3")

    out = affected(repo, "--format", "json")

    assert out.returncode == 0, out.stderr
    (found,) = json.loads(out.stdout)["files"]
    assert found["path"] == "tests/test_invoice_cli.py" and found["cases"] == []
    assert (found["cochanged"]["partner"], found["cochanged"]["together"]) == ("invoice.py", 4)
    text = affected(repo).stdout
    assert ("- `tests/test_invoice_cli.py` (no call links it, but it was edited in 2 of the 2 "
            "commits that last wrote the changed definitions, and it changed with `invoice.py` "
            "in 4 of 5 commits)") in text, text  # the branch's own commit counts too
    assert affected(repo, "--format", "pytest").stdout == "tests/test_invoice_cli.py\n"


RESPONSE_JS = '''var res = module.exports = {};

res.send = function send(body) {
  this.end(String(body));
  return this;
};

res.json = function json(obj) {
  return this.send(JSON.stringify(obj));
};
'''
HTTP_TEST = '''var request = require('supertest');
var app = require('./support/app');

describe('res.{name}()', function () {{
  it('answers', function (done) {{
    request(app).get('/').expect(200, done);
  }});
}});
'''
PARSE_CLI_TEST = '''import subprocess


def test_parse_from_the_command_line():
    out = subprocess.run(["python", "-m", "parse", "1,2"], capture_output=True, text=True)
    assert out.stdout == "[1, 2]\\n"
'''


def test_a_test_file_named_after_a_changed_file_or_definition_is_affected(tmp_path: Path) -> None:
    """Suites that drive the code over HTTP or in a subprocess have no call edge to it, but
    their file is named after what they test: `test/res.send.js` for `res.send`,
    `tests/test_parse.py` for `parse.py`. A suite named after what did not change stays out.
    `affected` and the PR comment list the same files."""
    repo = feature_branch(tmp_path / "repo", {
        "lib/response.js": RESPONSE_JS,
        "test/res.send.js": HTTP_TEST.format(name="send"),
        "test/res.json.js": HTTP_TEST.format(name="json"),
        "parse.py": "def parse(text):\n    return [int(x) for x in text.split(',')]\n",
        "tests/test_parse.py": PARSE_CLI_TEST,
        "tests/test_format.py": PARSE_CLI_TEST.replace("parse_from", "format_from"),
    }, ("lib/response.js", "String(body)", "Buffer.from(String(body))"),
        ("parse.py", "int(x)", "int(x.strip())"))

    out = affected(repo, "--format", "json")

    assert out.returncode == 0, out.stderr
    files = {f["path"]: f for f in json.loads(out.stdout)["files"]}
    assert set(files) == {"test/res.send.js", "tests/test_parse.py"}
    assert files["test/res.send.js"]["named_after"] == "send"  # `res.send = function send`
    assert files["tests/test_parse.py"]["named_after"] == "parse.py"
    assert all(f["cases"] == [] for f in files.values())
    text = affected(repo).stdout
    assert ("- `test/res.send.js` (no call links it, but it is named after `send`, which "
            "changed)") in text, text
    comment = graphiq("context", "--base", "main", cwd=repo.path)
    assert comment.returncode == 0, comment.stderr
    tests = comment.stdout.split("Tests that reach the changed code")[1].split("</details>")[0]
    assert "- `test/res.send.js`: no call links it, but it is named after send, which " \
           "changed" in tests, tests
    assert "tests/test_parse.py" in tests and "res.json" not in tests
    data = json.loads(graphiq("context", "--base", "main", "--format", "json",
                              cwd=repo.path).stdout)
    assert {f["path"] for f in data["named_tests"]} == {"test/res.send.js", "tests/test_parse.py"}


def test_a_name_many_test_files_share_picks_the_nearest_folder_or_none(tmp_path: Path) -> None:
    """`test_tutorial001.py` sits in one folder per chapter: the one whose folders match the
    changed example's is meant. `test_helpers.py` in four unrelated folders says nothing."""
    chapters = ("arguments", "options", "commands")
    files = {f"docs_src/{c}/tutorial001.py": f"def main():\n    return '{c}'\n" for c in chapters}
    # the suites run the examples in a subprocess, as typer's do: no call edge reaches them
    files |= {f"tests/test_tutorial/test_{c}/test_tutorial001.py": CLI_TEST for c in chapters}
    files["app/helpers.py"] = "def helper():\n    return 1\n"
    files |= {f"tests/{area}/test_helpers.py": CLI_TEST
              for area in ("billing", "shipping", "search", "auth")}
    repo = feature_branch(tmp_path / "repo", files,
                          ("docs_src/options/tutorial001.py", "'options'", "'options!'"),
                          ("app/helpers.py", "1", "2"))

    out = affected(repo, "--format", "json")

    assert out.returncode == 0, out.stderr
    assert [f["path"] for f in json.loads(out.stdout)["files"]] == [
        "tests/test_tutorial/test_options/test_tutorial001.py"]


REQUEST_JS = '''var req = module.exports = {};

function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, { configurable: true, enumerable: true, get: getter });
}

defineGetter(req, 'protocol', function protocol(){
  return this.connection.encrypted ? 'https' : 'http';
});

defineGetter(req, 'secure', function secure(){
  return this.protocol === 'https';
});
'''


def test_a_getter_defined_by_a_top_level_call_is_a_changed_definition(tmp_path: Path) -> None:
    """Express defines `req.protocol` as `defineGetter(req, 'protocol', function protocol(){…})`:
    a change inside it changed no definition the index knew, so `affected` found nothing.
    The named function is the definition now, and its suite is named after it."""
    repo = feature_branch(tmp_path / "repo", {
        "lib/request.js": REQUEST_JS,
        "test/req.protocol.js": HTTP_TEST.format(name="protocol").replace("res.", "req."),
        "test/req.secure.js": HTTP_TEST.format(name="secure").replace("res.", "req."),
    }, ("lib/request.js", "this.connection.encrypted", "this.socket.encrypted"))

    data = json.loads(affected(repo, "--format", "json").stdout)

    assert [c["qualified"] for c in data["changed"]] == ["protocol"]
    assert [(f["path"], f["named_after"]) for f in data["files"]] == [
        ("test/req.protocol.js", "protocol")]


MEMOIZE_EXTENSION = '''package com.acme.memoized.processor;

public final class MemoizeExtension {
  public String generate(String name) {
    return "memoized " + name;
  }
}
'''
COMPILED_TEST = '''package com.acme.{area};

public class {name} {{
  // compiles a source string with the processor: no call reaches the extension
  String source = "@{area} class Value {{}}";

  public void test{name}() {{
    assert source.length() > 0;
  }}
}}
'''


def test_a_test_file_named_after_the_folder_of_a_change_is_affected(tmp_path: Path) -> None:
    """Suites that run a processor on source strings reach no extension by calls, and are
    named after the feature's folder (`MemoizedTest` for `memoized/processor/`). A suite
    named after a folder the change is not in stays out."""
    repo = feature_branch(tmp_path / "repo", {
        "value/src/main/java/com/acme/memoized/processor/MemoizeExtension.java":
            MEMOIZE_EXTENSION,
        "value/src/test/java/com/acme/memoized/MemoizedTest.java":
            COMPILED_TEST.format(area="memoized", name="MemoizedTest"),
        "value/src/test/java/com/acme/serializable/SerializableTest.java":
            COMPILED_TEST.format(area="serializable", name="SerializableTest"),
    }, ("value/src/main/java/com/acme/memoized/processor/MemoizeExtension.java",
        '"memoized "', '"memoized: "'))

    out = affected(repo, "--all", "--format", "json")

    assert out.returncode == 0, out.stderr
    files = {f["path"]: f for f in json.loads(out.stdout)["files"]}
    assert set(files) == {"value/src/test/java/com/acme/memoized/MemoizedTest.java"}
    folder = "value/src/main/java/com/acme/memoized/"
    assert files["value/src/test/java/com/acme/memoized/MemoizedTest.java"]["named_after"] \
        == folder
    assert (f"(no call links it, but it is named after the folder `{folder}`, where the "
            "change is)") in affected(repo).stdout
    data = json.loads(graphiq("context", "--base", "main", "--format", "json",
                              cwd=repo.path).stdout)
    assert [(f["path"], f["reasons"]) for f in data["named_tests"]] == [
        ("value/src/test/java/com/acme/memoized/MemoizedTest.java",
         [f"named after the folder {folder}, where the change is"])]


def test_a_test_in_a_sibling_packages_sources_is_not_named_after_the_folder(
        tmp_path: Path) -> None:
    """In a workspace of packages, `macros/src/core_test.rs` tests the `macros` package: it
    is not named after the folder `core/` of the sibling package the change is in (as
    axum-macros' `axum_test.rs` was listed for a change in `axum/`). A suite outside any
    package's sources, `core/tests/core_test.rs`, is."""
    files = {"core/src/routing.rs": "pub fn route(p: &str) -> usize {\n    p.len()\n}\n",
             "macros/src/core_test.rs": "#[test]\nfn expands() {\n    assert_eq!(1, 1);\n}\n"}
    edit = ("core/src/routing.rs", "p.len()", "p.len() + 1")
    repo = feature_branch(tmp_path / "sibling", files, edit)

    out = affected(repo, "--all", "--format", "json")

    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["files"] == []
    files["core/tests/core_test.rs"] = "#[test]\nfn routes() {\n    assert_eq!(2, 2);\n}\n"
    repo = feature_branch(tmp_path / "own", files, edit)
    found = json.loads(affected(repo, "--all", "--format", "json").stdout)["files"]
    assert [(f["path"], f["named_after"]) for f in found] == [("core/tests/core_test.rs", "core/")]


def test_a_test_file_named_after_a_changed_type_without_the_projects_prefix(
        tmp_path: Path) -> None:
    """Where a file's types share a project prefix (`ZapNumber`, `ZapString`, … as zod's
    `$ZodNumber`), its suites drop it: `number.test.ts` tests `ZapNumber`. A prefix few of
    the file's types share (`Helper`) is part of the name."""
    kinds = ["Number", "String", "Boolean", "Date", "Array", "Object", "Tuple", "Union",
             "Record", "Enum", "Literal", "Promise"]
    schemas = "".join(f"export class Zap{k} {{\n  parse(x: unknown) {{ return x; }}\n}}\n\n"
                      for k in kinds) + "export class HelperText {\n  run() { return 1; }\n}\n"
    suite = "import {{ run }} from './harness';\n\ntest('{k}', () => run('{k}'));\n"
    repo = feature_branch(tmp_path / "repo", {
        "src/schemas.ts": schemas,
        "tests/number.test.ts": suite.format(k="number"),
        "tests/string.test.ts": suite.format(k="string"),
        "tests/text.test.ts": suite.format(k="text"),
    }, ("src/schemas.ts", "export class ZapNumber {", "export class ZapNumber extends Object {"),
        ("src/schemas.ts", "export class HelperText {", "export class HelperText extends Object {"))

    out = affected(repo, "--all", "--format", "json")

    assert out.returncode == 0, out.stderr
    files = {f["path"]: f["named_after"] for f in json.loads(out.stdout)["files"]}
    assert files == {"tests/number.test.ts": "ZapNumber"}


def test_a_module_file_is_named_by_its_folder(tmp_path: Path) -> None:
    """`src/de/mod.rs` is the `de` module: `tests/test_de.rs` is named after it, and a test
    helper module (`tests/common/mod.rs`) is named after nothing."""
    repo = feature_branch(tmp_path / "repo", {
        "Cargo.toml": "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
        "src/lib.rs": "pub mod de;\n",
        "src/de/mod.rs": "pub fn from_str(s: &str) -> usize {\n    s.len()\n}\n",
        "tests/common/mod.rs": "pub fn sample() -> &'static str {\n    \"abc\"\n}\n",
        "tests/test_de.rs": "mod common;\n\n#[test]\nfn reads() {\n    assert_eq!(3, 3);\n}\n",
    }, ("src/de/mod.rs", "s.len()", "s.trim().len()"))

    out = affected(repo, "--all", "--format", "json")

    assert out.returncode == 0, out.stderr
    assert {f["path"]: f["named_after"] for f in json.loads(out.stdout)["files"]} == {
        "tests/test_de.rs": "src/de/mod.rs"}
