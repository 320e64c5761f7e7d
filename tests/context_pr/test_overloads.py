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
