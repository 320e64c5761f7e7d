"""A word of the task that only one to three files hold points at them, however long they
are (context/files.py: `rare_term`). BM25's length normalisation alone let a short file that
repeats the task's common words outrank a long one that holds its rare word once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.search.fts import rare_term_files
from graphiq_ci.store import open_store

TASK = "Avoid getpwuid for static linking"


def _helpers(prefix: str) -> list[str]:
    return [f"def {prefix}_{k}(values):\n" + "".join(
        f"    values = [v + {n} for v in values if v > {k}]\n" for n in range(12))
        + "    return values\n" for k in range(12)]


def _util() -> str:
    """Twelve helpers and, among them, the one call of getpwuid."""
    helpers = _helpers("helper")
    home = ("def home_dir():\n    import os, pwd\n"
            "    return pwd.getpwuid(os.getuid()).pw_dir\n")
    return "# static helpers\n" + "\n\n".join([*helpers[:6], home, *helpers[6:]]) + "\n"


def _numbers(n: int) -> str:
    """As long, its comment using the task's common words again and again."""
    return ("# avoid static tables; avoid static state\n"
            + "\n\n".join(_helpers(f"scale_{n}")) + "\n")


def _other(n: int) -> str:
    return f"def render_{n}(page):\n    return page.title.upper() + str({n})\n"


def test_a_long_file_holding_the_tasks_rare_word_ranks_first(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    files = {"util.py": _util()}
    files.update({f"numbers_{n}.py": _numbers(n) for n in range(4)})
    files.update({f"pages/page_{n}.py": _other(n) for n in range(16)})
    root = make_repo(files)
    ctx = graphiq_ci.build_context(root, TASK, Options())
    assert ctx.files[0].path == "util.py", [f.path for f in ctx.files]
    assert "one of the few files using a word of the task" in ctx.files[0].why
    # the task's other words are in four files or five: no evidence for any of them
    assert not any(r.startswith("rare_term") for f in ctx.files[1:] for r in f.reasons)
    store = open_store(root)
    try:
        assert rare_term_files(store, ["avoid", "getpwuid", "static"], 3) == {"util.py"}
        assert rare_term_files(store, ["avoid", "static"], 4) == {
            f"numbers_{n}.py" for n in range(4)}
    finally:
        store.close()
