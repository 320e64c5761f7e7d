"""How a long indexing run shows itself on stderr, on a terminal and in a CI log.

A terminal gets a one-line bar once a run has taken ~0.5 s. A log (no TTY: CI, a hook's
captured output) cannot redraw a line, so it gets a plain line every few seconds, with the
rate, and the first one only once the run has lasted that long: a quick refresh stays silent.
On GitHub Actions the lines sit in one `::group::`, folded in the job log.
`GRAPHIQ_PROGRESS_SECONDS` sets the log's interval (0: a line per file).
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

BAR_AFTER_S = 0.5
LOG_EVERY_S = 5.0


class StderrProgress:
    """A `Progress` callback for `run_index`: `progress(done, total)` per parsed file."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.every_s = _seconds(os.environ.get("GRAPHIQ_PROGRESS_SECONDS"), LOG_EVERY_S)
        self.tty = self.stream.isatty()
        self.github = os.environ.get("GITHUB_ACTIONS") == "true"
        self.start = time.monotonic()
        self.last_line = self.start
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.tty:
            if now - self.start >= BAR_AFTER_S:
                self._bar(done, total)
        elif now - self.last_line >= self.every_s or (self.shown and done == total):
            self._line(done, total, now)

    def _bar(self, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        self.stream.write(f"\rindexing [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        self.stream.flush()
        self.shown = True

    def _line(self, done: int, total: int, now: float) -> None:
        if not self.shown and self.github:
            self.stream.write("::group::graphiq-ci: indexing\n")
        rate = done / max(now - self.start, 1e-6)
        self.stream.write(f"graphiq-ci: indexing {done}/{total} files ({rate:.0f} files/s)\n")
        self.stream.flush()
        self.last_line = now
        self.shown = True

    def close(self) -> None:
        """End the bar's line, or the log's group."""
        if not self.shown:
            return
        if self.tty:
            self.stream.write("\r\033[K")
        elif self.github:
            self.stream.write("::endgroup::\n")
        self.stream.flush()


def _seconds(value: str | None, default: float) -> float:
    try:
        return max(0.0, float(value)) if value else default
    except ValueError:
        return default
