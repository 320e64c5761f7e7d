"""A task worded like earlier changes to a file points at it (context/files.py: `history`).

The file here never uses the task's words; only the subjects of the commits that touched it
do. Those subjects are read with the co-change window when HEAD moves, kept per file in
`history_fts`, and matched like any text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.search.fts import history_bm25
from graphiq_ci.store import open_store
from tests.conftest import git

TASK = "Stale entries survive eviction when the clock goes backwards"
WHY = "its past commits were described in the task's words"


def _module(name: str, n: int) -> str:
    return "".join(f"def {name}_{k}(items):\n    return [i * {k} for i in items][:{n}]\n\n"
                   for k in range(6))


def _commit(root: Path, files: dict[str, str | None], message: str) -> None:
    for path, text in files.items():
        if text is None:
            (root / path).unlink()
        else:
            (root / path).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def test_a_file_whose_commits_used_the_tasks_words_ranks_first(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({f"{name}.py": _module(name, 3) for name in
                      ("store", "pages", "render", "forms", "gone")})
    _commit(root, {"store.py": _module("store", 4)}, "Evict stale entries first")
    _commit(root, {"pages.py": _module("pages", 4)}, "Paginate the list view")
    _commit(root, {"store.py": _module("store", 5), "gone.py": _module("gone", 4)},
            "Keep entries when the clock goes backwards")
    _commit(root, {"gone.py": None}, "Remove an unused module")

    ctx = graphiq_ci.build_context(root, TASK, Options())
    assert ctx.files[0].path == "store.py", [f.path for f in ctx.files]
    assert WHY in ctx.files[0].why
    assert "gone.py" not in [f.path for f in ctx.files]  # named by history, since deleted
    store = open_store(root)
    try:
        found = history_bm25(store, ["stale", "entri", "evict", "clock"], 10)
        assert list(found) == ["store.py"]  # pages.py's subject shares no word
        assert history_bm25(store, ["paginate"], 10).keys() == {"pages.py"}
    finally:
        store.close()


def test_a_new_commit_is_matched_after_the_next_refresh(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({f"{name}.py": _module(name, 3) for name in ("store", "pages", "forms")})
    graphiq_ci.build_context(root, "paginate results", Options())  # indexes at this HEAD
    _commit(root, {"forms.py": _module("forms", 4)}, "Validate postal codes")
    ctx = graphiq_ci.build_context(root, "postal codes are not validated", Options())
    assert ctx.files[0].path == "forms.py", [f.path for f in ctx.files]
    assert WHY in ctx.files[0].why


def test_history_alone_never_ranks_a_skipped_file_or_a_word_most_commits_use(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({f"{name}.py": _module(name, 3) for name in ("a", "b", "c")})
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    _commit(root, {}, "Sharpen the header banner artwork")  # only logo.png is new
    for name in ("a", "b", "c"):
        _commit(root, {f"{name}.py": _module(name, 4)}, f"Tidy module {name}")

    banner = graphiq_ci.build_context(root, "header banner artwork looks blurry", Options())
    assert "logo.png" not in [f.path for f in banner.files]  # binary: recorded, never parsed
    # "tidy" and "module" are in every parsed file's history: FTS5 rates them ~0, and the best
    # of ~0 must not become full evidence for all three
    tidy = graphiq_ci.build_context(root, "the module crashes on startup", Options())
    assert not [f.path for f in tidy.files if any(r.startswith("history") for r in f.reasons)]
