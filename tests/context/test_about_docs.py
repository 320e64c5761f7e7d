"""Code under docs/ or examples/ ranks behind the library's own code (context/files.py's
`docs_file`), unless the title says the task is about documentation: then that code is the
answer, as test files are for a task about tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.search.query import parse_query

_TOOL = ("def reference_ids(members):\n"
         "    # one stable anchor id per api member of the reference pages\n"
         "    return {m.name: 'api-' + m.name.lower() for m in members}\n")
_LIB = ("def member_ids(members):\n"
        "    # stable ids of api members, for the reference lookups\n"
        "    return [m.name for m in members]\n")


def test_the_title_says_whether_a_task_is_about_docs() -> None:
    assert parse_query("fix(docs): harden API reference identities").about_docs
    assert parse_query("Update the tutorial for nested commands").about_docs
    assert not parse_query("harden API reference identities").about_docs
    # a body that mentions the docs does not make the task about them
    assert not parse_query("Harden ids\n\nSee the docs for the reference pages").about_docs


def test_docs_code_leads_only_when_the_task_is_about_docs(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"tools/docs/reference.py": _TOOL, "lib/members.py": _LIB,
                      "lib/names.py": _LIB.replace("member_ids", "name_ids")})
    # `docs:` is a change type, not a scope: only the docs rule lifts the tool here
    about = graphiq_ci.build_context(root, "docs: stable api reference ids", Options())
    assert about.files[0].path == "tools/docs/reference.py", [f.path for f in about.files]
    plain = graphiq_ci.build_context(root, "fix: stable api reference ids", Options())
    assert plain.files[0].path != "tools/docs/reference.py", [f.path for f in plain.files]
