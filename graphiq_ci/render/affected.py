"""`affected` as text, JSON, or the arguments a CI step passes to pytest."""

from __future__ import annotations

import json

from graphiq_ci.context.affected import Affected, AffectedFile
from graphiq_ci.context.relations import named_after_phrase
from graphiq_ci.paths import one_line

AFFECTED_FORMATS = ("text", "json", "pytest")
#: the weaker files the text names before "…"
MAX_WEAKER_NAMED = 5


def affected_text(found: Affected) -> str:
    """Each test file, why it is in, and each test case with the chain that links it."""
    ref = found.compared_with.get("ref") or found.compared_with.get("commit")
    against = f" compared with `{ref}`" if ref else ""
    if not found.files:
        return f"No test reaches what changed{against}.\n"
    lines = [f"{len(found.files)} test files reach the change{against}:"]
    for f in found.files:
        lines.append(f"- `{one_line(f.path)}` ({_why(f)})")
        lines += [f"  - `{t.case_id or t.place.qualified}`: "
                  + " → ".join(f"`{v}`" for v in t.via) for t in f.cases]
    if found.weaker:
        lines.append(f"{len(found.weaker)} more with weaker evidence (`--all`, or "
                     "`everything` over MCP, lists them): "
                     + ", ".join(f"`{one_line(f.path)}`" for f in found.weaker[:MAX_WEAKER_NAMED])
                     + (", …" if len(found.weaker) > MAX_WEAKER_NAMED else ""))
    return "\n".join(lines) + "\n"


def _why(f: AffectedFile) -> str:
    if f.changed:
        return "changed on this branch"
    if f.named_after and not f.cases:
        return f"no call links it, but it is {named_after_phrase(f.named_after, '`')}"
    w, c = f.written_with, f.cochanged
    history = []
    if w is not None:
        history.append(f"it was edited in {w.together} of the {w.commits} commits that last "
                       "wrote the changed definitions")
    if c is not None:
        history.append(f"it changed with `{c.partner}` in {c.together} of "
                       f"{c.partner_commits} commits")
    if f.cases or not history:
        return "reaches it"
    return "no call links it, but " + ", and ".join(history)


def affected_json(found: Affected) -> str:
    return json.dumps({
        "compared_with": found.compared_with,
        "changed": [{"qualified": p.qualified, "file": p.file, "line": p.line}
                    for p in found.changed],
        "files": [{"path": f.path, "changed": f.changed, "named_after": f.named_after or None,
                   "cochanged": f.cochanged._asdict() if f.cochanged else None,
                   "written_with": f.written_with._asdict() if f.written_with else None, "cases": [
            {"id": t.case_id, "qualified": t.place.qualified, "line": t.place.line,
             "via": list(t.via)} for t in f.cases]} for f in found.files],
        "weaker": [f.path for f in found.weaker],
        "ids": found.case_ids, "notes": found.notes}, indent=2) + "\n"


def pytest_args(found: Affected) -> str:
    """One argument per line: a file's test ids, or the file itself when it was changed or
    holds no selectable test (a helper reached the change). Nothing when nothing is reached.
    A file at the top whose name starts with `-` is given as `./-…`, or pytest would read an
    option; a file whose name holds a line break cannot be one line: `unpassable` names it."""
    args: list[str] = []
    left_out = set(unpassable(found))
    for f in found.files:
        if f.path in left_out:
            continue
        ids = [t.case_id for t in f.cases if t.case_id]
        args += [f.path] if f.changed or not ids else ids
    return "".join(f"./{a}\n" if a.startswith("-") else f"{a}\n" for a in dict.fromkeys(args))


def unpassable(found: Affected) -> list[str]:
    """The listed test files `pytest_args` leaves out: a control character in the name."""
    return [f.path for f in found.files if one_line(f.path) != f.path]
