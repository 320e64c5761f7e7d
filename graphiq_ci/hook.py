"""The git-hook refresh: silent when nothing changed, never fails the hook.

Git runs it on every commit, checkout, merge and rebase, so it loads nothing else (the CLI
calls it for `graphiq-ci index --hook`, and `cli.run` takes a shortcut to it for exactly that
command line, before even the argument parser).
"""

from __future__ import annotations

import sys
from pathlib import Path


def refresh_quietly(repo: Path) -> int:
    """Refresh the index; print one line when something changed, its notes (an index rebuilt),
    one warning on failure."""
    from graphiq_ci.index.progress import StderrProgress
    from graphiq_ci.index.run import find_root, run_index, summary
    from graphiq_ci.phases import phase
    from graphiq_ci.store import DB_NAME, index_dir

    phase("hook")
    progress = None
    try:
        if not (index_dir(find_root(repo)) / DB_NAME).exists():  # the first hooked commit
            print("graphiq-ci: building the index (once; later commits refresh it)",
                  file=sys.stderr)
            progress = StderrProgress()
        report = run_index(repo, progress=progress)
    except Exception as exc:  # a hook must never block a commit over the index
        print(f"graphiq-ci: index not refreshed: {exc}", file=sys.stderr)
        return 0
    finally:
        if progress:
            progress.close()
    for note in report.notes:  # e.g. a damaged index set aside: rare, and worth one line
        print(f"graphiq-ci: {note}", file=sys.stderr)
    if report.changed:
        print(summary(report))
    return 0
