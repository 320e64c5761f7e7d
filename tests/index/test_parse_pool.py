"""The parse pool: a language with few files is one worker's chunk, and the records still come
back in path order, the order the index stores files in."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index
from graphiq_ci.index.parse_pool import language_chunks
from graphiq_ci.index.run import POOL_THRESHOLD
from graphiq_ci.index.walk import list_files


def _paths() -> list[str]:
    """60 Python modules with three JavaScript files, two Go files, two Markdown files and a
    file of no language among them, in path order."""
    return sorted([f"pkg/mod_{i:02d}.py" for i in range(60)] + [
        "pkg/mod_05a.js", "pkg/mod_29a.go", "pkg/mod_29b.js", "pkg/mod_48a.go",
        "pkg/mod_48b.js", "pkg/mod_48c.unknownext", "pkg/mod_10a.md", "pkg/mod_40a.md"])


def test_a_small_language_is_one_chunk_placed_where_its_first_file_is() -> None:
    paths = _paths()
    chunks = language_chunks(paths, 8)
    flat = [i for chunk in chunks for i in chunk]
    assert sorted(flat) == list(range(len(paths)))  # every file once
    by_language = {ext: [c for c in chunks if any(paths[i].endswith(ext) for i in c)]
                   for ext in (".js", ".go")}
    assert [[paths[i] for i in c] for c in by_language[".js"]] == [
        ["pkg/mod_05a.js", "pkg/mod_29b.js", "pkg/mod_48b.js"]]
    assert [[paths[i] for i in c] for c in by_language[".go"]] == [
        ["pkg/mod_29a.go", "pkg/mod_48a.go"]]
    # the JavaScript chunk comes before the Python chunk holding the file after its first
    js = chunks.index(by_language[".js"][0])
    after = next(k for k, c in enumerate(chunks) if paths.index("pkg/mod_06.py") in c)
    assert js < after
    # the rest, text and the file of no language included (no query to compile), in path
    # order, at most 8 a chunk
    rest = [c for c in chunks if c not in by_language[".js"] + by_language[".go"]]
    assert all(len(c) <= 8 for c in rest)
    assert [i for c in rest for i in c] == sorted(i for c in rest for i in c)
    # a language too big for a chunk is chunked in order like the rest
    assert language_chunks(paths, 1) == [[i] for i in range(len(paths))]


def test_a_pooled_run_stores_files_in_path_order(make_repo: Callable[..., Path]) -> None:
    paths = _paths()
    assert len(paths) >= POOL_THRESHOLD  # parsed by the pool, not in this process
    files, functions = {}, set()
    for n, path in enumerate(paths):
        if path.endswith(".py"):
            files[path] = f"def handler_{n}(x):\n    return x + {n}\n"
            functions.add(f"handler_{n}")
        elif path.endswith(".js"):
            files[path] = f"function widget{n}(a) {{\n  return a * {n};\n}}\n"
            functions.add(f"widget{n}")
        elif path.endswith(".md"):
            files[path] = f"# Notes {n}\n"
        elif path.endswith(".go"):
            files[path] = f"package pkg\n\nfunc Helper{n}(a int) int {{\n\treturn a + {n}\n}}\n"
            functions.add(f"Helper{n}")
        else:
            files[path] = f"plain text {n}\n"
    repo = make_repo(files)
    report = run_index(repo)
    assert sorted(report.parsed) == sorted(paths)
    conn = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    stored = [p for (p,) in conn.execute("SELECT path FROM files ORDER BY id")]
    assert stored == [f.path for f in list_files(repo, [])]
    names = {n for (n,) in conn.execute("SELECT name FROM symbols WHERE kind = 'function'")}
    assert names == functions
