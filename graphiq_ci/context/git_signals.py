"""Git-derived boosts for one run: branch, recency and co-change, as named per-file features.

Computed once here (the search layer owns the clock and the branch state) and handed to the
scorer as `Boosts`, so a new git signal is a new key, never a new parameter.
"""

from __future__ import annotations

import posixpath
import time
from collections import defaultdict

from graphiq_ci.search import Boosts
from graphiq_ci.store import Store
from graphiq_ci.vcs import BranchDiff, recency_boost

MIN_RECENCY = 0.05
COCHANGE_MIN_CONFIDENCE = 0.3


def git_boosts(store: Store, weights: dict[str, float], branch: BranchDiff | None) -> Boosts:
    per_file: dict[str, dict[str, float]] = defaultdict(dict)
    now = time.time()
    for path, changed_at in store.conn.execute("SELECT path, recency FROM files WHERE recency > 0"):
        boost = recency_boost(now - changed_at)
        if boost >= MIN_RECENCY:
            per_file[path]["recency"] = round(weights["recency"] * boost, 4)
    if branch is not None and branch.files:
        changed = set(branch.paths)
        dirs = {posixpath.dirname(p) for p in changed}
        for (path,) in store.conn.execute("SELECT path FROM files"):
            if path in changed:
                per_file[path]["branch"] = weights["branch"]
            elif posixpath.dirname(path) in dirs:
                per_file[path]["branch_dir"] = weights["branch_dir"]
        for path, confidence in cochanged_with(store, changed).items():
            per_file[path]["cochange"] = round(weights["cochange"] * confidence, 4)
    return Boosts(per_file=dict(per_file))


def cochanged_with(store: Store, changed: set[str]) -> dict[str, float]:
    """Unchanged files that usually change with `changed`, by their best confidence."""
    out: dict[str, float] = {}
    marks = ",".join("?" * len(changed))
    for b, confidence in store.conn.execute(
        f"SELECT b, max(confidence) FROM cochange WHERE a IN ({marks}) AND confidence >= ? "
        f"GROUP BY b", [*sorted(changed), COCHANGE_MIN_CONFIDENCE],
    ):
        if b not in changed:
            out[b] = float(confidence)
    return out
