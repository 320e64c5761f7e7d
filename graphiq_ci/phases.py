"""Where a long run is, for whoever asks: `GRAPHIQ_PHASE_LOG=FILE` appends one line per phase.

Each line is the seconds since the process started and the phase (`parse`, `write 2`,
`fts 2`, `indexes`, `resolve`, `deep-edges`, `history`, `end`, `graph-cache`, `hook`), flushed
before the phase's work begins (`end`: an index run's last phase is over). It says where the
time of a slow run goes (bench_index.py prints it per phase), and it is how the fault tests
prove that a SIGKILL landed in a live process in the phase they aimed at.
"""

from __future__ import annotations

import os
import time

_START = time.monotonic()


def phase(name: str) -> None:
    path = os.environ.get("GRAPHIQ_PHASE_LOG")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{time.monotonic() - _START:.3f} {os.getpid()} {name}\n")
    except OSError:
        pass  # a trace must never fail the run it traces
