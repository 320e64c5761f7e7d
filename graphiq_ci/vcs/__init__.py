"""Git facts for one run: trunk, branch diff, changed hunks and symbols, recency, co-change.

Computed here once with the git CLI and handed to scorers as plain data; no
scorer runs git. User-caused problems raise `GraphiqError`; degraded answers
(shallow clone, no trunk, empty repo) say why in `BranchDiff.notes`.
"""

from __future__ import annotations

from graphiq_ci.vcs.cochange import (
    CoChange,
    RelatedFile,
    cochange,
    cochange_update,
    related_files,
)
from graphiq_ci.vcs.diff import (
    BranchDiff,
    ChangeOrigin,
    ChangeStatus,
    FileChange,
    branch_changes,
    trunk_and_changes,
)
from graphiq_ci.vcs.hunks import Hunk, changed_hunks
from graphiq_ci.vcs.recency import file_recency, recency_boost
from graphiq_ci.vcs.symbols import ChangedSymbol, Span, changed_symbols
from graphiq_ci.vcs.trunk import find_trunk

__all__ = [
    "BranchDiff",
    "ChangeOrigin",
    "ChangeStatus",
    "ChangedSymbol",
    "CoChange",
    "FileChange",
    "Hunk",
    "RelatedFile",
    "Span",
    "branch_changes",
    "changed_hunks",
    "changed_symbols",
    "cochange",
    "cochange_update",
    "file_recency",
    "find_trunk",
    "recency_boost",
    "related_files",
    "trunk_and_changes",
]
