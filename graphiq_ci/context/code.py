"""Which code to show: every definition in the best files, scored by its own words.

The file ranking is the strongest signal there is (it finds the changed file first most of the
time); the code shown must build on it rather than on the BFS neighbourhood. So each
definition in the top files becomes a candidate *unit* and is scored as

    file_share × kind × lines ** SIZE_PRIOR × (lexical + evidence + PRIOR)

- `file_share`: the file's score over the best file's, so the first file's units lead unless a
  later file's unit matches much better (squaring it, or taking its root, moved CodeR on the
  development splits by less than 0.03, in both directions);
- `kind`: DATA_PRIOR for a data member on its own, else 1;
- `lexical`: the definition's BM25 as a chunk (FTS5 over its name, signature, doc and body,
  with the whole index's statistics), relative to the best chunk in its file and overall;
- `evidence`: what the ranking already knows (named in the task, a search hit, changed on the
  branch), from the candidate channels.

A container (class, impl, module block) is scored on its own lines and shown as its own lines:
its methods are units of their own. A function keeps the functions nested in it (a closure is
read with the function that returns it, not as `…`); they are units of their own as well.
Lines outside every definition (imports, module code) form one unit per file with a small
prior. Past the first 20 units, what the two best units call or are called by rises
(`_lift_linked`). The packer (`render/pack.py`) decides what fits.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import chain, starmap
from pathlib import Path
from typing import NamedTuple

from graphiq_ci.context.candidates import Candidates
from graphiq_ci.context.model import (
    DATA_KINDS,
    CodeCandidates,
    CodeUnit,
    ContextFile,
    ContextSymbol,
)
from graphiq_ci.context.spans import attached_start, gaps, subtract, trimmed
from graphiq_ci.model import EdgeKind
from graphiq_ci.search import GraphIndex
from graphiq_ci.search.fts import informative, match_expr
from graphiq_ci.search.graph import EDGE_KINDS
from graphiq_ci.store import Store
from graphiq_ci.store.schema import FTS_COLUMNS

#: files whose definitions become units, best first
CODE_FILES = 12
#: units kept, best first: with only the best 150, CodeR and Full on both development splits
#: are the same at 2,000 and 8,000 tokens
MAX_UNITS = 400
LEXICAL = 1.0
EVIDENCE = 0.5
PRIOR = 0.1
#: lines outside every definition: imports, module-level code
MODULE_PRIOR = 0.05
#: data members (model.DATA_KINDS) are shown as part of their container's own lines; on their
#: own they are rarely what a change touches (about 1/30 of a function's rate on the
#: development splits at the same score)
DATA_PRIOR = 0.1
#: a longer definition is likelier to hold a change: score × lines ** SIZE_PRIOR
SIZE_PRIOR = 0.35
#: see `_lift_linked`
LINK_TOP = 2
LINK_BELOW = 20
LINK_LIFT = 2.0
_CALLS = EDGE_KINDS.index(EdgeKind.CALLS)
#: definitions whose nested definitions stay among their own lines (see `_own_runs`)
_READ_WHOLE = frozenset({"function", "method", "constructor"})
_WITHOUT_BODY = ", ".join("0" if name == "source" else str(w) for name, w in FTS_COLUMNS)
_WITH_BODY = ", ".join(str(w) for _, w in FTS_COLUMNS)


def code_units(store: Store, g: GraphIndex, root: Path, files: list[ContextFile],
               query_terms: list[str], cands: Candidates) -> CodeCandidates:
    """Units of the top files, best first: the best MAX_UNITS of them."""
    top = [f for f in files[:CODE_FILES] if f.score > 0]
    if not top:
        return CodeCandidates([], {}, {})
    best_file = top[0].score
    share = {f.path: f.score / best_file for f in top}
    sources = {f.path: read_lines(root, f.path) for f in top}
    languages = languages_of(store, [f.path for f in top])
    rows = _with_attributes(_symbols_of(store, [f.path for f in top]), sources, languages)
    lex = _chunk_bm25(store, g, query_terms, [f.path for f in top], rows)
    by_file: dict[str, list[_Row]] = defaultdict(list)
    for r in rows:
        if r.end_line <= len(sources[r.path]) and r.kind != "file":
            by_file[r.path].append(r)
    best_lex = max(lex.values(), default=0.0) or 1.0
    scored: list[_Scored] = []
    for path, syms in by_file.items():
        file_best = max((lex.get(r.id, 0.0) for r in syms), default=0.0) or 1.0
        for r, own in _own_runs(syms):
            bm25 = lex.get(r.id, 0.0)
            lexical = LEXICAL * (0.5 * bm25 / file_best + 0.5 * bm25 / best_lex)
            pos = g.pos_of_id.get(r.id)
            evidence = EVIDENCE * min(1.5, cands.score.get(pos, 0.0)) if pos is not None else 0.0
            size = sum(b - a + 1 for a, b in own) ** SIZE_PRIOR  # blank lines count: a class's
            # size is its span minus its methods, not its few non-blank lines
            kind = DATA_PRIOR if r.kind in DATA_KINDS else 1.0
            scored.append((share[path] * kind * size * (lexical + evidence + PRIOR), path, r.line,
                           r, own))
    for f in top:
        outside = _outside(sources[f.path], by_file.get(f.path, []))
        if outside:
            scored.append((share[f.path] * MODULE_PRIOR, f.path, outside[0][0], None, outside))
    scored.sort(key=lambda c: (-c[0], c[1], c[2]))
    kept, copies = _once(_units(scored, sources, lex, g, cands), sources)
    return CodeCandidates(_lift_linked(g, kept), sources, languages, copies)


def _units(scored: list[_Scored],
           sources: dict[str, list[str]], lex: dict[int, float], g: GraphIndex,
           cands: Candidates) -> Iterator[CodeUnit]:
    """The scored definitions as units, best first, built as they are asked for: a top file
    of zod holds a thousand definitions, and the packer uses far fewer (CodeR on both
    development splits is the same with the first 150 units)."""
    for score, path, _, r, own in scored:
        if r is None:  # the lines outside every definition, already trimmed
            yield CodeUnit(path, path, path, "module", own[0][0], own[-1][1], own, score)
            continue
        runs = trimmed(own, sources[path])
        if not runs:
            continue
        pos = g.pos_of_id.get(r.id)
        reasons = list(dict.fromkeys(cands.reasons.get(pos, []))) if pos is not None else []
        if lex.get(r.id, 0.0):
            reasons.insert(0, "its words match the task")
        yield CodeUnit(path, r.name, r.qualified, r.kind, r.line, r.end_line, runs, score,
                       r.id, reasons)


def _once(units: Iterable[CodeUnit], sources: dict[str, list[str]]
          ) -> tuple[list[CodeUnit], frozenset[int]]:
    """The first MAX_UNITS units kept and the symbol ids of those dropped as copies.

    Each piece of code once: a unit whose lines read exactly as a better unit's (a
    generated or vendored copy, such as zod's `deno/lib/` mirror of `src/`) is dropped, and
    the unit kept says where the copy is. Showing it twice tells the reader nothing new and
    took up to a third of a 2,000-token prompt; in the symbol list it took a slot.

    Units are grouped by the lengths of their runs and their first line, and only units in
    one group have their text compared: joining every unit's lines cost ~15 ms a query on
    zod's 1,200 units."""
    def text(u: CodeUnit) -> tuple[str, ...]:
        lines = sources[u.file]
        return tuple("\n".join(lines[a - 1:b]) for a, b in u.runs)

    groups: dict[tuple[tuple[int, ...], str], list[CodeUnit]] = {}
    kept: list[CodeUnit] = []
    copies: set[int] = set()
    for u in units:
        shape = (tuple(b - a for a, b in u.runs), sources[u.file][u.runs[0][0] - 1])
        group = groups.setdefault(shape, [])
        mine = text(u) if group else ()
        original = next((o for o in group if text(o) == mine), None)
        if original is None:
            group.append(u)
            kept.append(u)
            if len(kept) == MAX_UNITS:
                break
            continue
        copies.add(u.symbol_id)
        if len(original.reasons) < 8:
            original.reasons.append(f"the same code is in {u.file}")
    return kept, frozenset(copies - {0})


def _lift_linked(g: GraphIndex, units: list[CodeUnit]) -> list[CodeUnit]:
    """Past the first LINK_BELOW units, a unit that calls one of the LINK_TOP best units, or
    is called by one, scores LINK_LIFT times as much, up to the LINK_BELOW-th unit's score.

    A change to a function often reaches what it calls or what calls it: on the development
    splits such linked units are gold 3 to 40 times as often as the rest at the same rank.
    Letting them rise into the first units took the room that the best units' own lines need
    at a small budget (dev2 CodeR at 2000 tokens fell by up to 0.025), so the lift reorders
    only the tail, which the larger budgets and the symbol list reach."""
    if len(units) <= LINK_BELOW:
        return units
    # The top units' call neighbours, asked of them (a few edges) rather than of every tail
    # unit (thousands of units' edges: a quarter of the units' time on zod). A call edge is
    # stored at both ends, so a unit that calls a top unit is among that unit's callers.
    top = [g.pos_of_id.get(u.symbol_id) for u in units[:LINK_TOP] if u.symbol_id]
    linked = {j for pos in top if pos is not None
              for j, _, code in chain(g.out[pos], g.inc[pos]) if code == _CALLS}
    ceiling = units[LINK_BELOW - 1].score * 0.999  # ties stay behind the LINK_BELOW-th unit
    tail = []
    for u in units[LINK_BELOW:]:
        if u.symbol_id and g.pos_of_id.get(u.symbol_id) in linked:
            u = u.with_score(max(u.score, min(u.score * LINK_LIFT, ceiling)))
        tail.append(u)
    tail.sort(key=lambda u: (-u.score, u.file, u.line))
    return units[:LINK_BELOW] + tail


def lead_units(store: Store, root: Path, code: CodeCandidates,
               groups: list[tuple[list[ContextSymbol], float]],
               changed_lines: dict[str, set[int]] | None = None) -> CodeCandidates:
    """Each group's symbols as units scored `score` ahead of `code`'s own (PR mode: the
    changed code first, then its callers and tests), each shown as the lines it owns; a
    unit's `changed_lines` are its focus, shown first if it must be shortened."""
    changed_lines = changed_lines or {}
    paths = list(dict.fromkeys([s.file for syms, _ in groups for s in syms]
                               + sorted(changed_lines)))
    languages = {**code.languages, **languages_of(store, paths)}
    paths = [p for p in paths if p in languages]  # indexed files only
    if not paths:
        return code
    sources = dict(code.sources)
    for path in paths:
        if path not in sources:
            sources[path] = read_lines(root, path)
    symbols = _with_attributes([r for r in _symbols_of(store, paths) if r.kind != "file"],
                               sources, languages)
    rows = {r.id: (r, runs) for r, runs in _own_runs(symbols)}
    # a data member is shown as part of its container's own lines (see `_own_runs`)
    owner = {r.id: r.parent for r in symbols if r.id not in rows and r.parent in rows}
    lead: list[CodeUnit] = []
    in_lead: set[int] = set()  # the lead's symbol ids: asking the list was quadratic
    for syms, score in groups:
        for rank, s in enumerate(syms):
            r, own = rows.get(s.id) or rows.get(owner.get(s.id, -1)) or (None, [])
            if r is None or r.id in in_lead:
                continue
            if s.file not in sources:
                sources[s.file] = read_lines(root, s.file)
            runs = trimmed(own, sources[s.file])
            if runs and r.end_line <= len(sources[s.file]):
                changed = changed_lines.get(s.file, set())
                focus = tuple(sorted(n for a, b in runs for n in range(a, b + 1)
                                     if n in changed))
                lead.append(CodeUnit(r.path, r.name, r.qualified, r.kind, r.line, r.end_line,
                                     runs, score / (1 + 0.05 * rank), r.id, s.reasons, focus))
                in_lead.add(r.id)
    lead += _changed_elsewhere(lead, changed_lines, sources, root,
                               groups[0][1] if groups else 1.0)
    ids = {u.symbol_id for u in lead if u.symbol_id}
    return CodeCandidates(lead + [u for u in code.units if u.symbol_id not in ids],
                          sources, languages, code.copies)


def _changed_elsewhere(lead: list[CodeUnit], changed_lines: dict[str, set[int]],
                       sources: dict[str, list[str]], root: Path, score: float
                       ) -> list[CodeUnit]:
    """Per changed file, the changed lines no lead unit shows (an import, module code, a
    comment above a function, a definition past the section's cap) as one unit: a change
    there is as much the change as one inside a function."""
    covered: dict[str, set[int]] = defaultdict(set)
    for u in lead:
        covered[u.file].update(n for a, b in u.runs for n in range(a, b + 1))
    out = []
    for path, changed in sorted(changed_lines.items()):
        if path not in sources:
            sources[path] = read_lines(root, path)
        lines = sources[path]
        left = sorted(n for n in changed - covered[path]
                      if n <= len(lines) and lines[n - 1].strip())
        if left:
            runs = subtract([(left[0], left[-1])], gaps(left))
            out.append(CodeUnit(path, path, path, "module", left[0], left[-1], runs, score,
                                0, ["changed on this branch"], tuple(left)))
    return out


class _Row(NamedTuple):  # thousands per query: a tuple is built ~4x faster than a dataclass
    id: int
    path: str
    name: str
    qualified: str
    kind: str
    line: int  # where the definition is (its name's line), as search and the graph say
    end_line: int
    parent: int | None
    start: int = 0  # its first line, decorators and attributes included (0: `line`)


#: a definition scored before it is built as a unit: (score, path, line, its row or None for the
#: lines outside every definition, the lines it owns)
_Scored = tuple[float, str, int, "_Row | None", list[tuple[int, int]]]


def _symbols_of(store: Store, paths: list[str]) -> list[_Row]:
    marks = ",".join("?" * len(paths))
    return list(starmap(_Row, store.conn.execute(
        "SELECT s.id, f.path, s.name, s.qualified, s.kind, s.line, s.end_line, s.parent_id "
        f"FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path IN ({marks})", paths)))


def _with_attributes(rows: list[_Row], sources: dict[str, list[str]],
                     languages: dict[str, str]) -> list[_Row]:
    """The rows, each with its `start` at the decorators or attributes written above it
    (spans.py); its `line` stays the definition's, the one `search` and the graph report."""
    out = []
    for r in rows:
        start = attached_start(sources.get(r.path, []), r.line, languages.get(r.path, ""))
        out.append(r._replace(start=start) if start != r.line else r)
    return out


def languages_of(store: Store, paths: list[str]) -> dict[str, str]:
    """path → language, as the index recorded it (the code fence's info string)."""
    marks = ",".join("?" * len(paths))
    return dict(store.conn.execute(
        f"SELECT path, language FROM files WHERE path IN ({marks})", paths))


def _chunk_bm25(store: Store, g: GraphIndex, terms: list[str], paths: list[str],
                rows: list[_Row]) -> dict[int, float]:
    """symbol id → BM25 as a chunk; a container's body (its methods' text) is not counted,
    a function's is (what is nested in it is its own code, `_own_runs`).

    One MATCH over the whole table (its statistics are the whole index's), scored only for
    the symbols of `paths`: the unary `+` keeps SQLite from handing the IN list to FTS5,
    which would run the full-text query once per id (140 ms for 400 ids on zod). Fetching
    every match and filtering here scored and copied all of them: 0.7 s at 200k symbols.
    """
    expr = match_expr(informative(store, terms, len(g.ids), g.fts_common), relaxed=True)
    if not expr or not rows:
        return {}
    kinds = {r.id: r.kind for r in rows}  # scored without its body: only a container
    parents = {r.parent for r in rows if r.parent is not None and r.kind not in DATA_KINDS
               and kinds.get(r.parent) not in _READ_WHOLE}
    marks = ",".join("?" * len(paths))
    try:
        found = store.conn.execute(
            f"SELECT rowid, -bm25(symbols_fts, {_WITH_BODY}), -bm25(symbols_fts, {_WITHOUT_BODY})"
            " FROM symbols_fts WHERE symbols_fts MATCH ? AND +rowid IN (SELECT s.id FROM "
            f"symbols s JOIN files f ON f.id = s.file_id WHERE f.path IN ({marks}))",
            (expr, *paths)).fetchall()
    except sqlite3.OperationalError:
        return {}
    return {int(i): max(0.0, float(without if i in parents else with_body))
            for i, with_body, without in found}


def _own_runs(syms: list[_Row]) -> list[tuple[_Row, list[tuple[int, int]]]]:
    """Each definition with the lines it owns: its span minus its children's spans. Data
    members stay with their container (a class's fields are its own lines, not units), and a
    function keeps what is nested in it: cut out, typer's `generate_list_convertor` showed
    its signature and `return internal_convertor` around a `…`, its inner function ranked
    30 units lower (CodeR at 2,000 tokens on dev 0.671 -> 0.685, dev2 unchanged)."""
    children: dict[int, list[_Row]] = defaultdict(list)
    ids = {r.id for r in syms}
    for r in syms:
        if r.parent is not None and r.kind not in DATA_KINDS:
            children[r.parent].append(r)
    out = []
    for r in syms:
        if r.kind in DATA_KINDS and r.parent in ids:
            continue
        kids = None if r.kind in _READ_WHOLE else children.get(r.id)
        first = r.start or r.line
        runs = (subtract([(first, r.end_line)], [(c.start or c.line, c.end_line) for c in kids])
                if kids else [(first, r.end_line)] if first <= r.end_line else [])
        if runs:
            out.append((r, runs))
    return out


def _outside(lines: list[str], syms: list[_Row]) -> list[tuple[int, int]]:
    """Non-blank lines outside every definition, as runs."""
    return trimmed(subtract([(1, len(lines))], [(r.start or r.line, r.end_line) for r in syms]),
                   lines)


def read_lines(root: Path, path: str) -> list[str]:
    """A repository file's lines as text ([] when it cannot be read)."""
    try:
        return (root / path).read_text(errors="replace").splitlines()
    except OSError:
        return []
