"""HEAD and origin's HEAD read from a plain `.git` directory's files, as git reads them.

Every `context`, `search` and hook refresh asks for HEAD, and every `context` for origin's
HEAD: a git process each, where two small files answer (issue #14). Whenever the files may not
say what git would (a linked worktree's or submodule's `.git` file, the reftable format, a
repository another user owns, which git refuses, a ref pointing at another ref), these return
None and the caller asks git.
"""

from __future__ import annotations

import os
import stat


def plain_git_dir(root: str | os.PathLike[str]) -> str | None:
    """`root/.git` when its ref files can be read directly, else None."""
    git_dir = os.path.join(os.fspath(root), ".git")
    geteuid = getattr(os, "geteuid", None)
    try:
        st = os.stat(git_dir)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or geteuid is None or st.st_uid != geteuid():
        return None
    if any(os.path.exists(os.path.join(git_dir, name)) for name in ("reftable", "commondir")):
        return None
    return git_dir


def head_commit_from_files(root: str | os.PathLike[str]) -> str | None:
    """What `git rev-parse -q --verify HEAD` prints: HEAD's sha, "" on an unborn branch;
    None when only git can tell."""
    git_dir = plain_git_dir(root)
    head = _read(git_dir, "HEAD") if git_dir else None
    if git_dir is None or head is None:
        return None
    if not head.startswith("ref: "):
        return head if _is_sha(head) else None
    ref = head.removeprefix("ref: ").strip()
    if not os.path.lexists(os.path.join(git_dir, ref)):
        return _packed(git_dir, ref)
    loose = _read(git_dir, ref)
    return loose if loose is not None and _is_sha(loose) else None


def symbolic_target_from_files(root: str | os.PathLike[str], ref: str) -> str | None:
    """What `git symbolic-ref -q REF` prints: the ref `ref` points to, "" when it is not a
    symbolic ref (symbolic refs are never packed); None when only git can tell."""
    git_dir = plain_git_dir(root)
    if git_dir is None:
        return None
    if not os.path.lexists(os.path.join(git_dir, ref)):
        return ""
    content = _read(git_dir, ref)
    if content is None:
        return None
    return content.removeprefix("ref: ").strip() if content.startswith("ref: ") else ""


def _read(git_dir: str, rel: str) -> str | None:
    try:
        with open(os.path.join(git_dir, rel), encoding="utf-8") as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _packed(git_dir: str, ref: str) -> str | None:
    """The ref's sha in packed-refs, "" when it is in neither place (an unborn branch)."""
    try:
        with open(os.path.join(git_dir, "packed-refs"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        sha, _, name = line.partition(" ")
        if name == ref and _is_sha(sha):
            return sha
    return ""


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)
