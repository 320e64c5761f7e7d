"""Where a long run is, for whoever asks: `GRAPHIQ_PHASE_LOG=FILE` appends one line per phase.

Each line is the seconds since the process started and the phase (`parse`, `write 2`,
`fts 2`, `indexes`, `resolve`, `deep-edges`, `history`, `end`, `graph-cache`, `hook`), flushed
before the phase's work begins (`end`: an index run's last phase is over). It says where the
time of a slow run goes (bench_index.py prints it per phase), and it is how the fault tests
prove that a SIGKILL landed in a live process in the phase they aimed at.
"""

from __future__ import annotations

import io
import os
import time

_START = time.monotonic()
#: the log file, opened once per path: an index run logs a `parse` / `write N` pair per file
#: it writes, and opening the file for each line took 17 µs of its ~23 (zod: 1,340 lines in
#: a full build bench_index.py times with the log on). Opened to append, so a log truncated
#: meanwhile is written from its new end; each line is flushed, so a SIGKILL loses none.
_open: tuple[str, io.TextIOWrapper] | None = None


def phase(name: str) -> None:
    global _open
    path = os.environ.get("GRAPHIQ_PHASE_LOG")
    if not path:
        return
    try:
        if _open is None or _open[0] != path:
            _open = (path, open(path, "a", encoding="utf-8"))  # noqa: SIM115 - kept open
        _open[1].write(f"{time.monotonic() - _START:.3f} {os.getpid()} {name}\n")
        _open[1].flush()
    except OSError:
        pass  # a trace must never fail the run it traces
