"""Two definitions with one qualified name (Java overloads, a Python property and its setter)
are two callers: a call inside the second is the second's, at its own line.

Before, references were tied to their enclosing definition by qualified name, so the index
gave every call inside the second `parse` to the first, and the comment said "`Parser.parse`
calls it at Parser.java:4", the first overload's first line, where no call is (seen on
jsoup's `CombiningEvaluator.And`). Real repos, real branches, the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .shop import feature_branch, graphiq

JAVA = {
    "src/main/java/sel/And.java": '''package sel;

public class And {
    int n;

    And(int n) {
        this.n = n;
    }
}
''',
    "src/main/java/sel/Parser.java": '''package sel;

public class Parser {
    public static And parse(String query) {
        Parser p = new Parser();
        return p.parse();
    }

    And parse() {
        int n = 2;
        return new And(n);
    }
}
''',
}
PYTHON = {
    "paths.py": '''def normalise(value):
    return value.strip("/")
''',
    "config.py": '''from paths import normalise


class Config:
    @property
    def root(self):
        return self._root

    @root.setter
    def root(self, value):
        self._root = normalise(value)
''',
}


@pytest.mark.parametrize("files, edit, changed, caller, at", [
    (JAVA, ("src/main/java/sel/And.java", "    And(int n) {", "    public And(int n) {"),
     "And.And", "Parser.parse", "src/main/java/sel/Parser.java:11"),
    (PYTHON, ("paths.py", 'value.strip("/")', 'value.strip("/ ")'),
     "normalise", "Config.root", "config.py:11"),
])
def test_a_call_inside_a_second_namesake_is_listed_at_its_own_line(
        tmp_path: Path, files: dict[str, str], edit: tuple[str, str, str], changed: str,
        caller: str, at: str) -> None:
    repo = feature_branch(tmp_path / "repo", files, edit)

    out = graphiq("context", "--diff", "--format", "json", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    [change] = [c for c in data["changes"] if by_id.get(c["id"]) == changed]
    sites = [(s["caller"], f'{s["file"]}:{s["line"]}') for s in change["call_sites"]]
    assert sites == [(caller, at)]


def test_an_overload_handing_on_to_its_namesake_is_no_hop(tmp_path: Path) -> None:
    """`ParserTest` calls the static `parse(String)`, which hands on to `parse()`, which
    calls `new And(n)`: three calls, but the first two are one method to a caller, so the
    test is two hops from the constructor, as near as the comment's tests may be."""
    files = {**JAVA, "src/test/java/sel/ParserTest.java": '''package sel;

import org.junit.jupiter.api.Test;

public class ParserTest {
    @Test
    public void testParsesTwo() {
        Parser.parse("x");
    }
}
'''}
    repo = feature_branch(tmp_path / "repo", files,
                          ("src/main/java/sel/And.java", "this.n = n;", "this.n = n + 0;"))

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    tests = out.stdout.split("Tests that reach the changed code", 1)[1].split("</details>")[0]
    assert ("- `ParserTest.testParsesTwo` in `src/test/java/sel/ParserTest.java:6`, via "
            "`Parser.parse` → `Parser.parse` → `And.And`") in tests, out.stdout


def test_a_junit_test_is_a_test_case_whatever_its_name(tmp_path: Path) -> None:
    """JUnit picks `@Test` methods, not names: `parsesTwo` is a test case (nothing calls it),
    `parse` is its helper (a test calls it). In Python a runner picks by name, so an uncalled
    `check_root` in a test file is no test case."""
    files = {**JAVA, **PYTHON,
             "src/test/java/sel/ParserTest.java": '''package sel;

import org.junit.jupiter.api.Test;

public class ParserTest {
    @Test
    public void parsesTwo() {
        parse();
    }

    private void parse() {
        Parser.parse("x");
    }
}
''',
             "tests/test_paths.py": '''from paths import normalise


def check_root():
    assert normalise("/a/") == "a"
'''}
    repo = feature_branch(tmp_path / "repo", files,
                          ("src/main/java/sel/And.java", "this.n = n;", "this.n = n + 0;"),
                          ("paths.py", 'value.strip("/")', 'value.strip("/ ")'))

    out = graphiq("affected", "--all", "--format", "json", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    cases = {f["path"]: {c["via"][0]: c["id"] for c in f["cases"]}
             for f in json.loads(out.stdout)["files"]}
    assert cases["src/test/java/sel/ParserTest.java"] == {
        "ParserTest.parsesTwo": "src/test/java/sel/ParserTest.java::ParserTest::parsesTwo",
        "ParserTest.parse": ""}  # a helper: reached, but no runner selects it
    assert cases["tests/test_paths.py"] == {"check_root": ""}
