"""action.yml end to end: a trunk push saves the index, PRs restore it, a lost base falls back.

Each run replays the composite action's real steps (see action_replay.py) in a fresh shallow
clone of a real origin, as actions/checkout leaves it: one commit, every file's mtime new.
The first run installs graphiq-ci into its venv for real (pip, ~20 s); the cache carries that
venv to the later runs, as on GitHub. GitHub's API is the fake server on 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from action_replay import CacheService, Run, replay
from fake_github import PR_EVENT, REPOSITORY, TOKEN, FakeGitHub

from tests.context_pr.shop import clean_env, make_shop


class Origin:
    """A bare origin holding the shop's main, and the runs made against it."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.work = make_shop(base / "dev")
        self.work.git("checkout", "-q", "-B", "main", "feature")  # main: the rounding shop
        self.bare = base / "origin.git"
        subprocess.run(["git", "clone", "-q", "--bare", str(self.work.path), str(self.bare)],
                       check=True, env=clean_env())
        self.work.git("remote", "add", "origin", str(self.bare))
        self.cache = CacheService(base / "cache")
        self.cache.root.mkdir()
        self.runner_temp = base / "runner-temp"  # the same on every run, as on GitHub
        self.runner_temp.mkdir()
        self.runs = 0

    def push(self, branch: str) -> str:
        self.work.git("push", "-q", "origin", f"HEAD:refs/heads/{branch}")
        return self.work.git("rev-parse", "HEAD")

    def checkout(self, ref: str) -> Path:
        """What actions/checkout leaves: a depth-1 clone of `ref`, new mtimes everywhere."""
        self.runs += 1
        ws = self.base / f"run-{self.runs}"
        subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", ref,
                        f"file://{self.bare}", str(ws)], check=True, env=clean_env())
        return ws

    def run(self, event_name: str, ws: Path, sha: str, github: FakeGitHub,
            event: dict[str, Any] | None = None, **inputs: str) -> Run:
        event_path = ws.parent / f"event-{self.runs}.json"
        event_path.write_text(json.dumps(event or {}), encoding="utf-8")
        env = clean_env(GITHUB_ACTIONS="true", GITHUB_EVENT_NAME=event_name,
                        GITHUB_EVENT_PATH=str(event_path), GITHUB_API_URL=github.api_url,
                        GITHUB_REPOSITORY=REPOSITORY, GITHUB_TOKEN=TOKEN,
                        GITHUB_STEP_SUMMARY=str(ws.parent / "summary.md"),
                        GRAPHIQ_PROGRESS_SECONDS="0", PIP_CACHE_DIR=str(self.base / "pip"))
        return replay(workspace=ws, event_name=event_name, event=event or {}, sha=sha, env=env,
                      cache=self.cache, runner_temp=self.runner_temp, inputs=inputs)


def pr_event(base_sha: str, head_sha: str, base_ref: str = "main") -> dict[str, Any]:
    payload = json.loads(PR_EVENT.read_text(encoding="utf-8"))
    payload["pull_request"]["base"].update(sha=base_sha, ref=base_ref)
    payload["pull_request"]["head"]["sha"] = head_sha
    payload["after"] = head_sha
    return payload


def feature(origin: Origin, branch: str, old: str, new: str) -> str:
    origin.work.git("checkout", "-q", "-b", branch, "main")
    origin.work.edit("billing.py", old, new)
    origin.work.commit(f"{branch}: edit")
    sha = origin.push(branch)
    origin.work.git("checkout", "-q", "main")
    return sha


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> Origin:
    return Origin(tmp_path_factory.mktemp("action"))


@pytest.fixture(scope="module")
def trunk(origin: Origin) -> tuple[str, Run]:
    """A push to main: installs graphiq-ci, indexes, saves the index under the commit."""
    from fake_github import Handler, Server  # no comment is posted; the server only listens

    server = Server(("127.0.0.1", 0), Handler)
    server.fake = FakeGitHub(api_url=f"http://127.0.0.1:{server.server_address[1]}")
    sha = origin.push("main")
    run = origin.run("push", origin.checkout("main"), sha, server.fake)
    server.server_close()
    assert server.fake.hits == []
    return sha, run


def test_a_trunk_push_installs_indexes_and_saves_under_its_commit(
    origin: Origin, trunk: tuple[str, Run]
) -> None:
    sha, run = trunk
    assert "Install graphiq-ci" in run.ran and "Post the context comment" not in run.ran
    assert f"graphiq-index-Linux-{sha}" in origin.cache.saved
    assert any(re.fullmatch(r"graphiq-venv-Linux-[0-9a-f]{24}", key) for key in origin.cache.saved)
    assert "::group::graphiq-ci: indexing" in run.log  # progress, folded, in the job log
    assert re.search(r"indexed \d+ files", run.log)


def test_a_pr_restores_the_trunk_index_refreshes_one_file_and_posts(
    origin: Origin, trunk: tuple[str, Run], github: FakeGitHub
) -> None:
    base, _ = trunk
    head = feature(origin, "pr-one", "    amount = round(amount, 2)\n",
                   "    amount = round(amount, 3)\n")
    ws = origin.checkout("pr-one")

    run = origin.run("pull_request", ws, head, github, pr_event(base, head))

    assert "Install graphiq-ci" not in run.ran  # the venv came from the cache
    assert run.outputs["venv-cache"]["cache-hit"] == "true"
    assert run.outputs["index-cache"]["cache-matched-key"] == f"graphiq-index-Linux-{base}"
    # every file's mtime is new, but only the one whose content changed is parsed again
    assert re.search(r"^indexed 1 files \(0 deleted, 0 skipped, 0 with syntax errors\) of "
                     r"(\d+) in [\d.]+s; (\d+) touched but unchanged, not parsed$", run.log,
                     re.M), run.log
    assert len(github.comments) == 1 and "`charge`" in github.comments[0]["body"]
    assert run.outputs["action"]["comment-url"] == github.comments[0]["html_url"]
    assert not any("pr-one" in key or head in key for key in origin.cache.saved)


def test_a_second_pr_on_a_newer_trunk_restores_the_newest_trunk_index_by_prefix(
    origin: Origin, trunk: tuple[str, Run], github: FakeGitHub
) -> None:
    old_trunk, _ = trunk
    origin.work.edit("shipping.py", "def ship(", "def ship_order(")
    newer = origin.work.commit("shipping: rename")  # pushed, but no trunk run saved it
    origin.push("main")
    head = feature(origin, "pr-two", 'return {"amount": -amount}', 'return {"amount": 0}')

    run = origin.run("pull_request", origin.checkout("pr-two"), head, github,
                     pr_event(newer, head))

    assert run.outputs["index-cache"]["cache-matched-key"] == f"graphiq-index-Linux-{old_trunk}"
    assert len(github.comments) == 1 and "`refund`" in github.comments[0]["body"]
    assert re.search(r"^indexed 2 files .*touched but unchanged", run.log, re.M), run.log


def test_an_unfetchable_base_commit_falls_back_to_the_base_branch(
    origin: Origin, trunk: tuple[str, Run], github: FakeGitHub
) -> None:
    head = feature(origin, "pr-three", "    amount = round(amount, 2)\n",
                   "    amount = abs(round(amount, 2))\n")
    gone = "0123456789abcdef0123456789abcdef01234567"  # force-pushed away, say

    run = origin.run("pull_request", origin.checkout("pr-three"), head, github,
                     pr_event(gone, head))

    warnings = [line for line in run.log.splitlines() if line.startswith("::warning")]
    assert warnings == [f"::warning title=graphiq-ci::could not fetch the base commit {gone}; "
                        "comparing with origin/main"], run.log
    assert len(github.comments) == 1 and "`charge`" in github.comments[0]["body"]


def test_no_base_at_all_warns_once_and_stays_green(
    origin: Origin, trunk: tuple[str, Run], github: FakeGitHub
) -> None:
    head = feature(origin, "pr-four", "    amount = round(amount, 2)\n",
                   "    amount = round(amount, 1)\n")
    gone = "0123456789abcdef0123456789abcdef01234567"

    run = origin.run("pull_request", origin.checkout("pr-four"), head, github,
                     pr_event(gone, head, base_ref="deleted-branch"))

    warnings = [line for line in run.log.splitlines() if line.startswith("::warning")]
    assert len(warnings) == 1 and "no comment this run" in warnings[0], run.log
    assert "Post the context comment" not in run.ran and github.comments == []



def test_a_depth_1_merge_commit_checkout_deepens_to_the_merge_base(
    origin: Origin, trunk: tuple[str, Run], github: FakeGitHub
) -> None:
    """What actions/checkout does for a pull_request by default: one commit, the PR's merge
    commit refs/pull/N/merge, so neither the base nor the merge base is there."""
    base = origin.work.git("rev-parse", "main")
    head = feature(origin, "pr-five", "    amount = round(amount, 2)\n",
                   "    amount = round(amount + 0, 2)\n")
    origin.work.git("checkout", "-q", "--detach", "main")
    origin.work.git("merge", "-q", "--no-ff", "-m", "Merge pr-five into main", "pr-five")
    origin.work.git("push", "-q", "origin", "HEAD:refs/pull/42/merge")
    origin.work.git("checkout", "-q", "main")
    origin.runs += 1
    ws = origin.base / f"run-{origin.runs}"
    for args in (["init", "-q", str(ws)],
                 ["-C", str(ws), "fetch", "-q", "--no-tags", "--depth=1", f"file://{origin.bare}",
                  "+refs/pull/42/merge:refs/remotes/pull/42/merge"],
                 ["-C", str(ws), "remote", "add", "origin", f"file://{origin.bare}"],
                 ["-C", str(ws), "checkout", "-q", "--detach", "refs/remotes/pull/42/merge"]):
        subprocess.run(["git", *args], check=True, env=clean_env(), capture_output=True)

    run = origin.run("pull_request", ws, head, github, pr_event(base, head))

    assert "shallow clone: deepened history" in run.log  # says how it compared
    (comment,) = github.comments
    assert f"updated for {head}" in comment["body"] and "`charge`" in comment["body"]
    assert run.outputs["action"]["files"].splitlines()[0] == "billing.py"
