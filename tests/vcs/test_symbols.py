from __future__ import annotations

import re

from graphiq_ci.vcs import ChangedSymbol, Hunk, changed_hunks, changed_symbols


def python_spans(path: str, text: str) -> list[tuple[str, str, int, int]]:
    """Toy indexer: a def/class spans to its last indented line (enough for these tests)."""
    lines = text.splitlines()
    spans = []
    stack: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        match = re.match(r"( *)(?:def|class) (\w+)", line)
        if not match:
            continue
        indent = len(match.group(1))
        stack = [(i, q) for i, q in stack if i < indent]
        qualified = ".".join([q.split(".")[-1] for _, q in stack] + [match.group(2)])
        stack.append((indent, qualified))
        end = number
        for later in range(number + 1, len(lines) + 1):
            body = lines[later - 1]
            if body.strip() and len(body) - len(body.lstrip()) <= indent:
                break
            if body.strip():
                end = later
        spans.append((path, qualified, number, end))
    return spans


def func(name: str, body: int = 2) -> str:
    return f"def {name}():\n" + "".join(f"    {name}_{i} = {i}\n" for i in range(body)) + "\n\n"


def names(changed: list[ChangedSymbol]) -> dict[str, tuple[int, int, int]]:
    return {c.qualified: (c.added, c.removed, c.modified) for c in changed}


def run(repo, before: str, after: str) -> list[ChangedSymbol]:
    base = repo.commit({"m.py": before})
    repo.write({"m.py": after})
    return changed_symbols(changed_hunks(repo.path, base), python_spans("m.py", after))


def test_edit_inside_a_function(new_repo):
    before = func("a") + func("b")
    after = before.replace("b_1 = 1", "b_1 = 100")
    assert names(run(new_repo(), before, after)) == {"b": (0, 0, 1)}


def test_function_shifted_by_an_insertion_above_is_not_changed(new_repo):
    before = "import os\n\n\n" + func("a") + func("b")
    edited_b = func("b").replace("= 1", "= 9")
    after = "import os\nimport re\n\n\n" + func("new", 3) + func("a") + edited_b
    changed = run(new_repo(), before, after)
    assert names(changed) == {"new": (4, 0, 0), "b": (0, 0, 1)}
    b = next(c for c in changed if c.qualified == "b")
    assert (b.line, b.end_line) == (16, 18)  # reported at its new place


def test_moved_function_is_reported_once_at_its_new_place(new_repo):
    before = func("a") + func("b") + func("c")
    after = func("b") + func("c") + func("a")
    changed = run(new_repo(), before, after)
    assert names(changed) == {"a": (3, 0, 0)}
    assert (changed[0].line, changed[0].end_line) == (11, 13)


def test_moved_and_edited_function(new_repo):
    before = func("a") + func("b") + func("c")
    after = func("b") + func("a").replace("a_0 = 0", "a_0 = 42") + func("c")
    assert names(run(new_repo(), before, after)) == {"a": (3, 0, 0)}


def test_innermost_span_wins(new_repo):
    before = "class K:\n    def m(self):\n        return 1\n\n    def n(self):\n        return 2\n"
    after = before.replace("return 2", "return 3").replace("class K:", "class K(object):")
    changed = run(new_repo(), before, after)
    assert names(changed) == {"K": (0, 0, 1), "K.n": (0, 0, 1)}


def test_removed_tail_lines_are_charged_to_the_function(new_repo):
    before = func("a", 4) + func("b")
    after = before.replace("    a_2 = 2\n    a_3 = 3\n", "")
    assert names(run(new_repo(), before, after)) == {"a": (0, 2, 0)}


def test_removed_lines_inside_and_mixed_hunks():
    spans = [("p.py", "f", 1, 10), ("p.py", "g", 12, 20)]
    hunks = {
        "p.py": [Hunk(3, 2, 2, 0), Hunk(14, 1, 13, 3), Hunk(30, 4, 18, 1)],
        "other.py": [Hunk(1, 1, 1, 1)],
    }
    assert changed_symbols(hunks, spans) == [
        ChangedSymbol("p.py", "f", 1, 10, added=0, removed=2, modified=0),
        ChangedSymbol("p.py", "g", 12, 20, added=2, removed=3, modified=2),
    ]


def test_whole_function_deleted_between_others_belongs_to_nobody(new_repo):
    before = func("a") + func("gone") + func("b")
    after = func("a") + func("b")
    assert run(new_repo(), before, after) == []


def test_lines_outside_every_span_are_ignored():
    assert changed_symbols({"p.py": [Hunk(0, 0, 1, 2)]}, [("p.py", "f", 5, 9)]) == []
    assert changed_symbols({"p.py": [Hunk(0, 0, 1, 2)]}, []) == []


def test_blank_lines_change_no_definition(new_repo):
    """A method added with a blank line before it changes the method, not the class around
    it: that blank line is the class's own, and reporting the class brought every caller of
    its constructor into the PR comment. A line emptied is still a line removed."""
    before = "class C:\n    def a(self):\n        a_0 = 0\n        return a_0\n"
    after = before + "\n    def b(self):\n        return 2\n"
    assert names(run(new_repo("added"), before, after)) == {"C.b": (2, 0, 0)}
    emptied = before.replace("        a_0 = 0\n", "\n")
    assert names(run(new_repo("emptied"), before, emptied)) == {"C.a": (0, 1, 0)}
    spaced = before.replace("    def a", "\n\n    def a")  # blank lines only: nothing changed
    assert run(new_repo("spaced"), before, spaced) == []


def test_the_lines_of_a_removed_definition_change_no_survivor(new_repo):
    """Lines the caller says a removed definition took (`gone`, old-side numbers) are no
    surviving definition's loss: a method deleted whole left its class "changed"."""
    before = ("class C:\n    def a(self):\n        return 1\n\n    def b(self):\n"
              "        return 2\n\n    def c(self):\n        return 3\n")
    after = before.replace("    def b(self):\n        return 2\n\n", "")
    repo = new_repo()
    base = repo.commit({"m.py": before})
    repo.write({"m.py": after})
    hunks, spans = changed_hunks(repo.path, base), python_spans("m.py", after)
    assert names(changed_symbols(hunks, spans)) == {"C": (0, 2, 0)}
    assert changed_symbols(hunks, spans, {"m.py": {5, 6, 7}}) == []
    # what the removed definition did not take is still charged
    assert names(changed_symbols(hunks, spans, {"m.py": {6}})) == {"C": (0, 1, 0)}
