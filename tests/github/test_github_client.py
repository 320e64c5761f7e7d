from __future__ import annotations

import pytest
from fake_github import REPOSITORY, TOKEN

from graphiq_ci.errors import GraphiqError
from graphiq_ci.github.client import GitHubClient, GitHubError


@pytest.fixture
def sleeps():
    return []


@pytest.fixture
def client(github, sleeps):
    return GitHubClient(TOKEN, REPOSITORY, api_url=github.api_url, sleep=sleeps.append)


def test_lists_every_page_following_link_headers(github, client):
    for i in range(5):
        github.add_comment(f"comment {i}", "someone")

    comments = list(client.list_issue_comments(42))

    assert [c.body for c in comments] == [f"comment {i}" for i in range(5)]
    gets = [path for method, path in github.hits if method == "GET"]
    assert len(gets) == 3  # page size 2 on the fake: 2 + 2 + 1
    assert "per_page=100" in gets[0]
    assert gets[1].startswith("/repositories/186353594/issues/42/comments?")


def test_create_and_update(github, client):
    created = client.create_issue_comment(42, "hello")
    updated = client.update_issue_comment(created.id, "hello again")

    assert created.author == "github-actions[bot]"
    assert updated.id == created.id
    assert github.comments[0]["body"] == "hello again"


def test_retries_server_errors_with_backoff(github, client, sleeps):
    github.fail("POST", 502, "Server Error", times=2)

    client.create_issue_comment(42, "hello")

    assert github.count("POST") == 3
    assert sleeps == [1.0, 2.0]
    assert len(github.comments) == 1


def test_gives_up_after_max_attempts(github, sleeps):
    client = GitHubClient(
        TOKEN, REPOSITORY, api_url=github.api_url, sleep=sleeps.append, max_attempts=3
    )
    github.fail("GET", 503, "Service Unavailable", times=10)

    with pytest.raises(GitHubError) as excinfo:
        list(client.list_issue_comments(42))

    assert excinfo.value.status == 503
    assert github.count("GET") == 3


def test_secondary_rate_limit_honours_retry_after(github, client, sleeps):
    github.fail(
        "POST",
        403,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        headers={"Retry-After": "7"},
    )

    client.create_issue_comment(42, "hello")

    assert sleeps == [7.0]
    assert github.count("POST") == 2


def test_retry_after_is_capped(github, sleeps):
    client = GitHubClient(
        TOKEN, REPOSITORY, api_url=github.api_url, sleep=sleeps.append, max_sleep=5.0
    )
    github.fail("GET", 429, "Too Many Requests", headers={"Retry-After": "3600"})

    list(client.list_issue_comments(42))

    assert sleeps == [5.0]


def test_secondary_rate_limit_without_retry_after_waits_a_minute(github, client, sleeps):
    github.fail("PATCH", 403, "You have exceeded a secondary rate limit.")
    created = client.create_issue_comment(42, "hello")

    client.update_issue_comment(created.id, "again")

    assert sleeps == [60.0]


def test_exhausted_primary_rate_limit_is_retried(github, client, sleeps):
    github.fail("GET", 403, "API rate limit exceeded", headers={"x-ratelimit-remaining": "0"})

    list(client.list_issue_comments(42))

    assert len(sleeps) == 1 and 1.0 <= sleeps[0] <= 60.0


def test_read_only_token_is_not_retried(github, client, sleeps):
    github.fail("POST", 403, "Resource not accessible by integration")

    with pytest.raises(GitHubError) as excinfo:
        client.create_issue_comment(42, "hello")

    assert excinfo.value.is_read_only
    assert github.count("POST") == 1
    assert sleeps == []


def test_authenticated_login_is_none_for_the_actions_token(github, client):
    assert client.authenticated_login() is None
    github.login = "graphiq-bot"
    assert client.authenticated_login() == "graphiq-bot"


def test_token_never_appears_in_errors(github, client):
    # A hostile or buggy server echoing the credential back must not put it in our message.
    github.fail("POST", 400, f"bad token {TOKEN}")

    with pytest.raises(GitHubError) as excinfo:
        client.create_issue_comment(42, "hello")

    assert TOKEN not in str(excinfo.value)
    assert TOKEN not in excinfo.value.api_message
    assert TOKEN not in repr(client)
    assert "***" in str(excinfo.value)


def test_connection_errors_are_retried_then_reported_without_token(sleeps):
    client = GitHubClient(
        TOKEN, REPOSITORY, api_url="http://127.0.0.1:9", sleep=sleeps.append, max_attempts=2
    )

    with pytest.raises(GitHubError) as excinfo:
        client.create_issue_comment(42, "hello")

    assert excinfo.value.status == 0
    assert TOKEN not in str(excinfo.value)
    assert sleeps == [1.0]


def test_does_not_follow_links_to_other_hosts(github, client):
    github.add_comment("a", "x")
    github.add_comment("b", "x")
    github.add_comment("c", "x")
    github.api_url = "http://evil.example"  # the fake now advertises foreign next links

    with pytest.raises(GitHubError, match="outside"):
        list(client.list_issue_comments(42))
    assert github.count("GET") == 1


def test_missing_token_or_repository_is_a_user_error():
    with pytest.raises(GraphiqError, match="no GitHub token"):
        GitHubClient("", REPOSITORY)
    with pytest.raises(GraphiqError, match="owner/name"):
        GitHubClient(TOKEN, "")
