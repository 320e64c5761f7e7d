"""Shared fixtures: real git repositories in temp dirs, and a home that tests can't escape."""

from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests never read or write the user's home or git config, nor see GIT_* from a hook."""
    home = tmp_path_factory.mktemp("home")
    for key in list(os.environ):
        if key.startswith("GIT_") and key != "GIT_EXEC_PATH":
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.com")
    for key in list(os.environ):
        if key.startswith("GITHUB_"):
            monkeypatch.delenv(key)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


Writer = Callable[[dict[str, str]], None]


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """A git repo with one commit holding `files` (path → text), on branch main."""

    def make(files: dict[str, str]) -> Path:
        repo = tmp_path / "repo"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        for path, text in files.items():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "initial")
        return repo

    return make


PROJECT_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[[list[str]], CliResult]:
    """The real command line in this process (`graphiq_ci.cli.run`), its output captured."""
    from graphiq_ci.cli import run

    def invoke(argv: list[str]) -> CliResult:
        capsys.readouterr()
        code = run(list(argv))
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return invoke


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """name → parser of every `graphiq-ci` subcommand, as the CLI builds them."""
    from graphiq_ci.cli import build_parser

    parser = build_parser()
    group = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(group.choices)


def cli_options(name: str) -> set[str]:
    return {o for action in subcommands()[name]._actions for o in action.option_strings}
