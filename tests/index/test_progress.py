"""Progress where people look: lines in a CI log, folded on GitHub, silent when nothing changed.

The real CLI as a subprocess (stderr is a pipe, as in CI). GRAPHIQ_PROGRESS_SECONDS=0 asks for
a line per file, so a small repository shows what a long run prints every 5 s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.context_pr.shop import clean_env, graphiq

FILES = {f"pkg/mod_{i:02d}.py": f"def handler_{i}(request):\n    return request.get({i})\n"
         for i in range(30)}
LINE = re.compile(r"^graphiq-ci: indexing (\d+)/30 files \(\d+ files/s\)$", re.M)


def test_a_ci_log_gets_progress_lines_in_one_github_group(
    make_repo: Callable[[dict[str, str]], Path]
) -> None:
    repo = make_repo(FILES)
    env = clean_env(GRAPHIQ_PROGRESS_SECONDS="0", GITHUB_ACTIONS="true")

    first = graphiq("index", "--repo", str(repo), cwd=repo, env=env)

    assert first.returncode == 0, first.stderr
    done = [int(n) for n in LINE.findall(first.stderr)]
    assert done and done == sorted(done) and done[-1] == 30, first.stderr
    lines = first.stderr.splitlines()
    assert lines[0] == "::group::graphiq-ci: indexing", first.stderr
    assert lines[-1] == "::endgroup::", first.stderr
    assert "\r" not in first.stderr  # no terminal bar in a log

    again = graphiq("index", "--repo", str(repo), cwd=repo, env=env)  # nothing changed

    assert again.returncode == 0
    assert again.stderr == "", again.stderr


def test_a_quick_run_prints_no_progress_and_plain_logs_get_no_group(
    make_repo: Callable[[dict[str, str]], Path]
) -> None:
    repo = make_repo(FILES)

    quick = graphiq("index", "--repo", str(repo), cwd=repo)  # default interval: 5 s

    assert quick.returncode == 0
    assert not LINE.search(quick.stderr), quick.stderr
    (repo / "pkg" / "mod_00.py").write_text("def handler_0(request):\n    return None\n")

    edited = graphiq("context", "handler request", "--repo", str(repo), cwd=repo,
                     env=clean_env(GRAPHIQ_PROGRESS_SECONDS="0"))

    assert edited.returncode == 0, edited.stderr
    assert "graphiq-ci: indexing 1/1 files" in edited.stderr, edited.stderr
    assert "::group::" not in edited.stderr  # not on GitHub


def test_the_first_hooked_commit_says_it_builds_the_index_later_ones_stay_quiet(
    make_repo: Callable[[dict[str, str]], Path]
) -> None:
    repo = make_repo(FILES)

    first = graphiq("index", "--hook", "--repo", str(repo), cwd=repo)

    assert first.returncode == 0
    assert first.stderr.splitlines()[0] == (
        "graphiq-ci: building the index (once; later commits refresh it)"), first.stderr
    assert "indexed 30 files" in first.stdout

    later = graphiq("index", "--hook", "--repo", str(repo), cwd=repo,
                    env=clean_env(GRAPHIQ_PROGRESS_SECONDS="0"))

    assert (later.returncode, later.stdout, later.stderr) == (0, "", "")
