"""Files beside the index the graph keeps (the cache, its delta, the stamp of the cache file
whose CRC was verified): written whole under a temporary name and renamed into place, so a
reader sees an old file or a new one, never half of one; set aside when damaged, with one
line saying where."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from graphiq_ci.phases import phase

#: the delta over the cached graph (graph_delta), named here so the cache can remove it
#: without importing the delta's code, which a query needs only once the index moved on
DELTA_NAME = "graph.delta"


def write_whole(path: Path, parts: Iterable[bytes], step: str) -> bool:
    """Write `parts` as `path` (phase `step` once the temporary file exists); False when it
    can't be written (a read-only checkout), leaving no half file."""
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        remove_orphans(path)
        with open(tmp, "wb") as out:
            phase(step)  # the file exists from here: a kill leaves an orphan
            out.writelines(parts)
        os.replace(tmp, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False


def note(text: str) -> None:
    print(f"graphiq-ci: {text}", file=sys.stderr)


def remove_orphans(path: Path) -> None:
    """Temporary caches of processes that died writing them (a SIGKILL mid-write)."""
    for tmp in path.parent.glob(f"{path.name}.tmp*"):
        pid = tmp.suffix.removeprefix(".tmp")
        if pid.isdigit() and not alive(int(pid)):
            tmp.unlink(missing_ok=True)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def set_aside(path: Path, why: str, what: str = "graph cache") -> None:
    aside = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.replace(path, aside)
    except OSError:
        return  # another process replaced it first, or a read-only directory
    note(f"{what} unreadable ({why}), rebuilding it; the old file is kept as {aside.name}")


class CheckedStamp:
    """`graph.checked`: the cache file whose CRC a query verified, as its size, modification
    time, inode and CRC. Reading the whole file for its CRC was 11 ms of a 0.22 s warm
    `context` on sqlalchemy (25 MB) and grows with the repository; a later query that finds
    the same file (nothing rewrote it: a writer renames a new file into place, and any write
    changes the modification time) and the same CRC in its header skips it. The structural
    checks on every section still run on every load; bit rot under an unchanged size,
    modification time and inode is what this gives up (it then fails where the bad bytes are
    read; SQLite's file beside it carries no checksum at all)."""

    NAME = "graph.checked"

    def __init__(self, cache: Path, identity: tuple[int, int, int], crc: int) -> None:
        self.path = cache.with_name(self.NAME)
        self.line = f"{identity[0]} {identity[1]} {identity[2]} {crc}\n"

    def holds(self) -> bool:
        try:
            return self.path.read_text(encoding="ascii") == self.line
        except (OSError, UnicodeDecodeError):
            return False

    def record(self) -> None:
        # a read-only checkout cannot keep the stamp: the next load verifies the CRC again
        write_whole(self.path, [self.line.encode("ascii")], "graph-checked")
