"""Bad input: any query text, hostile source files and paths, a large repository.

Query text goes to `rank` / `assemble` / `render_text` in-process on one small pre-built
index (hypothesis generates it); files go through the real `graphiq-ci index`. Every input
either yields results, yields nothing, or is skipped with a reason in `stats --json`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphiq_ci.context import Options, assemble, build_context
from graphiq_ci.errors import GraphiqError
from graphiq_ci.index import run_index
from graphiq_ci.render import render_json, render_text
from graphiq_ci.search import load_graph, rank
from graphiq_ci.search.weights import Family
from graphiq_ci.store import Store, open_store
from tests.conftest import git
from tests.reliability.conftest import DB, generate_repo, run_cli

FTS_NASTIES = [
    'NEAR(a b, 3)', "a AND b OR NOT c", "NOT", "AND", "OR", "*", "func*", "^func", "a ^ b",
    "name:Stage", "{name qualified}: x", "-name:x", '"unbalanced', 'a "b" "', "(", ")", "((a)",
    "a + b", "'", "''", '""', "name:", ":", "a:b:c", "NEAR(", "\0", "\x1b[31m", "`", "```",
    "<script>alert(1)</script>", "# Title\n\n- [ ] item\n```py\nx\n```", "@octocat please",
    "@org/team look", "%s%n%x", "\\", "../../etc/passwd", "SELECT * FROM symbols; --",
    "ledger reconcile" * 700, "🙂" * 3000, "\u202e\u200d\ufeff", "a" * 10_000, " " * 5000,
    "\r\n\r\n", "Stage1.run", "func_1_2()", "pkg/mod_1.py:12", "TypeError: 'NoneType'",
]
#: what each nasty that names something in the generated repo finds (see `small_index`): the
#: modules call one another in a ring, so the context reaches all eight; the empty
#: `pkg/__init__.py` only through a word of its path (`pkg`, `py`)
MODULES = {f"pkg/mod_{i}.py" for i in range(8)}
FINDS_FILES: dict[str, set[str]] = {
    "func*": MODULES, "^func": MODULES, "name:Stage": MODULES, "ledger reconcile" * 700: MODULES,
    "Stage1.run": MODULES, "func_1_2()": MODULES,
    "pkg/mod_1.py:12": MODULES | {"pkg/__init__.py"},
    "# Title\n\n- [ ] item\n```py\nx\n```": MODULES | {"pkg/__init__.py"},
}
#: the text names one module, which the context lists first
FIRST_FILE = {"Stage1.run": "pkg/mod_1.py", "func_1_2()": "pkg/mod_1.py",
              "pkg/mod_1.py:12": "pkg/mod_1.py"}
texts = st.one_of(
    st.text(max_size=200),
    st.text(max_size=10_000),
    st.lists(st.sampled_from(FTS_NASTIES + ["func_2_1", "Stage", "ledger", "mod_3"]),
             max_size=12).map(" ".join),
)


@pytest.fixture(scope="module")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Store]]:
    repo = generate_repo(tmp_path_factory.mktemp("bad-input") / "repo", 8, 6, commit=False)
    run_index(repo)
    store = open_store(repo)
    yield repo, store
    store.close()


def _nothing_ascii(text: str) -> bool:
    """Whether no character of `text` can meet the generated repo's all-ASCII names, words
    and source: query terms are ASCII identifiers, and names match on `str.lower()` (which
    turns e.g. the Kelvin sign into `k`). Whitespace alone matches nothing either."""
    return all(c.isspace() or not c.isascii()
               for c in unicodedata.normalize("NFKC", text).lower())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_rank_takes_any_text(small_index: tuple[Path, Store], text: str) -> None:
    repo, store = small_index
    g = load_graph(store, repo)
    result = rank(store, g, text, top=10)
    hits = result.hits
    # every hit is a real symbol of the index, once, ranked by a positive score
    symbols = {sid: (name, path) for sid, name, path in store.conn.execute(
        "SELECT s.id, s.name, f.path FROM symbols s JOIN files f ON f.id = s.file_id")}
    assert [symbols.get(h.id) for h in hits] == [(h.name, h.path) for h in hits]
    assert len({h.id for h in hits}) == len(hits)
    scores = [h.score for h in hits]
    assert all(s > 0 for s in scores) and scores == sorted(scores, reverse=True), scores
    words = text.split()
    if _nothing_ascii(text):
        assert hits == [], "text with no ASCII letter, digit or sign matches nothing"
    elif ("ledger" in words or "Stage" in words) and result.query.family is not Family.FILE_PATH:
        # all 48 functions' docstrings say `ledger`; 8 classes and their `run` say `Stage`:
        # more matches than `top`, in 8 files, so `top` is filled despite one file's cap (a
        # path in the text, `0/Mod_0 Stage`, ranks the files that path matches instead)
        assert len(hits) == 10, [h.qualified for h in hits]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_context_and_rendering_take_any_text(small_index: tuple[Path, Store], text: str) -> None:
    repo, store = small_index
    ctx = assemble(store, load_graph(store, repo), repo, text, Options(refresh=False))
    for fmt in ("markdown", "prompt"):
        out = render_text(ctx, fmt, max_tokens=600)
        assert out.tokens <= 600
    json.loads(render_json(ctx, render_text(ctx, "prompt", max_tokens=600)))


@pytest.mark.parametrize("text", FTS_NASTIES)
def test_build_context_takes_fts_operators_and_markup(small_index: tuple[Path, Store],
                                                      text: str) -> None:
    """An operator or markup is read as words, never as FTS syntax: text that names
    something in the repo finds it, and text that names nothing finds no file at all (not
    every file, as a query turned into `*` or `NOT x` would)."""
    repo, _ = small_index
    try:
        ctx = build_context(repo, text, Options(refresh=False))
    except GraphiqError as exc:  # only for a task with no text at all
        assert not text.strip(), exc
        return
    files = [f.path for f in ctx.files]
    assert set(files) == FINDS_FILES.get(text, set()), files
    if text in FIRST_FILE:
        assert files[0] == FIRST_FILE[text], files


# ---------------------------------------------------------------- hostile files and paths

def _write(root: Path, rel: str, data: bytes | str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)


HOSTILE_FILES: dict[str, bytes | str] = {
    "ok.py": "def plain_function():\n    return 1\n",
    "binary.py": b"def a():\n    pass\n\0\0\x01\x02" + bytes(range(256)),
    "image.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(500),
    "huge.py": "x = 1\n" * 250_000,
    "bundle.min.js": "var a=1;" * 1000,
    "minified.js": "function q(){return 1};" * 3000,
    # one 150 KB line among ordinary ones (not minified): a structure 75,000 deep
    "generated.ex": "defmodule Gen do\n  def sum(a) do\n" + "    x = 1\n" * 400
                    + "    x = " + "a+" * 75_000 + "a\n  end\nend\n",
    "nested_parens.py": "def outer():\n    return " + "(\n" * 5000 + "1" + ")\n" * 5000,
    "nested_lists.js": "function outer() {\n  return " + "[\n" * 5000 + "1" + "]\n" * 5000
                       + ";\n}\n",
    "nested_blocks.js": "function deep() {\n" + "if (x) {\n" * 5000 + "}\n" * 5001,
    "nested_defs.py": "".join(" " * i + f"def level_{i}():\n" for i in range(400))
                      + " " * 400 + "pass\n",
    "syntax_error.py": "def broken(:\n    return )(\nclass Half\ndef after_error():\n  pass\n",
    "syntax_error.ts": "export function ok(): number { return 1 }\nclass { ;;; <<<\n",
    "latin1.py": "def caf\xe9():\n    return 'na\xefve'\n".encode("latin-1"),
    "mixed.py": b"def mixed():\n    a = '\xff\xfe'\n    b = '\xc3\xa9'\n    return a\n",
    "crlf.py": b"def crlf_function():\r\n    return 1\r\n\r\nclass Crlf:\r\n    pass\r\n",
    "bom.py": b"\xef\xbb\xbfdef bom_function():\n    return 1\n",
    "utf16.py": "def utf16_function():\n    return 1\n".encode("utf-16"),
    # the NUL at byte 12 031 is past the 8 KiB that parse.py (like git) sniffs: a text file
    "nul_late.py": "def before_nul():\n    return 1\n" + "# pad\n" * 2000 + "\0",
    # a PDF-based drawing: 19 KB of text, then binary streams; indexed, it was words of noise
    "logo.ai": b"%PDF-1.6\r%\xe2\xe3\xcf\xd3\r\n" + b"/Metadata 2 0 R\n" * 1200
               + b"stream\r\n\x78\x9c\0\x8f\xff\0",
    "empty.py": "",
    "only_comment.rb": "# nothing here\n",
    "dir with spaces/file name.py": "def spaced_function():\n    return 1\n",
    "ünïcödé/ファイル.py": "def unicode_function():\n    return 1\n",
    "-leading-dash.py": "def dashed_function():\n    return 1\n",
    "--help.py": "def help_function():\n    return 1\n",
    "new\nline.py": "def newline_name():\n    return 1\n",
    "weird `name` @octocat <b>.py": "def weird_name():\n    return 1\n",
}
PARSED = ["ok.py", "nested_parens.py", "nested_lists.js", "nested_blocks.js", "nested_defs.py",
          "syntax_error.py", "syntax_error.ts", "latin1.py", "mixed.py", "crlf.py", "bom.py",
          "empty.py", "only_comment.rb", "dir with spaces/file name.py", "ünïcödé/ファイル.py",
          "-leading-dash.py", "--help.py", "new\nline.py", "weird `name` @octocat <b>.py",
          "nul_late.py"]
SKIPPED = {"binary.py": "binary", "image.png": "binary", "huge.py": "larger than",
           "bundle.min.js": "minified", "minified.js": "minified", "utf16.py": "binary",
           "logo.ai": "binary",
           "generated.ex": "a line of 150009 bytes: generated",
           "loop_a": "symlink loop", "loop_b": "symlink loop",
           "escape.py": "outside the repository", "escape_dir": "outside the repository",
           "passwd": "outside the repository", "dangling.py": "dangling symlink",
           "vendored_sub": "git submodule"}
OUTSIDE_MARK = "OUTSIDE_SECRET_MARKER_41"


def _hostile_repo(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    _write(outside, "secret.py", f"def {OUTSIDE_MARK}():\n    return 'outside'\n")
    _write(outside, "dir/inner.py", f"def inner_{OUTSIDE_MARK}():\n    return 1\n")
    sub = tmp_path / "subproject"
    _write(sub, "lib.py", "def submodule_function():\n    return 1\n")
    git(sub, "init", "-q", "-b", "main")
    git(sub, "add", "-A")
    git(sub, "commit", "-q", "-m", "sub")

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for rel, data in HOSTILE_FILES.items():
        _write(repo, rel, data)
    os.symlink("loop_b", repo / "loop_a")
    os.symlink("loop_a", repo / "loop_b")
    os.symlink(outside / "secret.py", repo / "escape.py")
    os.symlink("../outside/dir", repo / "escape_dir")
    os.symlink("/etc/passwd", repo / "passwd")
    os.symlink("no_such_file.py", repo / "dangling.py")
    os.symlink("ok.py", repo / "alias.py")  # inside: indexed like any file
    subprocess.run(["git", "-C", str(repo), "-c", "protocol.file.allow=always", "submodule",
                    "add", "-q", str(sub), "vendored_sub"], check=True, capture_output=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hostile")
    return repo


def test_hostile_files_and_paths_are_indexed_or_skipped_with_a_reason(tmp_path: Path) -> None:
    repo = _hostile_repo(tmp_path)
    out = run_cli("index", "--repo", str(repo))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    stats = json.loads(run_cli("stats", "--json", "--repo", str(repo)).stdout)
    conn = sqlite3.connect(repo / DB)
    rows = {p: (skip, err) for p, skip, err in
            conn.execute("SELECT path, skip_reason, parse_error FROM files")}
    symbols = {n for (n,) in conn.execute("SELECT name FROM symbols")}
    assert conn.execute("SELECT count(*) FROM files WHERE language = ''").fetchone()[0] == 0
    for path in PARSED + ["alias.py"]:
        assert path in rows and rows[path][0] == "", (path, rows.get(path))
    for path, reason in SKIPPED.items():
        assert path in rows, path
        assert reason in rows[path][0], (path, rows[path])
        assert any(reason in k for k in stats["skipped"]), stats["skipped"]
    for name in ("plain_function", "outer", "deep", "level_0", "crlf_function",
                 "bom_function", "spaced_function", "unicode_function", "dashed_function",
                 "help_function", "newline_name", "weird_name", "mixed", "before_nul"):
        assert name in symbols, name
    assert any(n.startswith("caf") for n in symbols), "a Latin-1 name is indexed, decoded lossily"
    assert rows["syntax_error.py"][1], "a syntax error is recorded"
    # nothing from outside the repository, the submodule, or /etc/passwd reached the index
    raw = b"".join(p.read_bytes() for p in (repo / ".graphiq").iterdir()
                   if p.name.startswith("graphiq.db"))
    assert OUTSIDE_MARK.encode() not in raw
    assert b"submodule_function" not in raw
    assert b"root:x:0:0" not in raw and b"/bin/bash" not in raw
    # a query over all of it answers or finds nothing, never crashes
    for args in (["search", "nested outer deep", "--json"],
                 ["context", "where is the unicode function", "--format", "json"]):
        q = run_cli(*args, "--repo", str(repo))
        assert q.returncode in (0, 1) and "Traceback" not in q.stderr, q.stderr


def test_ten_thousand_tiny_files(tmp_path: Path) -> None:
    repo = tmp_path / "tenk"
    for d in range(100):
        (repo / f"pkg{d}").mkdir(parents=True)
        for f in range(100):
            (repo / f"pkg{d}" / f"m{f}.py").write_text(
                f"def fn_{d}_{f}(x):\n    return x + {f}\n")
    git(repo, "init", "-q", "-b", "main")
    t0 = time.perf_counter()
    out = run_cli("index", "--repo", str(repo), timeout=300)
    seconds = time.perf_counter() - t0
    assert out.returncode == 0, out.stderr
    stats = json.loads(run_cli("stats", "--json", "--repo", str(repo)).stdout)
    print(f"\n10k files: indexed in {seconds:.1f}s wall, {stats['symbols']} symbols")
    assert stats["files"] == 10_000 and stats["symbols"] == 20_000
    q = run_cli("search", "fn_42_7", "--json", "--repo", str(repo))
    assert q.returncode == 0 and json.loads(q.stdout)["results"][0]["name"] == "fn_42_7"


def test_names_and_commit_messages_that_are_not_utf8(tmp_path: Path) -> None:
    """git holds names and messages as bytes. A file name that is not UTF-8 cannot be stored
    as text: the file is left out and the run says so. A message that is not UTF-8 (a commit
    object declaring UTF-8 around other bytes, as a broken tool writes it) is kept with its
    bad bytes replaced. Before, either one ended the run with a traceback."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    bad_name = os.fsdecode(b"caf\xe9.py")
    _write(repo, "ok.py", "def parse_amount(text):\n    return float(text)\n")
    _write(repo, bad_name, "def latin_named():\n    return 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Add both")
    _write(repo, "ok.py", "def parse_amount(text):\n    return round(float(text), 2)\n")
    _write(repo, bad_name, "def latin_named():\n    return 2\n")
    git(repo, "add", "-A")
    tree = git(repo, "write-tree").strip()
    raw = (f"tree {tree}\nparent {git(repo, 'rev-parse', 'HEAD').strip()}\n"
           "author T <t@example.com> 1700000000 +0000\n"
           "committer T <t@example.com> 1700000000 +0000\nencoding UTF-8\n\n").encode() \
        + b"Round amounts \xff\xfe to cents\n"
    sha = subprocess.run(["git", "-C", str(repo), "hash-object", "-t", "commit", "-w",
                          "--stdin"], input=raw, capture_output=True, check=True).stdout
    git(repo, "update-ref", "refs/heads/main", sha.decode().strip())

    out = run_cli("index", "--repo", str(repo))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "1 files not indexed: their names are not UTF-8 (such as 'caf\ufffd.py')" in out.stderr
    again = run_cli("index", "--repo", str(repo))  # nothing changed: said once, not again
    assert again.returncode == 0 and "not UTF-8" not in again.stderr, again.stderr
    conn = sqlite3.connect(repo / DB)
    assert [p for (p,) in conn.execute("SELECT path FROM files")] == ["ok.py"]
    history = dict(conn.execute("SELECT path, subjects FROM history_fts"))
    assert history == {"ok.py": "Round amounts \ufffd\ufffd to cents\nAdd both"}
    ctx = run_cli("context", "round amounts to cents", "--format", "json", "--repo", str(repo))
    assert ctx.returncode == 0, ctx.stderr
    assert json.loads(ctx.stdout)["files"][0]["path"] == "ok.py"

    git(repo, "checkout", "-q", "-b", "feature")  # a branch that changes both files
    _write(repo, "ok.py", "def parse_amount(text):\n    return round(float(text), 3)\n")
    _write(repo, bad_name, "def latin_named():\n    return 3\n")
    git(repo, "commit", "-q", "-am", "Three places")
    pr = run_cli("context", "--diff", "--base", "main", "--format", "json", "--repo", str(repo))
    assert pr.returncode == 0 and "Traceback" not in pr.stderr, pr.stderr
    assert "1 changed files left out: their names are not UTF-8" in pr.stderr
    assert [f["path"] for f in json.loads(pr.stdout)["changed_files"]] == ["ok.py"]
