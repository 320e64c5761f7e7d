"""`graphiq-ci stats`: what the index holds, by language, kind and edge kind; how fresh it is."""

from __future__ import annotations

import argparse

from graphiq_ci.commands.common import TYPE_CHECKING, add_command, echo, guarded, path_arg

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


def _stats(repo: Path) -> dict[str, Any]:
    from graphiq_ci.index.run import current_head, find_root
    from graphiq_ci.render.tokens import calibration, counter_name
    from graphiq_ci.store import open_store
    from graphiq_ci.store.stats import index_stats

    root = find_root(repo)
    store = open_store(root)
    try:
        data = index_stats(store, current_head(root))
    finally:
        store.close()
    data["token_counter"] = {"name": counter_name(), "calibration": calibration()}
    return data


def _text(stats: dict[str, Any]) -> str:
    lines = [f"files {stats['files']}  symbols {stats['symbols']}  edges {stats['edges']}  "
             f"unresolved references {stats['unresolved_references']}"]
    for key in ("files_by_language", "symbols_by_kind", "edges_by_kind", "skipped"):
        parts = ", ".join(f"{k} {v}" for k, v in stats[key].items()) or "none"
        lines.append(f"{key.replace('_', ' ')}: {parts}")
    fresh = stats["freshness"]
    age = fresh["indexed_seconds_ago"]
    lines.append(
        f"freshness: generation {fresh['generation']}, "
        f"indexed {'never' if age is None else f'{age:.0f}s ago'}"
        + (", HEAD moved since (run `graphiq-ci index`)" if fresh["head_moved"] else ""))
    lines.append(f"token counter: {stats['token_counter']['calibration']}")
    return "\n".join(lines)


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "stats", _run, "Show files, symbols and edges by language, "
                    "kind and edge kind, and freshness.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository (default: .).")
    p.add_argument("--json", dest="as_json", action="store_true", help="Print one JSON object.")


def _run(a: argparse.Namespace) -> int:
    import json

    data = guarded(lambda: _stats(a.repo))
    echo(json.dumps(data, indent=2) if a.as_json else _text(data))
    return 0
