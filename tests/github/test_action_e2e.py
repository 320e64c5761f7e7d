"""The Action's one step, end to end: `graphiq-ci pr-comment` as a real subprocess.

A real pull_request payload (the fixture, with its SHAs rewritten to a temp repository's real
commits), the real context builder, and the fake GitHub server on 127.0.0.1 — the only fake.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fake_github import PR_EVENT, REPOSITORY, TOKEN, FakeGitHub

from graphiq_ci.github.comment import MARKER
from graphiq_ci.render.safe import iter_fenced_lines
from tests.context_pr.shop import Repo, clean_env, graphiq, make_shop

HOSTILE_TITLE = "Round charges <img src=x onerror=alert(1)> @octo-org/reviewers"
HOSTILE_BODY = (
    "cc @maintainer and @octo-org/reviewers\n\n"
    "<script>alert('pwned')</script>\n\n"
    "</details></details>\n\n# Not a heading of ours\n\n"
    "[click me](javascript:alert(1)) ![x](https://evil.example/x.png)\n\n"
    "```\nan unclosed fence that would swallow the rest\n"
)


@pytest.fixture
def pr_repo(tmp_path: Path) -> Repo:
    """The shop: `feature` changes `charge`, and its new comment is hostile text too."""
    repo = make_shop(tmp_path / "shop")
    repo.edit("billing.py", "    amount = round(amount, 2)\n",
              "    amount = round(amount, 2)  # cc @octocat </details><script>x()</script>\n")
    repo.commit("charge: note")
    return repo


def write_event(path: Path, repo: Repo, **pull_request: Any) -> Path:
    """The fixture payload, pointing at `repo`'s real base and head commits."""
    payload = json.loads(PR_EVENT.read_text(encoding="utf-8"))
    head = repo.git("rev-parse", "HEAD")
    payload["pull_request"]["base"]["sha"] = repo.git("rev-parse", "main")
    payload["pull_request"]["head"]["sha"] = head
    payload["after"] = head
    payload["pull_request"].update(title=HOSTILE_TITLE, body=HOSTILE_BODY, **pull_request)
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def action_env(tmp_path: Path, github: FakeGitHub, event: Path) -> dict[str, str]:
    return clean_env(
        GITHUB_ACTIONS="true",
        GITHUB_EVENT_NAME="pull_request",
        GITHUB_EVENT_PATH=str(event),
        GITHUB_API_URL=github.api_url,
        GITHUB_REPOSITORY=REPOSITORY,
        GITHUB_TOKEN=TOKEN,
        GITHUB_OUTPUT=str(tmp_path / "github_output"),
        GITHUB_STEP_SUMMARY=str(tmp_path / "step_summary.md"),
    )


def pr_comment(repo: Repo, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """What action.yml's step runs: `graphiq-ci pr-comment --repo $GITHUB_WORKSPACE ...`."""
    result = graphiq("pr-comment", "--repo", str(repo.path), "--format", "markdown",
                     cwd=repo.path, env=env)
    assert TOKEN not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return result


def outputs(path: Path) -> list[dict[str, str]]:
    """Each run's step outputs, in order (the file is appended to, as on GitHub)."""
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", path.read_text(encoding="utf-8"),
                       flags=re.M | re.S)
    runs: list[dict[str, str]] = []
    for name, _, value in found:
        if not runs or name in runs[-1]:
            runs.append({})
        runs[-1][name] = value
    return runs


def prose(markdown: str) -> str:
    """The lines GitHub renders as Markdown: everything outside fenced code blocks."""
    out, before = [], ""
    for line, after in iter_fenced_lines(markdown):
        if not before and not after:
            out.append(line)
        before = after
    return "".join(out)


def test_first_run_creates_the_comment_then_skips_then_updates(
    tmp_path: Path, github: FakeGitHub, pr_repo: Repo
) -> None:
    event = write_event(tmp_path / "event.json", pr_repo)
    env = action_env(tmp_path, github, event)
    head = pr_repo.git("rev-parse", "HEAD")

    first = pr_comment(pr_repo, env)

    assert first.returncode == 0, first.stderr
    assert len(github.comments) == 1
    body = github.comments[0]["body"]
    assert body.startswith(MARKER)
    assert "`charge`" in body and "`checkout`" in body and "`test_charge_positive`" in body
    assert body.index("What changed") < body.index("What depends on it")
    assert f"updated for {head}" in body
    url = github.comments[0]["html_url"]
    assert f"comment created {url}" in first.stdout

    again = pr_comment(pr_repo, env)  # a re-run with the same head: nothing to say

    assert again.returncode == 0, again.stderr
    assert f"comment unchanged {url}" in again.stdout
    assert (github.count("POST"), github.count("PATCH")) == (1, 0)

    pr_repo.edit("billing.py", 'return {"amount": -amount}', 'return {"amount": -abs(amount)}')
    new_head = pr_repo.commit("refund: never negative twice")
    pushed = pr_comment(pr_repo, {**env, "GITHUB_EVENT_PATH": str(
        write_event(tmp_path / "pushed.json", pr_repo))})

    assert pushed.returncode == 0, pushed.stderr
    assert f"comment updated {url}" in pushed.stdout
    assert len(github.comments) == 1
    assert (github.count("POST"), github.count("PATCH")) == (1, 1)
    body = github.comments[0]["body"]
    assert f"updated for {new_head}" in body and head not in body
    assert "`refund`" in body


def test_outputs_name_the_context_file_the_files_and_the_comment(
    tmp_path: Path, github: FakeGitHub, pr_repo: Repo
) -> None:
    env = action_env(tmp_path, github, write_event(tmp_path / "event.json", pr_repo))

    result = pr_comment(pr_repo, env)

    assert result.returncode == 0, result.stderr
    (out,) = outputs(tmp_path / "github_output")
    assert set(out) == {"context-file", "files", "comment-url"}
    assert out["comment-url"] == github.comments[0]["html_url"]
    files = out["files"].splitlines()
    assert files[0] == "billing.py" and {"checkout.py", "tests/test_billing.py"} <= set(files)
    context_file = Path(out["context-file"])
    assert context_file.is_absolute()
    assert context_file == (pr_repo.path / ".graphiq" / "pr-context.md").resolve()
    assert "`charge`" in context_file.read_text(encoding="utf-8")
    assert not (tmp_path / "step_summary.md").exists()  # the comment went through


def test_json_format_writes_the_json_context_file(
    tmp_path: Path, github: FakeGitHub, pr_repo: Repo
) -> None:
    env = action_env(tmp_path, github, write_event(tmp_path / "event.json", pr_repo))

    result = graphiq("pr-comment", "--repo", str(pr_repo.path), "--format", "json",
                     "--no-comment", cwd=pr_repo.path, env=env)

    assert result.returncode == 0, result.stderr
    assert github.hits == []
    (out,) = outputs(tmp_path / "github_output")
    assert out["comment-url"] == ""
    data = json.loads(Path(out["context-file"]).read_text(encoding="utf-8"))
    by_id = {s["id"]: s["qualified"] for s in data["symbols"]}
    assert [by_id[i] for i in data["sections"]["changed"]] == ["charge"]


def test_hostile_pr_text_and_code_render_inert(
    tmp_path: Path, github: FakeGitHub, pr_repo: Repo
) -> None:
    env = action_env(tmp_path, github, write_event(tmp_path / "event.json", pr_repo))

    result = pr_comment(pr_repo, env)

    assert result.returncode == 0, result.stderr
    body = github.comments[0]["body"]
    rendered = prose(body)
    assert "`charge`" in rendered  # the comment itself is there
    for needle in ("<script", "<img", "javascript:", "evil.example"):
        assert needle not in rendered.lower(), needle
    assert re.search(r"(?<![\w`])@(?=[A-Za-z0-9])", rendered) is None  # nobody is pinged
    assert rendered.count("<details>") == rendered.count("</details>")
    assert "Not a heading of ours" not in rendered
    # the hostile code comment is shown, but only inside a code block
    assert "@octocat" in body and "@octocat" not in rendered


def test_bad_token_fails_in_one_line_without_leaking_it(
    tmp_path: Path, github: FakeGitHub, pr_repo: Repo
) -> None:
    github.fail("GET", 401, f"Bad credentials {TOKEN}", times=20)
    env = action_env(tmp_path, github, write_event(tmp_path / "event.json", pr_repo))

    result = pr_comment(pr_repo, env)

    assert result.returncode == 2
    assert github.comments == []
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_configured_template_outside_the_repository_is_refused(
    tmp_path: Path, pr_repo: Repo, github: FakeGitHub
) -> None:
    """A PR can edit .graphiq.yml; its template must not render files from outside the repo."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE\n")
    pr_repo.commit("config", {".graphiq.yml": f"templates:\n  pr_comment: {secret}\n"})
    env = action_env(tmp_path, github, write_event(tmp_path / "event.json", pr_repo))
    result = pr_comment(pr_repo, env)
    assert result.returncode == 2
    assert "templates.pr_comment must be a file inside the repository" in result.stderr
    assert "TOP-SECRET-VALUE" not in result.stdout + result.stderr
    assert not github.comments
