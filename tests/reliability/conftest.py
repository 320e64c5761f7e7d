"""Helpers for the reliability suite: real `graphiq-ci` processes on real temp repositories."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphiq_ci.model import DEEP_EDGES
from tests.conftest import git

CLI = [sys.executable, "-m", "graphiq_ci"]
DB = Path(".graphiq") / "graphiq.db"


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120,
            preexec_fn: Callable[[], Any] | None = None) -> subprocess.CompletedProcess[str]:
    """`graphiq-ci ARGS` as a child process (the installed package, the test's environment)."""
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=env or dict(os.environ), preexec_fn=preexec_fn)


def module_source(i: int, n_modules: int, funcs: int, salt: str = "") -> str:
    """One Python module whose functions call each other and a function of the next module,
    and whose class shares a constant with three other modules' (deep edges to keep right)."""
    nxt = (i + 1) % n_modules
    lines = [f'"""Module {i} of the generated package{salt}."""',
             f"from pkg.mod_{nxt} import func_{nxt}_0", ""]
    for f in range(funcs):
        callee = f"func_{i}_{f + 1}" if f + 1 < funcs else f"func_{nxt}_0"
        lines += [f"def func_{i}_{f}(value: int) -> int:",
                  f'    """Compute step {f} of stage {i}: ledger reconcile {salt}."""',
                  f"    return {callee}(value + {f}) if value < 0 else value * {f + 1}", ""]
    lines += [f"class Stage{i}:", f'    """Stage {i} wraps its functions."""', "",
              f'    group = "stage-group-{i // 4}"', "",
              "    def run(self, value: int) -> int:",
              f"        return func_{i}_0(value)", ""]
    return "\n".join(lines)


def generate_repo(root: Path, n_modules: int, funcs: int, *, commit: bool = True) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    for i in range(n_modules):
        (pkg / f"mod_{i}.py").write_text(module_source(i, n_modules, funcs))
    if commit:
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "generated")
    return root


def _save(path: Path, text: str) -> None:
    """Write as editors and git do: a new file renamed over the old, so a concurrent reader
    sees the old text or the new one. (`write_text` truncates first: a reader in between
    sees an empty module, and rightly finds none of its definitions.)"""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def edit_randomly(root: Path, rng: random.Random, n_modules: int, funcs: int, step: int) -> None:
    """One edit of the kind a developer makes: change a body, add, delete or rewrite a file."""
    pkg = root / "pkg"
    action = rng.choice(["body", "body", "add", "delete", "rewrite"])
    i = rng.randrange(n_modules)
    target = pkg / f"mod_{i}.py"
    if action == "body" and target.exists():
        text = target.read_text()
        _save(target, text + f"\n\ndef extra_{step}() -> int:\n    return func_{i}_0({step})\n")
    elif action == "add":
        _save(pkg / f"extra_{step}.py",
              f"from pkg.mod_{i} import func_{i}_1\n\n\ndef added_{step}() -> int:\n"
              f"    return func_{i}_1({step})\n")
    elif action == "delete":
        extras = sorted(pkg.glob("extra_*.py"))
        if extras:
            rng.choice(extras).unlink()
    else:
        _save(target, module_source(i, n_modules, funcs, salt=f" v{step}"))


Fingerprint = tuple[frozenset[tuple[Any, ...]], frozenset[tuple[Any, ...]],
                    frozenset[tuple[Any, ...]]]


def fingerprint(repo: Path) -> Fingerprint:
    """Files, symbols and edges of the index by name and path (database ids differ by run)."""
    conn = sqlite3.connect(repo / DB)
    try:
        files = frozenset(conn.execute(
            "SELECT path, language, content_hash, skip_reason, parse_error FROM files"))
        symbols = conn.execute(
            "SELECT f.path, s.name, s.qualified, s.kind, s.line, s.end_line, s.signature, "
            "s.hints, s.terms FROM symbols s JOIN files f ON f.id = s.file_id").fetchall()
        assert len(symbols) == len(set(symbols)), "duplicate symbols in the index"
        edges = conn.execute(
            "SELECT fa.path, a.qualified, fb.path, b.qualified, e.kind, e.weight, e.meta "
            "FROM edges e JOIN symbols a ON a.id = e.src_id JOIN symbols b ON b.id = e.dst_id "
            "JOIN files fa ON fa.id = a.file_id JOIN files fb ON fb.id = b.file_id").fetchall()
        # a deep edge written twice (a killed run's left beside the next run's) is no set's
        # difference: count them
        assert len(edges) == len(set(edges)), "duplicate edges in the index"
        edges = [_deep_ends_sorted(row) for row in edges]
        dangling = conn.execute(
            "SELECT count(*) FROM edges WHERE src_id NOT IN (SELECT id FROM symbols) "
            "OR dst_id NOT IN (SELECT id FROM symbols)").fetchone()[0]
        assert dangling == 0, f"{dangling} edges point at deleted symbols"
        fts = conn.execute("SELECT count(*) FROM symbols_fts").fetchone()[0]
        assert fts == len(symbols), f"symbols_fts has {fts} rows for {len(symbols)} symbols"
        return files, frozenset(symbols), frozenset(edges)
    finally:
        conn.close()


_DEEP = frozenset(kind.value for kind in DEEP_EDGES)


def _deep_ends_sorted(edge: tuple[Any, ...]) -> tuple[Any, ...]:
    """A deep edge is symmetric: stored once, from its lower symbol id (index/deep.py), and
    walked both ways (search/graph.py). Ids differ between runs, so its ends are sorted."""
    path_a, a, path_b, b, kind, *rest = edge
    if kind not in _DEEP:
        return edge
    first, second = sorted([(path_a, a), (path_b, b)])
    return (*first, *second, kind, *rest)


def assert_same_index(got: Fingerprint, want: Fingerprint) -> None:
    for label, g, w in zip(("files", "symbols", "edges"), got, want, strict=True):
        missing, extra = sorted(w - g)[:5], sorted(g - w)[:5]
        assert not missing and not extra, (
            f"{label}: {len(w - g)} missing, {len(g - w)} extra; e.g. missing {missing} "
            f"extra {extra}")


def full_index_fingerprint(repo: Path) -> Fingerprint:
    """What a clean full index of `repo` holds right now."""
    out = run_cli("index", "--full", "--repo", str(repo))
    assert out.returncode == 0, out.stderr
    return fingerprint(repo)
