"""Real git repositories built in tmp_path, and a git environment tests can't leak out of."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

#: Commit times start here and advance an hour per commit, so history order is fixed.
EPOCH = 1_700_000_000


class GitDir:
    """A work tree plus the few git verbs the tests script histories with."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = EPOCH

    def __call__(self, *args: str, when: int | None = None) -> str:
        env = dict(os.environ)
        if when is not None:
            env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
        return subprocess.run(
            ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
             "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
             "-c", "advice.detachedHead=false", *args],
            cwd=self.path, env=env, check=True, capture_output=True, text=True,
        ).stdout.strip()

    def write(self, files: dict[str, str | None]) -> None:
        """Write each path's text; None deletes the file."""
        for name, text in files.items():
            target = self.path / name
            if text is None:
                target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)

    def commit(self, files: dict[str, str | None] | None = None, message: str = "change",
               when: int | None = None) -> str:
        """Write `files`, commit everything, return the new sha."""
        self.write(files or {})
        self("add", "-A")
        self.clock += 3600
        self("commit", "-q", "--allow-empty", "-m", message,
             when=self.clock if when is None else when)
        return self("rev-parse", "HEAD")

    def sha(self, rev: str = "HEAD") -> str:
        return self("rev-parse", rev)


NewRepo = Callable[..., GitDir]


@pytest.fixture
def new_repo(tmp_path: Path) -> NewRepo:
    """Factory: an initialised, empty repo (branch main) under tmp_path/<name>."""

    def make(name: str = "repo") -> GitDir:
        path = tmp_path / name
        path.mkdir()
        repo = GitDir(path)
        repo("init", "-q")
        return repo

    return make


@pytest.fixture
def clone(tmp_path: Path) -> Callable[..., GitDir]:
    """Factory: `git clone <args> file://<origin> tmp_path/<name>`."""

    def make(origin: GitDir, name: str, *args: str) -> GitDir:
        GitDir(tmp_path)("clone", "-q", *args, f"file://{origin.path}", name)
        return GitDir(tmp_path / name)

    return make


@pytest.fixture
def forked(new_repo: NewRepo) -> GitDir:
    """main: a-b-c-d; feature forks at b and adds two commits; feature checked out.

    Files: base.py on main; main adds m.py at c, edits base.py at d; feature adds f.py, edits
    base.py.
    """
    repo = new_repo()
    repo.commit({"base.py": "x = 1\n", "README": "hi\n"}, "a")
    repo.commit({"util.py": "def u():\n    return 1\n"}, "b")
    repo("checkout", "-q", "-b", "feature")
    repo.commit({"f.py": "def f():\n    return 2\n"}, "f1")
    repo.commit({"base.py": "x = 2\n"}, "f2")
    repo("checkout", "-q", "main")
    repo.commit({"m.py": "M = 3\n"}, "c")
    repo.commit({"util.py": "def u():\n    return 10\n"}, "d")
    repo("checkout", "-q", "feature")
    return repo
