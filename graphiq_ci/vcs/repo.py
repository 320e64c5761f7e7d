"""Opening a repository and running git in it, safely from inside hooks.

Everything else in `vcs/` goes through `open_repo` and `git_text` so that the
GIT_* variable scrubbing, byte-safe decoding and error mapping live in one place.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from graphiq_ci.errors import GraphiqError

if TYPE_CHECKING:
    import git

# Variables git itself needs to reach a remote or find its helpers; every other
# GIT_* variable is per-invocation state (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE…)
# that git exports to hooks and that would point our commands at the wrong
# repository or index (same list as pre-commit's `no_git_env`, pre-commit#300).
_KEPT_GIT_VARS = frozenset(
    {
        "GIT_EXEC_PATH",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_SSL_CAINFO",
        "GIT_SSL_NO_VERIFY",
        "GIT_CONFIG_COUNT",
        "GIT_HTTP_PROXY_AUTHMETHOD",
        "GIT_ALLOW_PROTOCOL",
        "GIT_ASKPASS",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_TERMINAL_PROMPT",
        "GIT_PYTHON_GIT_EXECUTABLE",
        "GIT_PYTHON_REFRESH",
    }
)

# Given to every git command so user config can't change the output we parse.
_STABLE_CONFIG = (
    "-c",
    "core.quotePath=false",
    "-c",
    "diff.noprefix=false",
    "-c",
    "diff.mnemonicPrefix=false",
    "-c",
    "color.ui=false",
    "-c",
    "log.showSignature=false",
)


#: Seconds a fetch may take before we give up on it and degrade instead.
NETWORK_TIMEOUT = 120.0


def _leaking_git_var(name: str) -> bool:
    if not name.startswith("GIT_") or name in _KEPT_GIT_VARS:
        return False
    return not name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))


@contextmanager
def _scrubbed_git_env() -> Iterator[None]:
    """Hide leaking GIT_* variables from os.environ while git runs.

    GitPython reads os.environ both when it opens a repository and on every
    command, and offers no way to *unset* a variable, so the variables are
    removed for the duration of the block and restored afterwards.
    """
    removed = {k: v for k, v in os.environ.items() if _leaking_git_var(k)}
    for key in removed:
        del os.environ[key]
    try:
        yield
    finally:
        os.environ.update(removed)


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "unknown error"


def _subcommand(command: str | list[str] | tuple[str, ...]) -> str:
    """'log' from ['git', '-c', 'k=v', 'log', ...], for messages."""
    args = command.split() if isinstance(command, str) else list(command)
    i = 1
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] == "-c" else 1
    return args[i] if i < len(args) else "command"


def _raw_stderr(exc: git.GitCommandError) -> str:
    """GitPython wraps stderr as "\n  stderr: '...'"; unwrap it for a one-line message."""
    text = str(exc.stderr).strip()
    if text.startswith("stderr: '") and text.endswith("'"):
        text = text[len("stderr: '") : -1]
    return text


@contextmanager
def open_repo(repo_root: str | os.PathLike[str]) -> Iterator[git.Repo]:
    """Open the work tree containing `repo_root` (a plain checkout or a `git worktree`).

    Git failures inside the block become a one-line `GraphiqError`: they are
    almost always caused by the environment (not a repo, dubious ownership, no
    network), not by a bug the user should see a traceback for.
    """
    try:
        import git
    except ImportError as exc:  # GitPython refuses to import without a git executable
        raise GraphiqError(f"git is not available: {_first_line(str(exc))}") from None

    with _scrubbed_git_env():
        try:
            repo = git.Repo(os.fspath(repo_root), search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise GraphiqError(f"not a git repository: {os.fspath(repo_root)}") from None
        try:
            if repo.bare:
                raise GraphiqError(f"bare repository has no working tree: {repo.git_dir}")
            yield repo
        except git.GitCommandError as exc:
            raise GraphiqError(
                f"git {_subcommand(exc.command)} failed: {_first_line(_raw_stderr(exc))}"
            ) from None
        finally:
            repo.close()


def work_tree(repo: git.Repo) -> str:
    """The absolute top-level directory of the work tree; paths we report are relative to it."""
    assert repo.working_tree_dir is not None  # open_repo rejects bare repositories
    return os.fspath(repo.working_tree_dir)


def run_git(
    repo: git.Repo, *args: str, network: bool = False
) -> tuple[int, str, str]:
    """Run git without raising: (exit status, stdout, stderr).

    Output is decoded with surrogateescape so that non-UTF-8 file names survive
    a round trip to `os` calls. `network` commands never prompt for credentials
    (that would hang CI) and are killed after NETWORK_TIMEOUT seconds.
    """
    status, out, err = repo.git.execute(
        ["git", *_STABLE_CONFIG, *args],
        with_extended_output=True,
        with_exceptions=False,
        stdout_as_string=False,
        strip_newline_in_stdout=False,
        env={"GIT_TERMINAL_PROMPT": "0"} if network else None,
        kill_after_timeout=NETWORK_TIMEOUT if network else None,
    )
    return status, _decode(out, "surrogateescape"), _decode(err, "replace")


def _decode(data: str | bytes, errors: str) -> str:
    return data if isinstance(data, str) else data.decode("utf-8", errors)


def git_text(repo: git.Repo, *args: str) -> str:
    """Run git and return its stdout; a failure raises (and `open_repo` makes it a GraphiqError)."""
    import git as gitpython

    status, out, err = run_git(repo, *args)
    if status != 0:
        raise gitpython.GitCommandError(["git", *args], status, err)
    return out


def git_stream(repo: git.Repo, *args: str) -> Generator[bytes, None, None]:
    """Yield git's stdout in chunks; close the generator early to stop git.

    Nothing is buffered, so a caller that has seen enough commits never pays
    for the rest of the history. A git failure raises once output ends.
    """
    import git as gitpython

    handle = repo.git.execute(["git", *_STABLE_CONFIG, *args], as_process=True)
    proc = handle.proc
    assert proc is not None and proc.stdout is not None and proc.stderr is not None
    finished = False
    try:
        while chunk := proc.stdout.read(1 << 16):
            yield chunk
        finished = True
    finally:
        if not finished:
            proc.kill()
        proc.stdout.close()
        err = proc.stderr.read()
        proc.stderr.close()
        status = proc.wait()
    if status != 0:
        raise gitpython.GitCommandError(["git", *args], status, err)


def resolve_commit(repo: git.Repo, rev: str) -> str | None:
    """The full sha `rev` names, or None if it names no commit (typo, unborn branch, no ref)."""
    if rev.startswith("-"):  # never let a ref name become an option
        return None
    status, out, _ = run_git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return out.strip() if status == 0 and out.strip() else None


def head_commit(repo: git.Repo) -> str | None:
    """HEAD's sha, or None in a repository without commits (unborn branch)."""
    return resolve_commit(repo, "HEAD")


def has_commits(repo: git.Repo) -> bool:
    """True if any ref or HEAD points at a commit; an empty repo has nothing to diff or mine."""
    if head_commit(repo) is not None:
        return True
    status, out, _ = run_git(repo, "rev-list", "-n", "1", "--all")
    return status == 0 and bool(out.strip())


def is_shallow(repo: git.Repo) -> bool:
    return os.path.exists(os.path.join(repo.common_dir, "shallow"))


def has_remote(repo: git.Repo, name: str) -> bool:
    return name in {remote.name for remote in repo.remotes}
