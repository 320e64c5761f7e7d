from __future__ import annotations

import json

import pytest
from fake_github import PR_EVENT

from graphiq_ci.errors import GraphiqError
from graphiq_ci.github.event import read_pull_request


def test_reads_a_pull_request_event():
    pr = read_pull_request(
        {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(PR_EVENT)}
    )

    assert pr.number == 42
    assert pr.title.startswith("Retry token refresh in AuthClient")
    assert "AuthClient.refresh()" in pr.body
    assert pr.base_sha == "9049f1265b7d61be4a8904a9a27120d2064dab3b"
    assert pr.head_sha == "6dcb09b5b57875f334f61aebed695e2e4193db5e"
    assert (pr.base_ref, pr.head_ref) == ("main", "fix/auth-retry")
    assert pr.repository == "octo-org/graphiq-demo"  # the base repo, not the fork
    assert pr.author == "contributor"


def test_pull_request_target_carries_the_same_payload():
    env = {"GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_EVENT_PATH": str(PR_EVENT)}
    assert read_pull_request(env).number == 42


def test_other_events_are_refused_by_name(tmp_path):
    with pytest.raises(GraphiqError, match="triggered by 'push'"):
        read_pull_request({"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(PR_EVENT)})

    push = tmp_path / "push.json"
    push.write_text(json.dumps({"ref": "refs/heads/main", "after": "abc"}))
    with pytest.raises(GraphiqError, match="no 'pull_request'"):
        read_pull_request({"GITHUB_EVENT_PATH": str(push)})


def test_missing_or_broken_payload(tmp_path):
    with pytest.raises(GraphiqError, match="GITHUB_EVENT_PATH is not set"):
        read_pull_request({})
    with pytest.raises(GraphiqError, match="cannot read"):
        read_pull_request({"GITHUB_EVENT_PATH": str(tmp_path / "absent.json")})
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(GraphiqError, match="not valid JSON"):
        read_pull_request({"GITHUB_EVENT_PATH": str(broken)})
    incomplete = tmp_path / "incomplete.json"
    incomplete.write_text(json.dumps({"pull_request": {"number": 1, "head": {}}}))
    with pytest.raises(GraphiqError, match="incomplete"):
        read_pull_request({"GITHUB_EVENT_PATH": str(incomplete)})
