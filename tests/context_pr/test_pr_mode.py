"""PR mode end to end: real repositories, real commits and branches, the real CLI.

Every test runs `python -m graphiq_ci context ...` as a subprocess in a temp git repository
(see shop.py), so indexing, git facts, the context builder and rendering are all real.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from graphiq_ci.context.model import Context, ContextSymbol
from graphiq_ci.render import render_text

from .shop import FILES, Repo, clean_env, feature_branch, graphiq, make_shop


@pytest.fixture
def shop(tmp_path: Path) -> Repo:
    return make_shop(tmp_path / "shop")


def context_json(repo: Path, *args: str) -> dict[str, Any]:
    result = graphiq("context", *args, "--format", "json", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def sections(data: dict[str, Any]) -> dict[str, list[str]]:
    """`sections` with symbol ids replaced by qualified names."""
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    return {name: [by_id[i] for i in ids] for name, ids in data["sections"].items()}


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("graphiq-ci: ")
    for word in words:
        assert word in lines[0]


def test_diff_lists_changed_symbol_its_caller_and_its_test(shop: Repo) -> None:
    data = context_json(shop.path, "--diff")

    found = sections(data)
    assert found["changed"] == ["charge"]
    assert "checkout" in found["impact"]
    assert found["tests"] == ["test_charge_positive"]
    assert "test_charge_positive" not in found["impact"]  # a test is a test, not impact
    assert data["stats"]["mode"] == "pr"
    assert data["stats"]["changed_files"] == 1
    roles = {s["qualified"]: s["role"] for s in data["symbols"]}
    assert roles["charge"] == "changed" and roles["checkout"] == "caller"
    assert roles["test_charge_positive"] == "test"
    assert data["files"][0]["path"] == "billing.py"
    assert len(data["entry_points"]) == len(set(data["entry_points"]))
    # main's own commit after the fork is not part of this branch's change
    assert "extra" not in found["changed"]


def test_markdown_leads_with_what_changed_then_what_depends_on_it(shop: Repo) -> None:
    result = graphiq("context", "--diff", cwd=shop.path)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    changed, depends = out.index("What changed"), out.index("What depends on it")
    assert changed < depends < out.index("Tests that reach the changed code")
    assert out.index("`charge`") < depends < out.index("`checkout`")
    assert "`test_charge_positive`" in out
    assert "Entry points" not in out  # the task view's empty heading is not used in PR mode


def test_no_task_on_a_feature_branch_implies_diff(shop: Repo) -> None:
    data = context_json(shop.path)

    assert data["stats"]["mode"] == "pr"
    assert sections(data)["changed"] == ["charge"]


def test_no_task_on_trunk_is_a_usage_error(shop: Repo) -> None:
    shop.git("checkout", "-q", "main")

    assert_one_line_error(graphiq("context", cwd=shop.path), "task is empty")


def test_diff_with_nothing_changed_says_so_and_exits_1(shop: Repo) -> None:
    shop.git("checkout", "-q", "main")

    result = graphiq("context", "--diff", cwd=shop.path)

    assert result.returncode == 1, result.stdout
    assert result.stdout == ""
    assert "nothing changed compared with main" in result.stderr
    assert "Traceback" not in result.stderr


def test_base_ref_chooses_what_counts_as_changed(shop: Repo) -> None:
    shop.edit("billing.py", "return {\"amount\": -amount}", "return {\"amount\": -abs(amount)}")
    shop.commit("refund: never negative twice")

    since_fork = sections(context_json(shop.path, "--base", "main"))
    last_commit = sections(context_json(shop.path, "--base", "HEAD~1"))

    assert set(since_fork["changed"]) == {"charge", "refund"}
    assert last_commit["changed"] == ["refund"]


def test_unknown_base_is_a_one_line_error(shop: Repo) -> None:
    assert_one_line_error(graphiq("context", "--base", "no-such-branch", cwd=shop.path),
                          "no-such-branch")


def test_task_text_in_pr_mode_keeps_the_changed_sections(shop: Repo) -> None:
    data = context_json(shop.path, "rounding of card payments", "--diff")

    assert data["stats"]["mode"] == "pr"
    assert sections(data)["changed"] == ["charge"]


def test_usually_changed_together_file_is_reported_with_its_evidence(tmp_path: Path) -> None:
    """b.py pairs with a.py; VERSION changes in every commit (release bumps) and pairs with
    everything, so by lift it says nothing; c.py changed with a.py only once."""
    repo = Repo(tmp_path / "pair")
    repo.git("init", "-q", "-b", "main")
    repo.commit("start", {"a.py": "def alpha():\n    return 0\n",
                          "b.py": "def beta():\n    return 0\n",
                          "c.py": "def gamma():\n    return 0\n",
                          "d.py": "def delta():\n    return 0\n", "VERSION": "0\n"})
    version = 0
    for i in range(4):
        version += 1
        repo.write({"a.py": f"def alpha():\n    return {i + 1}\n",
                    "b.py": f"def beta():\n    return {i}\n", "VERSION": f"{version}\n"})
        repo.commit(f"alpha and beta, round {i}")
    for i in range(6):
        version += 1
        repo.commit(f"delta {i}", {"d.py": f"def delta():\n    return {i}\n",
                                   "VERSION": f"{version}\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("alpha only", {"a.py": "def alpha():\n    return 42\n"})

    data = context_json(repo.path, "--diff")

    assert sections(data)["changed"] == ["alpha"]
    assert [f["path"] for f in data["cochanged"]] == ["b.py"]
    # a.py: start, 4 rounds, this branch = 6 commits; b.py in 4 of them (round 0 left it as it
    # was), and in 4 of all 12: (4/6) / (4/12) = 2.0
    # and alpha's lines were last written by "start" and round 3, which both changed b.py
    # (and VERSION, which changes in every commit: by lift it says nothing there either)
    assert data["cochanged"][0]["reasons"] == [
        "edited in 2 of the 2 commits that last wrote the changed definitions",
        "changed with a.py in 4 of 6 commits (2.0x its usual rate)"]
    markdown = graphiq("context", "--diff", cwd=repo.path).stdout
    assert "Usually changes with it" in markdown and "`b.py`" in markdown
    section = re.split(r"####|<details>", markdown.split("Usually changes with it")[1])[0]
    assert "`b.py`" in section and "VERSION" not in section


def test_a_test_file_listed_under_tests_is_not_repeated_as_co_changed(tmp_path: Path) -> None:
    """tests/test_a.py changes with a.py in every commit and calls alpha: it is listed once,
    under the tests that reach the change, not again under co-change."""
    repo = Repo(tmp_path / "suite")
    repo.git("init", "-q", "-b", "main")
    repo.commit("start", {"a.py": "def alpha():\n    return 0\n",
                          "b.py": "def beta():\n    return 0\n"})
    for i in range(4):
        repo.commit(f"alpha round {i}", {
            "a.py": f"def alpha():\n    return {i + 1}\n",
            "b.py": f"def beta():\n    return {i + 1}\n",
            "tests/test_a.py": f"from a import alpha\n\n\ndef test_alpha():\n"
                               f"    assert alpha() == {i + 1}\n"})
    for i in range(6):
        repo.commit(f"gamma {i}", {"c.py": f"def gamma():\n    return {i}\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("alpha only", {"a.py": "def alpha():\n    return 42\n"})

    data = context_json(repo.path, "--diff")

    assert sections(data)["tests"] == ["test_alpha"]
    assert [f["path"] for f in data["cochanged"]] == ["b.py"]


def test_detached_head_works(shop: Repo) -> None:
    shop.git("checkout", "-q", "--detach", "feature")

    found = sections(context_json(shop.path, "--diff"))

    assert found["changed"] == ["charge"]
    assert "checkout" in found["impact"]


def test_staged_unstaged_and_untracked_changes_all_count(shop: Repo) -> None:
    shop.edit("billing.py", "return {\"amount\": -amount}", "return {\"amount\": -abs(amount)}")
    shop.edit("shipping.py", '{"shipped": order}', '{"shipped": order, "tracked": True}')
    shop.git("add", "shipping.py")
    shop.write({"donate.py": "from billing import charge\n\n\ndef donate(amount):\n"
                             "    return charge(amount)\n"})

    data = context_json(shop.path, "--diff")

    found = sections(data)
    assert set(found["changed"]) == {"charge", "refund", "ship", "donate"}
    assert data["stats"]["changed_files"] == 3  # billing, shipping, donate
    assert "donate" not in found["impact"]  # a changed caller is listed once, as changed


def test_empty_repository_with_diff_is_a_one_line_error(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "empty")
    repo.git("init", "-q", "-b", "main")
    repo.write({"app.py": "def main():\n    return 0\n"})

    assert_one_line_error(graphiq("context", "--diff", cwd=repo.path), "at least one commit",
                          "no commits")


def test_non_git_directory_with_diff_is_a_one_line_error(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "app.py").write_text("def main():\n    return 0\n")
    env = clean_env(GIT_CEILING_DIRECTORIES=str(tmp_path))  # never find an enclosing repo

    result = graphiq("context", "--diff", cwd=plain, env=env)

    assert_one_line_error(result, "not a git repository")


def shallow_clone(source: Repo, target: Path, *extra: str) -> Repo:
    subprocess.run(["git", "clone", "-q", "--depth", "1", *extra, "--branch", "feature",
                    f"file://{source.path}", str(target)],
                   check=True, capture_output=True, env=clean_env())
    clone = Repo(target)
    assert clone.git("rev-parse", "--is-shallow-repository") == "true"
    return clone


def test_shallow_clone_deepens_to_the_merge_base_and_says_so(shop: Repo, tmp_path: Path) -> None:
    shop.git("checkout", "-q", "main")  # origin's HEAD, so the clone knows its trunk
    clone = shallow_clone(shop, tmp_path / "clone", "--no-single-branch")

    result = graphiq("context", "--diff", "--format", "json", cwd=clone.path)

    assert result.returncode == 0, result.stderr
    assert sections(json.loads(result.stdout))["changed"] == ["charge"]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "shallow clone" in lines[0] and "origin/main" in lines[0]


def test_single_branch_shallow_clone_fetches_the_base(shop: Repo, tmp_path: Path) -> None:
    clone = shallow_clone(shop, tmp_path / "clone")  # only `feature`, one commit deep

    result = graphiq("context", "--base", "main", "--format", "json", cwd=clone.path)

    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert sections(data)["changed"] == ["charge"]  # not main's extra.py: a real merge base
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "origin/main" in lines[0] and "shallow clone" in lines[0]
    assert data["stats"]["compared_with"]["ref"] == "origin/main"


def test_the_comment_never_lists_a_test_chosen_by_words_alone(tmp_path: Path) -> None:
    """A test that shares the task's words but never reaches the change stays out of the
    comment's tests, which are exactly the JSON's `sections.tests`."""
    repo = make_shop(tmp_path / "shop")
    repo.git("checkout", "-q", "main")
    repo.commit("refund wording test", {"test_refund_words.py":
                                        "def test_refund_amount_rounding_words():\n"
                                        "    assert 'refund amount rounding' != ''\n"})
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "--no-edit", "main")
    task = "test_refund_amount_rounding_words fails: refund amount rounding to cents"
    data = context_json(repo.path, task, "--diff")
    assert sections(data)["tests"] == ["test_charge_positive"]
    markdown = graphiq("context", task, "--diff", cwd=repo.path).stdout
    shown = markdown.split("Tests that reach the changed code")[1].split("</details>")[0]
    assert "test_charge_positive" in shown
    assert "test_refund_amount_rounding_words" not in shown


def test_the_comment_lists_the_sections_not_the_roles() -> None:
    """A symbol the task's ranking marked as a test, but that no section holds, is not shown
    under tests; the one `sections.tests` names is (the template once selected by role)."""
    def sym(sid: int, name: str, role: str) -> ContextSymbol:
        return ContextSymbol(sid, name, name, "function", f"tests/{name}.py", 1, 2, 1.0, [],
                             role=role)

    ctx = Context(query="", family="pr",
                  symbols=[sym(1, "charge", "changed"), sym(2, "test_charge", "test"),
                           sym(3, "test_cookie_words", "test")],
                  sections={"changed": [1], "impact": [], "tests": [2]})
    text = render_text(ctx, "pr_comment", max_tokens=2000).text
    tests = text.split("Tests that reach the changed code")[1].split("</details>")[0]
    assert "test_charge" in tests and "test_cookie_words" not in text
    assert "**1** tests reaching them" in text


REPORTS = '''"""Monthly reports: totals of every charge, charge by charge."""


def charge_report(charges):
    """The charge report: each charge and the charge total."""
    lines = [f"charge {c['amount']}" for c in charges]
    return "\\n".join(lines + [f"charges: {sum(c['amount'] for c in charges)}"])
'''


def test_without_a_task_the_code_shown_stays_where_the_change_reaches(tmp_path: Path) -> None:
    """With no task text the query is made up from the changed names ("charge"); a file that
    only shares that word is listed among the files but its code is not shown: the code is
    the change, its callers and tests, and the rest of the files the change reaches."""
    files = {**FILES, "reports.py": REPORTS}
    repo = feature_branch(tmp_path / "repo", files, (
        "billing.py", '        raise ValueError("amount must be positive")\n',
        '        raise ValueError("amount must be positive")\n    amount = round(amount, 2)\n'))

    data = json.loads(graphiq("context", "--format", "json", "--max-tokens", "4000",
                              cwd=repo.path).stdout)

    shown = {s["file"] for s in data["snippets"]}
    assert {"billing.py", "checkout.py"} <= shown, shown
    assert "reports.py" not in shown
    assert "def charge_report" not in data["prompt"]
    with_task = json.loads(graphiq("context", "charge report totals", "--diff", "--format",
                                   "json", "--max-tokens", "4000", cwd=repo.path).stdout)
    assert "reports.py" in {s["file"] for s in with_task["snippets"]}
