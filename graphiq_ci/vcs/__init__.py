"""Git facts for one run: trunk, branch diff, changed hunks and symbols, recency, co-change.

Computed here once with the git CLI and handed to scorers as plain data; no
scorer runs git. User-caused problems raise `GraphiqError`; degraded answers
(shallow clone, no trunk, empty repo) say why in `BranchDiff.notes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: name -> the module defining it. Imported on first use: a task-mode `context` reads the
#: branch and recency only, and co-change mining, hunks and changed symbols (PR mode, the
#: indexer's history) cost it ~5 ms of imports and frozen dataclasses at every start (#14).
_HOME = {
    **dict.fromkeys(("CoChange", "RelatedFile", "cochange", "cochange_update",
                     "related_files"), "cochange"),
    **dict.fromkeys(("BranchDiff", "ChangeOrigin", "ChangeStatus", "FileChange",
                     "branch_changes", "trunk_and_changes"), "diff"),
    **dict.fromkeys(("Hunk", "changed_hunks"), "hunks"),
    **dict.fromkeys(("file_recency", "recency_boost"), "recency"),
    **dict.fromkeys(("ChangedSymbol", "Span", "changed_symbols"), "symbols"),
    "find_trunk": "trunk",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"{__name__}.{home}")
    for other, where in _HOME.items():  # all its names at once: importing `vcs.cochange` set
        if where == home:  # the package's `cochange` to the module, not to the function
            globals()[other] = getattr(module, other)
    return globals()[name]


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
