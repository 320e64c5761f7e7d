from __future__ import annotations

import pytest
from fake_github import REPOSITORY, TOKEN

from graphiq_ci.github.client import GitHubClient, GitHubError
from graphiq_ci.github.comment import (
    MARKER,
    MAX_COMMENT_CHARS,
    compose_comment,
    upsert_comment,
)
from graphiq_ci.render.safe import iter_fenced_lines

SHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e"


@pytest.fixture
def client(github):
    return GitHubClient(TOKEN, REPOSITORY, api_url=github.api_url, sleep=lambda _: None)


def _section(i, size):
    return f"<details><summary>file_{i}.py</summary>\n\n```py\n{'x' * size}\n```\n\n</details>"


def test_compose_wraps_the_context_with_marker_and_head_sha():
    body = compose_comment("## Context\n\nsome files", SHA)

    assert body.startswith(MARKER + "\n## Context")
    assert body.rstrip().endswith(f"updated for {SHA}</sub>")
    assert "Trimmed" not in body


def test_oversized_context_loses_whole_sections_from_the_end():
    sections = [_section(i, 20_000) for i in range(6)]
    body = compose_comment("## Context\n\n" + "\n\n".join(sections), SHA)

    assert len(body) <= MAX_COMMENT_CHARS
    assert "file_2.py" in body and "file_3.py" not in body
    assert "3 sections left out" in body
    assert "65,536-character comment limit" in body
    assert body.count("<details>") == body.count("</details>") == 3
    assert body.rstrip().endswith(f"updated for {SHA}</sub>")


def test_nested_and_fenced_details_tags_do_not_confuse_trimming():
    inner = "<details><summary>inner</summary>\n\nnested\n</details>"
    fenced = "```html\n</details>\n```"
    text = f"keep\n\n<details>\n{inner}\n{fenced}\n{'y' * 70_000}\n</details>\n\nafter"

    body = compose_comment(text, SHA)

    assert "keep" in body and "after" in body and "inner" not in body
    assert "1 section left out" in body


def test_without_sections_the_text_is_cut_between_code_blocks():
    blocks = [f"```\n{'z' * 9_000}\n```" for _ in range(10)]
    body = compose_comment("\n\n".join(blocks), SHA, limit=30_000)

    assert len(body) <= 30_000
    assert "the rest cut short" in body
    assert [fence for _, fence in iter_fenced_lines(body)][-1] == ""
    assert body.count("```") % 2 == 0


def test_create_then_update_then_skip_unchanged(github, client):
    assert upsert_comment(client, 42, compose_comment("v1", SHA)).action == "created"
    result = upsert_comment(client, 42, compose_comment("v2", SHA))
    assert result.action == "updated"
    assert result.url.endswith("#issuecomment-1001")
    posts_before = github.count("POST") + github.count("PATCH")
    assert upsert_comment(client, 42, compose_comment("v2", SHA)).action == "unchanged"

    assert github.count("POST") + github.count("PATCH") == posts_before
    assert len(github.comments) == 1 and "v2" in github.comments[0]["body"]


def test_never_edits_a_marked_comment_written_by_someone_else(github, client):
    github.add_comment(f"{MARKER}\nI copied your marker", "mallory")

    result = upsert_comment(client, 42, compose_comment("ours", SHA))

    assert result.action == "created"
    assert github.comments[0]["body"] == f"{MARKER}\nI copied your marker"


def test_finds_its_comment_past_the_first_page(github, client):
    for i in range(5):
        github.add_comment(f"chatter {i}", "someone")
    github.add_comment(f"{MARKER}\nold", "github-actions[bot]")

    assert upsert_comment(client, 42, compose_comment("new", SHA)).action == "updated"
    assert len(github.comments) == 6


def test_uses_the_token_owner_login_when_github_tells_it(github, client):
    github.login = "graphiq-bot"
    github.add_comment(f"{MARKER}\nby the actions bot", "github-actions[bot]")
    github.add_comment(f"{MARKER}\nby us", "graphiq-bot")

    assert upsert_comment(client, 42, compose_comment("new", SHA)).action == "updated"
    assert "by the actions bot" in github.comments[0]["body"]
    assert "new" in github.comments[1]["body"]


def test_read_only_token_writes_the_job_summary(github, client, tmp_path):
    github.fail("POST", 403, "Resource not accessible by integration")
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    body = compose_comment("the context", SHA)

    result = upsert_comment(client, 42, body, step_summary=summary)

    assert result.action == "step-summary"
    assert "read-only" in result.notice
    assert summary.read_text() == "earlier step\n" + body + "\n"
    assert github.comments == []


def test_read_only_token_without_a_summary_is_skipped(github, client):
    github.fail("POST", 403, "Resource not accessible by integration")

    result = upsert_comment(client, 42, compose_comment("x", SHA))

    assert (result.action, result.url) == ("skipped", "")


def test_other_forbidden_errors_are_raised(github, client, tmp_path):
    github.fail("POST", 403, "Must have admin rights to Repository.")

    with pytest.raises(GitHubError, match="admin rights"):
        upsert_comment(client, 42, "x", step_summary=tmp_path / "summary.md")
