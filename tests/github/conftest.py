"""Fixtures: a local GitHub (see fake_github.py) and the environment of an Actions run."""

from __future__ import annotations

import threading

import pytest
from fake_github import PR_EVENT, REPOSITORY, TOKEN, FakeGitHub, Handler, Server


@pytest.fixture
def github():
    server = Server(("127.0.0.1", 0), Handler)
    server.fake = FakeGitHub(api_url=f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def actions_env(tmp_path, github):
    """The variables a GitHub Actions run on a pull_request event provides."""
    return {
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(PR_EVENT),
        "GITHUB_API_URL": github.api_url,
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_OUTPUT": str(tmp_path / "github_output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "step_summary.md"),
    }


@pytest.fixture(autouse=True)
def _no_ambient_github(monkeypatch):
    """Tests may run inside GitHub Actions; its variables must not leak into them."""
    for name in (
        "GITHUB_TOKEN",
        "GITHUB_EVENT_NAME",
        "GITHUB_EVENT_PATH",
        "GITHUB_OUTPUT",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_API_URL",
        "GITHUB_REPOSITORY",
    ):
        monkeypatch.delenv(name, raising=False)
