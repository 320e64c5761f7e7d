"""The `prompt` and `markdown` templates as plain Python: every `context` call renders one, and
Jinja2 cost ~30 ms to import plus ~4-12 ms to compile the template, in every process (#14).

`templates/prompt.md.j2` and `templates/markdown.md.j2` stay the reference (they ship, and a
user's `--template` starts from them): each function here writes exactly what Jinja writes for
its file, whitespace control included, and tests/render/test_builtin.py renders both ways and
compares. The PR comment and a user's template still go through Jinja's sandbox.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from graphiq_ci.context.model import ContextFile
from graphiq_ci.paths import one_line
from graphiq_ci.render.safe import code_block, escape_md_inline

_BACKTICKS = re.compile(r"`+")


def code_span(text: str) -> str:
    """`text` as one inline code span (the `code` filter): a fence longer than its backticks."""
    longest = max((len(r) for r in _BACKTICKS.findall(text)), default=0)
    tick = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{tick}{pad}{' '.join(text.splitlines())}{pad}{tick}"


def why(f: ContextFile) -> str:
    """Why a file ranked, as safe Markdown (the `why` filter): the task words it uses, what it
    defines, the rest."""
    parts = []
    if f.matched:
        parts.append("matches *" + escape_md_inline(" ".join(f.matched)) + "*")
    if f.defines:
        parts.append("defines " + ", ".join(code_span(d) for d in f.defines))
    parts += [escape_md_inline(w) for w in f.why]
    return "; ".join(parts) or "matches the task's words"


def _join(items: Iterable[Any], sep: str) -> str:
    return sep.join(map(str, items))  # Jinja's `join`: every item as text


def _place(file: str, line: int) -> str:
    return code_span(f"{file}:{line}")


def _branch_change(v: dict[str, Any]) -> str:
    """PR mode's list of what the branch changed, as templates/prompt.md.j2 writes it: what
    a reader (an LLM reviewing the change) cannot see in the code alone."""
    changed, removed = v["in_section"]["changed"], v["removed"]
    if not (changed or removed):
        return ""
    out = ["\n\n# What the branch changed\n"]
    for s in changed:
        c = v["changes"].get(s.id)
        line = f"\n- {code_span(s.qualified)} ({s.kind}) in {_place(s.file, s.line)}"
        if c:
            line += ": added" if c.added else ": signature changed" if c.signature_changed else ""
            line += f" · {c.callers} caller{'' if c.callers == 1 else 's'}"
            if c.not_updated:
                line += "; not updated in this change: " + ", ".join(
                    f"{code_span(t.caller)} at {_place(t.file, t.line)}" for t in c.not_updated)
        out.append(line)
    for r in removed:
        line = f"\n- {code_span(r.qualified)} ({r.kind}): removed (the base has it at " \
               f"{_place(r.file, r.line)})"
        if r.left_behind:
            line += "; still referenced at " + ", ".join(_place(t.file, t.line)
                                                          for t in r.left_behind)
        out.append(line)
    return "".join(out)


def prompt(v: dict[str, Any]) -> str:
    """templates/prompt.md.j2."""
    out = [f"# Task\n\n{v['task']}{_branch_change(v)}\n\n# Relevant code\n\nFiles most likely "
           f"involved, best first: {_join((one_line(f.path) for f in v['top_files']), ', ')}.\n"]
    out += [f"\n\n## {one_line(sn.file)} (lines {sn.ranges})\n\n"
            f"{code_block(sn.code, sn.language)}" for sn in v["snippets"]]
    out.append("\n")
    return "".join(out)


def markdown(v: dict[str, Any]) -> str:
    """templates/markdown.md.j2."""
    out = [f"## graphiq-ci context\n\n> {v['task_line']}\n\n_{len(v['files'])} files · "
           f"{len(v['symbols'])} symbols · ~{v['tokens']} tokens ({v['counter']})_\n\n"
           "### Files to open\n"]
    out += [f"\n{i}. {code_span(f.path)} — {why(f)}" for i, f in enumerate(v["files"], 1)]
    out.append("\n\n### Entry points\n")
    out += [f"\n- {code_span(s.qualified)} ({s.kind}) at {code_span(f'{s.file}:{s.line}')} — "
            f"{escape_md_inline(_join(s.reasons, '; '))}" for s in v["entries"]]
    out.append("\n")
    if v["connections"]:
        out.append("\n\n### How they connect\n")
        out += [f"\n- {code_span(c['src'])} {c['kind']} {code_span(c['dst'])}"
                for c in v["connections"]]
        out.append("\n")
    out.append("\n")
    if v["diagram"]:
        out.append(f"\n\n```mermaid\n{v['diagram']}\n```\n")
    out.append("\n")
    if v["snippets"]:
        out.append("\n\n### Code\n")
        for sn in v["snippets"]:
            names = f": {escape_md_inline(_join(sn.symbols[:6], ', '))}" if sn.symbols else ""
            out.append(f"\n\n**{code_span(sn.file)}**, lines {sn.ranges}{names}\n\n"
                       f"{code_block(sn.code, sn.language)}")
        out.append("\n")
    out.append("\n")
    return "".join(out)


#: format -> its renderer, for the built-in templates written in Python
BUILTIN: dict[str, Callable[[dict[str, Any]], str]] = {"prompt": prompt, "markdown": markdown}
