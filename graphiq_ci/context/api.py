"""`build_context`, the library entry point: refresh the index, read git, build the context.

Task mode ranks what the text describes; PR mode (`diff=True`, or no text on a feature branch)
starts from the branch's changed symbols. Git facts are read once here, never in a scorer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from graphiq_ci.context.builder import Options, assemble
from graphiq_ci.context.git_signals import git_boosts
from graphiq_ci.context.model import Context
from graphiq_ci.context.workspace import Workspace
from graphiq_ci.errors import GraphiqError
from graphiq_ci.search.weights import FEATURES
from graphiq_ci.text import common_words_as_code
from graphiq_ci.vcs import BranchDiff, trunk_and_changes

MAX_TASK_CHARS = 20_000
T = TypeVar("T")


def branch_of(root: Path, base: str | None, trunk: str | None) -> tuple[BranchDiff | None, str]:
    """The branch's changes, or None and why (an explicit `base` that fails raises)."""
    if base is None and not (root / ".git").exists():
        return None, f"not a git repository: {root}"  # said only if --diff needs git
    try:
        return trunk_and_changes(root, base, trunk), ""
    except GraphiqError as exc:
        if base:
            raise
        return None, f"git facts unavailable: {exc}"


def _started(fn: Callable[..., T], *args: Any) -> Callable[[], T]:
    """`fn(*args)` begun in a thread; the function returned waits for its result, or raises
    what it raised. The branch's git processes (four on a warm `context` call) wait on git,
    not on Python, so they run while the index refreshes instead of after it. A thread, not
    concurrent.futures: importing that costs every call about 5 ms (#14)."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append((True, fn(*args)))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which re-raises
            out.append((False, exc))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def result() -> T:
        thread.join()
        ok, value = out[0]
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    return result


def _nothing_changed(branch: BranchDiff, notes: list[str]) -> Context:
    """PR mode with no text and no change: an empty context (exit 1), not a ranking of nothing."""
    if branch.notes:
        notes = notes + ["; ".join(branch.notes)]
    return Context(query="", family="pr", notes=notes, stats={
        "mode": "pr", "changed_files": 0,
        "compared_with": {"ref": branch.base_ref, "commit": branch.base_commit}})


def build_context(repo: Path, task: str = "", options: Options | None = None, *,
                  diff: bool = False, base: str | None = None,
                  workspace: Workspace | None = None) -> Context:
    """The context for `task` in `repo`; `diff`/`base` switch on PR mode.

    A long-lived caller passes its `workspace` (the store and graph it holds); otherwise one
    is opened for this call and closed after it.
    """
    if workspace is not None:
        return _build(workspace, task, options, diff, base)
    with Workspace(repo) as ws:
        return _build(ws, task, options, diff, base)


def _build(ws: Workspace, task: str, options: Options | None, diff: bool,
           base: str | None) -> Context:
    t0 = time.perf_counter()
    root = ws.root
    config, notes = ws.config()
    opts = options or Options(max_nodes=config.budgets.max_nodes, depth=config.budgets.depth)
    if config.weights and not opts.weights:
        opts = opts._replace(weights=tuple(config.weights.items()))
    task = task[:MAX_TASK_CHARS]
    branch_facts = _started(branch_of, root, base, config.trunk)
    if opts.refresh:
        notes += ws.refresh(config)
    index_s = time.perf_counter() - t0
    branch, note = branch_facts()
    if note and (root / ".git").exists():  # a plain directory has no git facts to miss
        notes.append(note)
    on_feature_branch = branch is not None and bool(branch.files)
    pr_mode = diff or base is not None or (not task.strip() and on_feature_branch)
    if pr_mode and (branch is None or branch.head_commit is None):
        why = note.removeprefix("git facts unavailable: ") if branch is None else "; ".join(
            branch.notes)
        raise GraphiqError(f"--diff needs a git repository with at least one commit ({why})")
    if not task.strip() and not pr_mode:
        raise GraphiqError("the task is empty: pass a description, or --diff on a branch")
    if pr_mode and not task.strip() and branch is not None and not branch.files:
        return _nothing_changed(branch, notes)
    store, g = ws.store, ws.graph()
    weights = {**FEATURES, **dict(opts.weights)}
    if pr_mode:  # its imports (relations, hunks, changed symbols) only when it runs
        from graphiq_ci.context.pr_mode import pr_context

        assert branch is not None
        ctx = pr_context(store, g, root, task, branch, opts, weights)
    else:
        boosts = git_boosts(store, weights, branch)
        ctx = assemble(store, g, root, task, opts, boosts)
        if not (ctx.files or ctx.symbols) and (as_names := common_words_as_code(task)) != task:
            # "the add function": its one name is a word prose is searched without
            ctx = assemble(store, g, root, as_names, opts, boosts)
            ctx.query = task
            if ctx.files or ctx.symbols:
                ctx.notes.append("nothing matched the task's other words: its common words "
                                 "were searched as names")
    ctx.notes = notes + ctx.notes
    ctx.stats.update(mode="pr" if pr_mode else "task", index_seconds=round(index_s, 3),
                     seconds=round(time.perf_counter() - t0, 3))
    return ctx


def nothing_found(stats: dict[str, Any]) -> str:
    """Why a context came out empty, in one line a user can act on."""
    if stats.get("mode") == "pr" and not stats.get("changed_files"):
        ref = (stats.get("compared_with") or {}).get("ref") or "HEAD"
        return f"nothing changed compared with {ref}: pass a task, or --base REF"
    terms = " ".join(stats.get("terms", [])) or "(no searchable words in the task)"
    return f"nothing relevant found for: {terms}"
