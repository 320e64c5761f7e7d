"""Opening a repository and running git in it, safely from inside hooks.

Everything else in `vcs/` goes through `open_repo` and `git_text` so that the
GIT_* variable scrubbing, byte-safe decoding and error mapping live in one place.

Git is run as a plain subprocess. GitPython cost ~50 ms to import and wrapped every
call in its own machinery, on every `context` call, for a dozen one-line commands;
the git CLI is the interface we need anyway (issue #14).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from graphiq_ci.errors import GraphiqError

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
#: the remote a trunk or base is looked for on, and fetched from into a shallow clone
REMOTE = "origin"


class Repo(NamedTuple):
    """An opened work tree: absolute paths, as git reported them when it was opened."""

    work_tree: str
    git_dir: str
    common_dir: str  # the main repository's git directory (differs in a `git worktree`)


class GitError(Exception):
    """A git command that failed; `open_repo` turns it into a one-line `GraphiqError`."""

    def __init__(self, args: Iterable[str], status: int, stderr: str) -> None:
        self.command, self.status, self.stderr = tuple(args), status, stderr
        super().__init__(f"git {_subcommand(self.command)} failed: {_first_line(stderr)}")


def _leaking_git_var(name: str) -> bool:
    if not name.startswith("GIT_") or name in _KEPT_GIT_VARS:
        return False
    return not name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))


def _git_env(network: bool = False) -> dict[str, str]:
    """os.environ without the leaking GIT_* variables, with git's messages in English (they
    end up in our one-line errors); `network` commands never prompt for credentials."""
    env = {k: v for k, v in os.environ.items() if not _leaking_git_var(k)}
    env["LANGUAGE"] = env["LC_ALL"] = "C"
    if network:
        env["GIT_TERMINAL_PROMPT"] = "0"
    return env


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "unknown error"


def _subcommand(args: Iterable[str]) -> str:
    """'log' from ('-c', 'k=v', 'log', ...), for messages."""
    rest = [a for a in args if a != "git"]
    i = 0
    while i < len(rest) and rest[i].startswith("-"):
        i += 2 if rest[i] == "-c" else 1
    return rest[i] if i < len(rest) else "command"


def _spawn_failed(exc: OSError) -> GraphiqError:
    return GraphiqError(f"git is not available: {_first_line(str(exc))}")


@contextmanager
def open_repo(repo_root: str | os.PathLike[str]) -> Iterator[Repo]:
    """Open the work tree containing `repo_root` (a plain checkout or a `git worktree`).

    Git failures inside the block become a one-line `GraphiqError`: they are
    almost always caused by the environment (not a repo, dubious ownership, no
    network), not by a bug the user should see a traceback for.
    """
    path = os.path.abspath(os.fspath(repo_root))
    if not os.path.isdir(path):
        raise GraphiqError(f"not a git repository: {os.fspath(repo_root)}")
    # one process answers all three; --show-toplevel last: it is what fails in a bare repo
    status, out, err = _run(path, ("rev-parse", "--is-bare-repository", "--absolute-git-dir",
                                   "--git-common-dir", "--show-toplevel"))
    lines = out.splitlines()
    if lines[:1] == ["true"] and len(lines) >= 3:
        raise GraphiqError(f"bare repository has no working tree: {lines[1]}")
    if status != 0 or len(lines) < 4:
        if "not a git repository" in err.lower() or not err.strip():
            raise GraphiqError(f"not a git repository: {os.fspath(repo_root)}")
        raise GraphiqError(f"git rev-parse failed: {_first_line(err)}")
    repo = Repo(lines[3], lines[1], os.path.normpath(os.path.join(path, lines[2])))
    try:
        yield repo
    except GitError as exc:
        raise GraphiqError(str(exc)) from None


def work_tree(repo: Repo) -> str:
    """The absolute top-level directory of the work tree; paths we report are relative to it."""
    return repo.work_tree


def _run(cwd: str, args: tuple[str, ...], *, network: bool = False,
         stdin: str | None = None) -> tuple[int, str, str]:
    try:
        proc = subprocess.run(
            ["git", *_STABLE_CONFIG, *args], cwd=cwd, env=_git_env(network),
            input=None if stdin is None else stdin.encode("utf-8", "surrogateescape"),
            stdin=subprocess.DEVNULL if stdin is None else None, capture_output=True,
            timeout=NETWORK_TIMEOUT if network else None,
        )
    except subprocess.TimeoutExpired:
        return -9, "", f"timed out after {NETWORK_TIMEOUT:.0f} s"
    except OSError as exc:
        raise _spawn_failed(exc) from None
    return (proc.returncode, proc.stdout.decode("utf-8", "surrogateescape"),
            proc.stderr.decode("utf-8", "replace"))


def run_git(repo: Repo, *args: str, network: bool = False) -> tuple[int, str, str]:
    """Run git without raising: (exit status, stdout, stderr).

    Output is decoded with surrogateescape so that non-UTF-8 file names survive
    a round trip to `os` calls. `network` commands never prompt for credentials
    (that would hang CI) and are killed after NETWORK_TIMEOUT seconds.
    """
    return _run(repo.work_tree, args, network=network)


def git_text(repo: Repo, *args: str) -> str:
    """Run git and return its stdout; a failure raises (and `open_repo` makes it a GraphiqError)."""
    status, out, err = run_git(repo, *args)
    if status != 0:
        raise GitError(args, status, err)
    return out


def git_stream(repo: Repo, *args: str) -> Generator[bytes, None, None]:
    """Yield git's stdout in chunks; close the generator early to stop git.

    Nothing is buffered, so a caller that has seen enough commits never pays
    for the rest of the history. A git failure raises once output ends.
    """
    try:
        proc = subprocess.Popen(["git", *_STABLE_CONFIG, *args], cwd=repo.work_tree,
                                env=_git_env(), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        raise _spawn_failed(exc) from None
    assert proc.stdout is not None and proc.stderr is not None
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
        raise GitError(args, status, err.decode("utf-8", "replace"))


def resolve_commits(repo: Repo, revs: Iterable[str]) -> dict[str, str | None]:
    """The full sha each rev names, None where it names no commit; one `cat-file --batch-check`
    answers them all, with rev-parse's own lookup rules (trunk detection asks up to nine)."""
    wanted = list(dict.fromkeys(revs))
    asked = [r for r in wanted if not r.startswith("-") and "\n" not in r and r.strip() == r
             and r]  # never let a ref name become an option or a second request
    found: dict[str, str | None] = dict.fromkeys(wanted)
    if not asked:
        return found
    status, out, _ = _run(repo.work_tree, ("cat-file", "--batch-check"),
                          stdin="".join(f"{r}^{{commit}}\n" for r in asked))
    answers = out.splitlines()
    if status != 0 or len(answers) != len(asked):
        return {r: _resolve_one(repo, r) if r in asked else None for r in wanted}
    for rev, line in zip(asked, answers, strict=True):
        fields = line.split()
        if len(fields) == 3 and fields[1] == "commit":
            found[rev] = fields[0]
    return found


def _resolve_one(repo: Repo, rev: str) -> str | None:
    status, out, _ = run_git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return out.strip() if status == 0 and out.strip() else None


def resolve_commit(repo: Repo, rev: str) -> str | None:
    """The full sha `rev` names, or None if it names no commit (typo, unborn branch, no ref)."""
    if rev.startswith("-"):  # never let a ref name become an option
        return None
    return _resolve_one(repo, rev)


def head_commit(repo: Repo) -> str | None:
    """HEAD's sha, or None in a repository without commits (unborn branch)."""
    return resolve_commit(repo, "HEAD")


def has_commits(repo: Repo, head: str | None = None) -> bool:
    """True if any ref or HEAD points at a commit; an empty repo has nothing to diff or mine.
    `head`: HEAD's sha when the caller has it already."""
    if (head or head_commit(repo)) is not None:
        return True
    status, out, _ = run_git(repo, "rev-list", "-n", "1", "--all")
    return status == 0 and bool(out.strip())


def is_shallow(repo: Repo) -> bool:
    return os.path.exists(os.path.join(repo.common_dir, "shallow"))


def has_remote(repo: Repo, name: str) -> bool:
    status, out, _ = run_git(repo, "remote")
    return status == 0 and name in out.split()


def text_at(repo: Repo, commit: str, path: str) -> str | None:
    """`path` as `commit` has it (decoded as run_git decodes), or None where it has none."""
    if path.startswith("-") or commit.startswith("-"):
        return None
    status, out, _ = run_git(repo, "show", f"{commit}:{path}")
    return out if status == 0 else None


class TextAt:
    """Files as one commit has them, each read once (`git show`) from the repository opened
    once (opening it is a git process of its own). PR mode reads the base's signatures and
    definitions from it; with no commit (an empty repository) every file is None."""

    def __init__(self, root: str | os.PathLike[str], commit: str | None) -> None:
        self.root, self.commit = root, commit
        self._repo: Repo | None = None
        self._files: dict[str, list[str] | None] = {}

    def lines(self, path: str) -> list[str] | None:
        """`path`'s lines at the commit, None where it has no such file."""
        if self.commit is None:
            return None
        if path not in self._files:
            if self._repo is None:
                with open_repo(self.root) as repo:
                    self._repo = repo
            text = text_at(self._repo, self.commit, path)  # a git failure is None, no raise
            self._files[path] = text.splitlines() if text is not None else None
        return self._files[path]
