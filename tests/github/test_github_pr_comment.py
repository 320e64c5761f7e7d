from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fake_github import PR_EVENT, TOKEN

from graphiq_ci.github.comment import MARKER, MAX_COMMENT_CHARS
from graphiq_ci.github.pr_comment import RenderedContext, run_pr_comment
from graphiq_ci.render.safe import code_block


def render(pr):
    """A fixed body: these tests are about the sticky comment's life cycle and outputs. The
    real renderer on hostile PR text is tested end to end in test_action_e2e.py."""
    markdown = ("## Context\n\n<details><summary>src/auth.py</summary>\n\n"
                f"{code_block('def refresh(): ...', 'py')}\n\n</details>")
    return RenderedContext(markdown, files=("src/auth.py", "tests/test_auth.py"))


def outputs(env):
    text = Path(env["GITHUB_OUTPUT"]).read_text(encoding="utf-8")
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, flags=re.M | re.S)
    return {name: value for name, _, value in found}


def run(tmp_path, env, render_body=render, **options):
    options.setdefault("dry_run", False)
    return run_pr_comment(
        tmp_path,
        token=None,
        render_body=render_body,
        environ=env,
        sleep=lambda _: None,
        **options,
    )


def test_first_run_creates_second_updates_third_skips(tmp_path, github, actions_env):
    first = run(tmp_path, actions_env)
    assert first.comment.action == "created"
    assert len(github.comments) == 1

    moved = tmp_path / "moved.json"
    payload = json.loads(PR_EVENT.read_text())
    payload["pull_request"]["head"]["sha"] = "a" * 40
    moved.write_text(json.dumps(payload))
    second = run(tmp_path, {**actions_env, "GITHUB_EVENT_PATH": str(moved)})
    assert second.comment.action == "updated"
    assert f"updated for {'a' * 40}" in github.comments[0]["body"]

    third = run(tmp_path, {**actions_env, "GITHUB_EVENT_PATH": str(moved)})
    assert third.comment.action == "unchanged"
    assert github.count("POST") == 1 and github.count("PATCH") == 1
    assert len(github.comments) == 1


def test_outputs_name_the_comment_the_files_and_the_context_file(tmp_path, github, actions_env):
    result = run(tmp_path, actions_env)
    body = github.comments[0]["body"]

    assert body.startswith(MARKER) and "def refresh(): ..." in body
    out = outputs(actions_env)
    assert out["comment-url"] == result.comment.url
    assert out["files"] == "src/auth.py\ntests/test_auth.py"
    assert out["context-file"] == str((tmp_path / ".graphiq" / "pr-context.md").resolve())
    assert "src/auth.py" in result.context_file.read_text()


def test_context_file_holds_the_requested_format(tmp_path, github, actions_env):
    def as_json(pr):
        return RenderedContext("## md", files=("a.py",), context_text='{"files": ["a.py"]}')

    target = tmp_path / "ctx.json"
    run(tmp_path, actions_env, render_body=as_json, context_file=target)

    assert target.read_text() == '{"files": ["a.py"]}'
    assert "## md" in github.comments[0]["body"]


def test_oversized_context_is_trimmed_under_the_limit(tmp_path, github, actions_env):
    def huge(pr):
        sections = [
            f"<details><summary>f{i}.py</summary>\n\n{code_block('x' * 30_000)}\n\n</details>"
            for i in range(5)
        ]
        return RenderedContext("\n\n".join(sections))

    run(tmp_path, actions_env, render_body=huge)

    body = github.comments[0]["body"]
    assert len(body) < MAX_COMMENT_CHARS
    assert "sections left out" in body


def test_dry_run_and_no_comment_never_call_github(tmp_path, github, actions_env):
    env = {k: v for k, v in actions_env.items() if k != "GITHUB_TOKEN"}

    dry = run(tmp_path, env, dry_run=True)
    quiet = run(tmp_path, env, post_comment=False)

    assert dry.comment is None and quiet.comment is None
    assert dry.body.startswith(MARKER)
    assert github.hits == []
    assert outputs(env)["comment-url"] == ""


def test_read_only_token_goes_to_step_summary_and_succeeds(tmp_path, github, actions_env):
    github.fail("POST", 403, "Resource not accessible by integration")

    result = run(tmp_path, actions_env)

    assert result.comment.action == "step-summary"
    summary = Path(actions_env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert summary.startswith(MARKER) and "src/auth.py" in summary


def test_retries_are_invisible_to_the_caller(tmp_path, github, actions_env):
    github.fail("GET", 502, "Bad Gateway")
    github.fail("POST", 403, "secondary rate limit", headers={"Retry-After": "1"})

    assert run(tmp_path, actions_env).comment.action == "created"
    assert github.count("POST") == 2


def test_cli_never_prints_the_token(tmp_path, github, actions_env, cli, monkeypatch):
    for name, value in actions_env.items():
        monkeypatch.setenv(name, value)
    github.fail("GET", 401, f"Bad credentials {TOKEN}", times=10)

    result = cli(["pr-comment", "--repo", str(tmp_path), "--token", TOKEN])

    assert result.exit_code == 2
    assert TOKEN not in result.output + result.stderr


def test_cli_lists_its_options(cli):
    result = cli(["pr-comment", "--help"])

    for option in ("--repo", "--base", "--max-nodes", "--max-tokens", "--format", "--template"):
        assert option in result.output
    for option in ("--no-comment", "--dry-run", "--token"):
        assert option in result.output


def test_cli_rejects_an_unknown_format(cli, tmp_path):
    result = cli(["pr-comment", "--repo", str(tmp_path), "--format", "html"])

    assert result.exit_code == 2
    assert "--format must be one of markdown, json, prompt" in result.stderr


@pytest.mark.parametrize("command", ["pr-comment", "context"])
def test_both_commands_take_the_same_smallest_budget(tmp_path, command):
    """--max-tokens below 100 cannot hold a skeleton; both commands refuse it alike."""
    args = [command, "--repo", str(tmp_path), "--max-tokens", "50"]
    result = subprocess.run([sys.executable, "-m", "graphiq_ci", *args,
                             *(["task"] if command == "context" else [])],
                            capture_output=True, text=True, timeout=60)

    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        f"graphiq-ci {command}: error: argument --max-tokens: 50 is not at least 100")
