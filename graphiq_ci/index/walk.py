"""Which files a repo has: git's view (tracked + untracked, not ignored), else a gitignore walk."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from graphiq_ci.paths import storable
from graphiq_ci.store import INDEX_DIR

if TYPE_CHECKING:  # ~15 ms to import: only a directory that is not a git work tree needs it
    import pathspec

_ALWAYS_SKIP_DIRS = frozenset({".git", INDEX_DIR, ".hg", ".svn", "node_modules", "__pycache__"})


class FileStat(NamedTuple):
    """A file on disk; its (mtime_ns, size) against the index decides whether it is read."""

    path: str  # repo-relative, forward slashes
    mtime_ns: int
    size: int


def clean_git_env() -> dict[str, str]:
    """Git variables leak in from hooks (GIT_INDEX_FILE, GIT_DIR…) and would point git elsewhere."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def _git_files(root: Path) -> list[str] | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard", "--deduplicate"],
            capture_output=True, check=True, env=clean_git_env(),
        ).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


#: gitattributes the repository sets on files that are not its own hand-written code
#: (GitHub's linguist convention: collapsed in diffs, left out of its language statistics)
NOT_THE_PROJECTS = ("linguist-vendored", "linguist-generated")


def _not_the_projects(root: Path, names: list[str]) -> set[str]:
    """Files `.gitattributes` marks vendored or generated (`src/decNumber/** linguist-vendored`,
    `src/parser.[ch] linguist-generated`): a copied library or a parser generated from its
    grammar is not where a change to this project is made, so they are not indexed, as a
    `vendor/` directory is not. Asked of git itself (nested files, macros, `-attr` unset)."""
    if not any(n == ".gitattributes" or n.endswith("/.gitattributes") for n in names):
        return set()
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "check-attr", "-z", "--stdin", *NOT_THE_PROJECTS],
            input="\0".join(names).encode("utf-8", "surrogateescape"),
            capture_output=True, check=True, env=clean_git_env(),
        ).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        return set()
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    return {fields[i] for i in range(0, len(fields) - 2, 3)
            if fields[i + 2] not in ("unspecified", "unset", "false")}


def _walked_files(root: Path) -> list[str]:
    """A non-git directory: honour every .gitignore on the way down, never follow links out."""
    import pathspec

    found: list[str] = []
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        ignore = Path(dirpath) / ".gitignore"
        if ignore.is_file():
            lines = ignore.read_text(errors="replace").splitlines()
            specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(lines)))

        def ignored(rel: str, is_dir: bool) -> bool:
            probe = rel + "/" if is_dir else rel
            return any(probe.startswith(base) and s.match_file(probe[len(base):])
                       for base, s in specs)

        dirnames[:] = sorted(
            d for d in dirnames
            if d not in _ALWAYS_SKIP_DIRS and not ignored(rel_dir + d, True)
        )
        found += [rel_dir + f for f in sorted(filenames) if not ignored(rel_dir + f, False)]
    return found


def list_files(root: Path, unstorable: list[str] | None = None) -> list[FileStat]:
    """The files of `root`, with their stat.

    A symlink that leaves the repository or loops, and a git submodule, are listed too (with
    the link's own stat) so that the parser records why it skips them; nothing outside
    `root` is ever read (`parse.parse_file` checks the resolved path again before reading).
    A name that is not UTF-8 is left out (`paths.storable`) and, when `unstorable` is given,
    appended to it for the caller to report.
    """
    names = _git_files(root)
    if names is None:
        names = _walked_files(root)
    else:
        marked = _not_the_projects(root, names)
        names = [n for n in names if n not in marked]
    if not all(map(storable, names)):
        if unstorable is not None:
            unstorable += [n for n in names if not storable(n)]
        names = [n for n in names if storable(n)]
    out: list[FileStat] = []
    top = str(root)  # os.path, not pathlib: every refresh stats every file (~3 us a Path)
    for rel in names:
        if rel.split("/", 1)[0] in _ALWAYS_SKIP_DIRS:
            continue
        try:
            st = os.lstat(os.path.join(top, rel))
        except OSError:  # vanished since git listed it
            continue
        if stat.S_ISLNK(st.st_mode):
            full = root / rel
            try:
                target = full.stat()
            except OSError:  # dangling or a loop: recorded as skipped
                target = None
            if target is not None and stat.S_ISREG(target.st_mode) \
                    and inside(root, full):
                st = target
        elif not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            continue  # fifos, sockets, devices: never opened
        out.append(FileStat(rel, st.st_mtime_ns, st.st_size))
    return out


def inside(root: Path, path: Path) -> bool:
    """Whether `path`, all symlinks resolved, lies within `root` (False for a loop)."""
    try:
        return path.resolve(strict=True).is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False
