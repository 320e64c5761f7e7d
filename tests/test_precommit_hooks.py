"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit framework.

pre-commit builds the hooks' Python environment by pip-installing this repository; that is
the slow part, so it happens once per session in a session-scoped PRE_COMMIT_HOME. A `rev`
must be a commit: with a clean work tree that is this repository's HEAD; with uncommitted
changes the tests commit a snapshot of them into a shadow clone (what `pre-commit try-repo`
does internally), so the hooks under test are always the ones in the work tree.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.context_pr.shop import FILES, Repo, clean_env

ROOT = Path(__file__).resolve().parent.parent


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env or clean_env(), check=True,
                          capture_output=True, text=True).stdout.strip()


def _hook_source(tmp: Path) -> tuple[str, str]:
    """(repo, rev) for .pre-commit-config.yaml: HEAD if committed, else a snapshot commit."""
    if not _git(ROOT, "status", "--porcelain", "--untracked-files=no"):
        return str(ROOT), _git(ROOT, "rev-parse", "HEAD")
    shadow = tmp / "shadow"
    _git(tmp, "clone", "-q", str(ROOT), str(shadow))
    git_dir = shadow / ".git"
    snapshot = clean_env(GIT_INDEX_FILE=str(git_dir / "index"),
                         GIT_OBJECT_DIRECTORY=str(git_dir / "objects"))
    _git(ROOT, "add", "-u", env=snapshot)  # tracked changes, staged or not
    _git(ROOT, "add", "-A", "--", "graphiq_ci", env=snapshot)  # and new modules
    _git(shadow, "-c", "user.name=Test", "-c", "user.email=test@example.com",
         "commit", "-q", "--no-verify", "-m", "snapshot of the work tree")
    return str(shadow), _git(shadow, "rev-parse", "HEAD")


@pytest.fixture(scope="session")
def session_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """PRE_COMMIT_HOME and the pip/virtualenv caches, shared by every test of the session."""
    base = tmp_path_factory.mktemp("pre-commit")
    return {
        "PRE_COMMIT_HOME": str(base / "home"),
        "PIP_CACHE_DIR": str(base / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "VIRTUALENV_OVERRIDE_APP_DATA": str(base / "virtualenv"),
        "PRE_COMMIT_COLOR": "never",
    }


@pytest.fixture(scope="session")
def hooks_config(tmp_path_factory: pytest.TempPathFactory, session_env: dict[str, str]) -> str:
    """A .pre-commit-config.yaml using this repository's hooks; their env is built here, once."""
    repo, rev = _hook_source(tmp_path_factory.mktemp("hook-source"))
    config = (f"repos:\n-   repo: {repo}\n    rev: {rev}\n    hooks:\n"
              f"    -   id: graphiq-ci-index\n    -   id: graphiq-ci-context\n")
    warm = Repo(tmp_path_factory.mktemp("warm"))
    warm.git("init", "-q", "-b", "main")
    warm.write({".pre-commit-config.yaml": config})
    home = tmp_path_factory.mktemp("home")
    env = clean_env(HOME=str(home), **session_env)
    result = subprocess.run([sys.executable, "-m", "pre_commit", "install-hooks"], cwd=warm.path,
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return config


class HookedRepo(Repo):
    """A shop repository whose git hooks run pre-commit with the session's environment."""

    def __init__(self, path: Path, extra_env: dict[str, str]) -> None:
        super().__init__(path)
        self.extra_env = extra_env

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        self.clock += 3600
        env = clean_env(GIT_AUTHOR_DATE=f"@{self.clock} +0000",
                        GIT_COMMITTER_DATE=f"@{self.clock} +0000", **self.extra_env)
        return subprocess.run(args, cwd=self.path, env=env, capture_output=True, text=True,
                              timeout=300)

    def git(self, *args: str) -> str:
        result = self.run("git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
                          "-c", "commit.gpgsign=false", *args)
        assert result.returncode == 0, f"git {args}: {result.stdout}{result.stderr}"
        return result.stdout.strip()

    def pre_commit(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(sys.executable, "-m", "pre_commit", *args)

    def symbols(self) -> set[str]:
        db = self.path / ".graphiq" / "graphiq.db"
        assert db.is_file(), "no index"
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return {name for (name,) in conn.execute("SELECT qualified FROM symbols")}
        finally:
            conn.close()


@pytest.fixture
def hooked(tmp_path: Path, session_env: dict[str, str], hooks_config: str) -> HookedRepo:
    """The shop on main with the config committed and both hook types installed."""
    repo = HookedRepo(tmp_path / "shop", {"HOME": os.environ["HOME"], **session_env})
    repo.git("init", "-q", "-b", "main")
    repo.write({**FILES, ".pre-commit-config.yaml": hooks_config})
    repo.git("add", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", "shop")
    installed = repo.pre_commit("install", "--hook-type", "pre-commit",
                                "--hook-type", "post-checkout")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return repo


def test_try_repo_indexes_every_file(tmp_path: Path, session_env: dict[str, str],
                                     hooks_config: str) -> None:
    del hooks_config  # only to warm the pip cache: try-repo builds its own env every time
    repo = HookedRepo(tmp_path / "shop", {"HOME": os.environ["HOME"], **session_env})
    repo.git("init", "-q", "-b", "main")
    repo.write(FILES)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "shop")

    result = repo.pre_commit("try-repo", str(ROOT), "graphiq-ci-index", "--all-files")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "graphiq-ci index" in result.stdout and "Passed" in result.stdout
    assert {"charge", "refund", "checkout", "ship", "test_charge_positive"} <= repo.symbols()


def test_commit_refreshes_the_index(hooked: HookedRepo) -> None:
    hooked.write({"billing.py": FILES["billing.py"] + "\n\ndef vat(amount):\n"
                                                     "    return amount * 0.2\n"})
    hooked.git("add", "billing.py")

    hooked.git("commit", "-q", "-m", "billing: vat")

    assert "vat" in hooked.symbols()
    assert "charge" in hooked.symbols()


def test_checkout_refreshes_the_index(hooked: HookedRepo) -> None:
    hooked.git("checkout", "-q", "-b", "other")
    hooked.write({"gifts.py": "def wrap_gift(order):\n    return order\n"})
    hooked.git("add", "gifts.py")
    hooked.git("commit", "-q", "-m", "gifts")
    hooked.git("checkout", "-q", "main")
    assert "wrap_gift" not in hooked.symbols()

    hooked.git("checkout", "-q", "other")

    assert "wrap_gift" in hooked.symbols()


def test_index_hook_prints_only_when_something_changed(hooked: HookedRepo) -> None:
    first = hooked.pre_commit("run", "graphiq-ci-index", "--all-files", "--verbose")
    second = hooked.pre_commit("run", "graphiq-ci-index", "--all-files", "--verbose")

    assert first.returncode == 0 and second.returncode == 0, first.stdout + second.stdout
    assert "indexed " in first.stdout
    hook_output = second.stdout.split("- duration:", 1)[1].split("\n", 1)[1]
    assert hook_output.strip() == "", second.stdout


def test_a_broken_index_never_blocks_a_commit(hooked: HookedRepo) -> None:
    shutil.rmtree(hooked.path / ".graphiq", ignore_errors=True)
    (hooked.path / ".graphiq").write_text("not a directory\n")
    (hooked.path / ".git" / "info" / "exclude").write_text(".graphiq\n")
    run = hooked.pre_commit("run", "graphiq-ci-index", "--all-files", "--verbose")
    assert run.returncode == 0 and "Passed" in run.stdout, run.stdout + run.stderr
    assert "index not refreshed" in run.stdout  # says why, in one line, and passes
    before = hooked.git("rev-parse", "HEAD")
    hooked.write({"shipping.py": FILES["shipping.py"] + "\n\ndef track(order):\n"
                                                       "    return order\n"})
    hooked.git("add", "shipping.py")

    committed = hooked.run("git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
                           "commit", "-m", "shipping: track")

    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert hooked.git("rev-parse", "HEAD") != before
    assert "Traceback" not in committed.stdout + committed.stderr
    assert (hooked.path / ".graphiq").is_file()


def test_manual_context_hook_prints_the_branch_change(hooked: HookedRepo) -> None:
    hooked.git("checkout", "-q", "-b", "feature")
    billing = FILES["billing.py"].replace("    return {\"amount\": amount",
                                          "    amount = round(amount, 2)\n"
                                          "    return {\"amount\": amount")
    hooked.write({"billing.py": billing})
    hooked.git("commit", "-q", "-am", "charge: round to cents")

    result = hooked.pre_commit("run", "--hook-stage", "manual", "graphiq-ci-context")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "What changed" in result.stdout
    assert "`charge`" in result.stdout and "`checkout`" in result.stdout


def _readme_precommit_config() -> str:
    """The `.pre-commit-config.yaml` block of the README, exactly as a user would copy it."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("```yaml\n# .pre-commit-config.yaml\n") + len("```yaml\n")
    return readme[start:readme.index("```", start)]


def test_the_readmes_precommit_snippet_works_as_copied(tmp_path: Path,
                                                       session_env: dict[str, str]) -> None:
    """graphiq-ci installed (this venv's, first on PATH), the README's config, the real
    framework: a commit indexes the repository, and a later commit's new function shows up."""
    config = _readme_precommit_config()
    bin_dir = str(Path(sys.executable).parent)
    extra = {"HOME": os.environ["HOME"], **session_env,
             "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    repo = HookedRepo(tmp_path / "shop", extra)
    repo.git("init", "-q", "-b", "main")
    repo.write({**FILES, ".pre-commit-config.yaml": config})
    installed = repo.pre_commit("install", "--hook-type", "pre-commit", "--hook-type",
                                "post-commit", "--hook-type", "post-checkout")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "shop")
    assert {"charge", "checkout", "ship"} <= repo.symbols()
    repo.write({"gifts.py": "def wrap_gift(order):\n    return order\n"})
    repo.git("add", "gifts.py")
    repo.git("commit", "-q", "-m", "gifts")
    assert "wrap_gift" in repo.symbols()
    # the post-commit run recorded the new commit: the index is not stale right after it
    stats = subprocess.run([sys.executable, "-m", "graphiq_ci", "stats", "--json"],
                           cwd=repo.path, env=clean_env(**extra), capture_output=True,
                           text=True, check=True)
    head = repo.git("rev-parse", "HEAD")
    freshness = json.loads(stats.stdout)["freshness"]
    assert (freshness["indexed_head"], freshness["head_moved"]) == (head, False), stats.stdout
