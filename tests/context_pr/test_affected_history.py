"""`graphiq-ci affected` from the history of the changed definition itself: the tests edited in
the commits that last wrote its lines, on a real repository with real commits."""

from __future__ import annotations

import json
from pathlib import Path

from .shop import Repo, graphiq

CLI_TEST = '''import subprocess


def test_{name}():
    out = subprocess.run(["python", "-m", "invoice", "{name}"], capture_output=True, text=True)
    assert out.returncode == 0
'''


def invoice(sub: str = "0", ret: str = "subtotal", rate: str = "0",
            tax: str = "amount * rate", note: str = "") -> str:
    return (f"def total(items):{note}\n    subtotal = {sub}\n    return {ret}\n\n\n"
            f"def tax(amount):\n    rate = {rate}\n    return {tax}\n")


def history(path: Path) -> Repo:
    """invoice.py's `total` has two lines last written in commits that also edited
    test_receipts.py and pricing.py, and `tax` two written with test_rates.py and taxes.py; a
    sweep of eleven files last
    wrote `total`'s first line and edited test_sweep.py. No call links any test to the code
    (they run it in a subprocess), and no test changed with invoice.py three times, which
    file-level co-change asks."""
    repo = Repo(path)
    repo.git("init", "-q", "-b", "main")
    steps = [("start", {}, "sweep"), ("total sums", {"sub": "sum(items)"}, "receipts"),
             ("tax is a fifth", {"rate": "0.2"}, "rates"),
             ("total rounds", {"ret": "round(subtotal, 2)"}, "receipts"),
             ("tax rounds", {"tax": "round(amount * rate, 2)"}, "rates")]
    lines: dict[str, str] = {}
    for n, (message, change, test) in enumerate(steps):
        lines.update(change)
        partner = {"receipts": "pricing.py", "rates": "taxes.py"}.get(test, "setup.py")
        repo.commit(message, {"invoice.py": invoice(**lines),
                              f"tests/test_{test}.py": CLI_TEST.format(name=message[:3]) +
                              f"# {message}\n", partner: f"STEP = {n}\n"})
    repo.commit("reformat everything", {
        **{f"docs/page{n}.md": f"page {n}\n" for n in range(9)},
        "invoice.py": invoice(**lines, note="  # noqa: reformatted"),
        "tests/test_sweep.py": CLI_TEST.format(name="sweep")})
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def test_the_tests_edited_with_the_changed_definition_are_affected(tmp_path: Path) -> None:
    repo = history(tmp_path / "repo")
    repo.edit("invoice.py", "sum(items)", "sum(i['price'] for i in items)")
    repo.commit("total of prices")

    out = graphiq("affected", "--format", "json", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    files = {f["path"]: f for f in json.loads(out.stdout)["files"]}
    assert list(files) == ["tests/test_receipts.py"], files  # not tax's test, not the sweep's
    assert files["tests/test_receipts.py"]["written_with"] == {"together": 2, "commits": 2}
    assert files["tests/test_receipts.py"]["cases"] == []
    text = graphiq("affected", cwd=repo.path).stdout
    assert ("- `tests/test_receipts.py` (no call links it, but it was edited in 2 of the 2 "
            "commits that last wrote the changed definitions)") in text, text


def test_the_definition_is_read_as_it_was_where_the_branch_forked(tmp_path: Path) -> None:
    """The branch adds lines above `tax` and rewrites its body: its lines at the fork point,
    not the branch's, name the commits (read at the branch's line numbers, the fork point's
    file is too short to blame)."""
    repo = history(tmp_path / "repo")
    repo.edit("invoice.py", "def total(items):", "VERSION = 2\n\n\ndef total(items):")
    repo.edit("invoice.py", "rate = 0.2", "rate = 0.25")
    repo.edit("invoice.py", "round(amount * rate, 2)", "amount * rate")
    repo.commit("tax at a quarter")

    out = graphiq("affected", "--all", "--format", "json", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    written = {f["path"]: f["written_with"] for f in json.loads(out.stdout)["files"]
               if f["written_with"]}
    assert written["tests/test_rates.py"] == {"together": 2, "commits": 3}, written
    assert "tests/test_receipts.py" not in written  # `total` did not change


def test_the_pr_comment_lists_the_tests_edited_with_the_changed_definition(tmp_path: Path) -> None:
    """#11: the comment's tests and `affected` read the same history, marked as such."""
    repo = history(tmp_path / "repo")
    repo.edit("invoice.py", "sum(items)", "sum(i['price'] for i in items)")
    repo.commit("total of prices")

    out = graphiq("context", "--diff", cwd=repo.path)

    assert out.returncode == 0, out.stderr
    tests = out.stdout.split("Tests that reach the changed code", 1)[1].split("</details>")[0]
    assert ("- `tests/test_receipts.py`: no call links it, but it is a test edited in 2 of the 2 "
            "commits that last wrote the changed definitions") in tests, tests
    assert "test_rates" not in tests and "test_sweep" not in tests
    assert "**1** tests reaching them" in out.stdout  # the headline counts what it lists


def test_the_pr_comment_names_the_files_edited_with_the_changed_definition(tmp_path: Path) -> None:
    """#11's co-change with evidence, per definition: pricing.py changed in both commits that
    last wrote `total` (two: file-level co-change wants three), taxes.py only with `tax`."""
    repo = history(tmp_path / "repo")
    repo.edit("invoice.py", "sum(items)", "sum(i['price'] for i in items)")
    repo.commit("total of prices")

    data = json.loads(graphiq("context", "--diff", "--format", "json", cwd=repo.path).stdout)

    assert [(f["path"], f["reasons"]) for f in data["cochanged"]] == [
        ("pricing.py", ["edited in 2 of the 2 commits that last wrote the changed definitions"])]
    comment = graphiq("context", "--diff", cwd=repo.path).stdout
    section = comment.split("Usually changes with it", 1)[1].split("####", 1)[0]
    assert "- `pricing.py` — edited in 2 of the 2 commits that last wrote the changed " \
           "definitions" in section and "taxes.py" not in section, section
