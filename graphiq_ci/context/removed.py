"""Definitions the branch removed, and the references the work tree still makes to them.

The index is of the work tree, so a method deleted whole has no span in it: its lines were
charged to the class around it, which then read as changed and filled the PR comment with
the class's callers. The base's text of each file the branch removed lines from is parsed
again instead. A definition whose first line the branch removed and whose qualified name no
changed file defines any more is removed (a rename removes the old name; a move to another
file removes nothing). Its lines are no surviving definition's change (`changed_symbols`'
`gone`), and each reference still made to it is code that now names what is not there.

A reference counts only where it names the removed definition without a guess, as
resolution would have (index/resolve.py): it is unresolved now, and
- for a member of a type: it is called on a value of that type (`c.gone()` with `c: A`,
  `self.gone()`), or made bare from inside the type (Java's implicit `this`); for a function
  nested in another, or one in a Rust `mod`, bare from inside its parent;
- for anything else: it is bare (`gone()`, `Gone` in an annotation) and nothing in the
  repository defines the name any more.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from graphiq_ci.context.change_report import updated_by_branch
from graphiq_ci.context.code import read_lines
from graphiq_ci.context.dispatch import enclosing_definition
from graphiq_ci.context.model import CallSite, RemovedSymbol
from graphiq_ci.context.relations import SUPERTYPES
from graphiq_ci.context.spans import leading_start
from graphiq_ci.index.parse import DEFAULT_MAX_FILE_SIZE
from graphiq_ci.index.resolve import STANDARD_METHODS
from graphiq_ci.lang.extract import extract
from graphiq_ci.lang.receivers import as_written
from graphiq_ci.lang.registry import detect_language, plugin_for
from graphiq_ci.model import Kind, qualified_of_key
from graphiq_ci.paths import is_test_path, is_vendored_path
from graphiq_ci.search import GraphIndex
from graphiq_ci.store import Store
from graphiq_ci.vcs import BranchDiff, ChangeStatus, Hunk
from graphiq_ci.vcs.repo import TextAt

#: removed definitions the comment lists (those still referenced first)
MAX_REMOVED = 8
#: how many equal lines a deletion may swap with the kept ones beside it (`realigned`)
MAX_SWAPS = 3
#: how far up a removed method's type its supertypes are followed (`_outside_base`)
SUPERTYPE_LEVELS = 3
#: references listed per removed definition (the count says how many there are in all)
MAX_REFERENCES = 8
_NAMING = ("calls", "references", "extends", "implements")


class Removal(NamedTuple):
    """A definition the base has and the work tree does not, with its lines at the base."""

    file: str  # its path now (the branch's hunks are keyed by it)
    base_file: str  # its path at the base (another for a renamed file)
    name: str
    qualified: str
    kind: str
    line: int
    owner: str  # the qualified name of the type it is a member of ("": none)
    lines: frozenset[int]  # the base's lines of it the branch removed, doc comment included


def removed_definitions(g: GraphIndex, diff: BranchDiff, hunks: dict[str, list[Hunk]],
                        base: TextAt) -> tuple[list[Removal], dict[str, list[Hunk]]]:
    """The outermost definitions the branch removed from the files it changed (a class
    removed whole is one removal, not one per method), in path and line order; and `hunks`
    with each deletion moved onto them where git chose other lines among equal ones
    (`realigned`)."""
    hunks = dict(hunks)
    changed, indexed = set(diff.paths), set(g.paths)
    defined_now = {g.qualified[i] for i in range(len(g.ids))
                   if g.kinds[i] != "file" and g.path(i) in changed}
    out: list[Removal] = []
    # a language whose query compiles for one file only compiles what that file can match
    # (lang/extract.py's `narrow`): the whole Rust query took 50 ms of a 4-file axum PR
    per_language = Counter(detect_language(c.old_path or c.path) for c in diff.files)
    for change in diff.files:
        removed = {n for h in hunks.get(change.path, ()) for n in
                   range(h.old_start, h.old_start + h.old_count) if n not in h.blank_old}
        # a file the index leaves out (vendored, generated, too large) is not read at the base
        # either; one the branch deleted is, unless it is vendored or large
        if not removed or change.path not in indexed and (
                change.status is not ChangeStatus.DELETED or is_vendored_path(change.path)):
            continue
        old_path = change.old_path or change.path
        lines = base.lines(old_path)
        language = detect_language(old_path)
        spec = plugin_for(language) if language else None
        if lines is None or spec is None or not spec.grammar \
                or sum(map(len, lines)) > DEFAULT_MAX_FILE_SIZE:
            continue
        try:
            parsed = extract(spec, old_path, "\n".join(lines).encode("utf-8", "replace"),
                             narrow=per_language[language] == 1)
        except Exception:  # noqa: BLE001 - a base file the parser cannot read removes nothing
            continue
        gone = [(leading_start(lines, s.line, language or ""), s) for s in parsed.symbols
                if s.kind is not Kind.FILE and s.qualified not in defined_now]
        spans = [(start, s.end_line) for start, s in gone]
        hunks[change.path] = [r for h in hunks[change.path] for r in realigned(h, lines, spans)]
        removed = {n for h in hunks[change.path] for n in
                   range(h.old_start, h.old_start + h.old_count) if n not in h.blank_old}
        found = [(start, s) for start, s in gone if s.line in removed]
        found.sort(key=lambda fs: (fs[0], -fs[1].end_line))
        outer_end, listed = 0, set()
        for start, s in found:
            if s.end_line <= outer_end or s.qualified in listed:
                continue  # inside a removed definition, or a namesake (a Rust `impl`) listed
            outer_end = s.end_line
            listed.add(s.qualified)
            out.append(Removal(change.path, old_path, s.name, s.qualified, s.kind.value, s.line,
                               qualified_of_key(s.parent or ""),
                               frozenset(range(start, s.end_line + 1)) & removed))
    return out, hunks


def realigned(h: Hunk, lines: list[str], spans: list[tuple[int, int]]) -> list[Hunk]:
    """A deletion as the run or runs of lines that best cover `spans` (the base's definitions
    the work tree lacks). Where a removed line equals the kept line just after (or before)
    the deletion, git could have removed either: axum's PR deleting two tests got the `}`
    closing the test before them and kept the second's `}`, so that test read as changed; a
    PR deleting a class's last method and the function after the class got the class's `}`
    and kept the function's. Such a pair is swapped (at most MAX_SWAPS times, each swap a
    strict gain in lines that are removed definitions' or blank); the text removed stays
    the same. Ties keep git's choice."""
    if h.new_count or not h.old_count:
        return [h]

    def fits(n: int) -> bool:
        return not lines[n - 1].strip() or any(a <= n <= b for a, b in spans)

    removed = git_put = list(range(h.old_start, h.old_start + h.old_count))
    for _ in range(MAX_SWAPS):
        best: tuple[int, list[int]] | None = None
        for kept, run in ((removed[-1] + 1, _last_run(removed)),
                          (removed[0] - 1, _last_run(removed[::-1]))):
            if not 1 <= kept <= len(lines):
                continue
            for i in run:
                if lines[i - 1] == lines[kept - 1]:
                    gain = fits(kept) - fits(i)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, sorted(set(removed) - {i} | {kept}))
        if best is None:
            break
        removed = best[1]
    if removed == git_put:
        return [h]
    out, before = [], 0
    for run in _runs(removed):
        out.append(Hunk(run[0], len(run), h.new_start + run[0] - h.old_start - before, 0,
                        blank_old=frozenset(n for n in run if not lines[n - 1].strip())))
        before += len(run)
    return out


def _runs(numbers: list[int]) -> list[list[int]]:
    """Sorted numbers as runs of consecutive ones."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _last_run(numbers: list[int]) -> list[int]:
    """The numbers at the end of `numbers` that step by one (either way) to its last."""
    run = [numbers[-1]]
    for n in reversed(numbers[:-1]):
        if abs(n - run[-1]) != 1:
            break
        run.append(n)
    return run


def gone_lines(removals: list[Removal]) -> dict[str, set[int]]:
    """Per path, the base's lines the removed definitions took."""
    out: dict[str, set[int]] = {}
    for r in removals:
        out.setdefault(r.file, set()).update(r.lines)
    return out


def removed_symbols(g: GraphIndex,
                    left: dict[Removal, list[tuple[str, int, int | None]] | None],
                    changed_lines: dict[str, set[int]]) -> list[RemovedSymbol]:
    """What the comment says of each removal, given the references left to it
    (`references_left`; None: not known): those still referenced first, at most
    MAX_REMOVED."""
    out = []
    for r, refs in left.items():
        if refs is None:
            out.append(RemovedSymbol(r.qualified, r.kind, r.base_file, r.line, None, []))
            continue
        sites = [CallSite(_caller(g, path, pos), path, line,
                          pos is not None and updated_by_branch(path, g.lines[pos],
                                                                g.end_lines[pos], changed_lines),
                          test=is_test_path(path)) for path, line, pos in refs[:MAX_REFERENCES]]
        out.append(RemovedSymbol(r.qualified, r.kind, r.base_file, r.line, len(refs), sites))
    out.sort(key=lambda s: not s.references)  # stable: path and line order within each
    return out[:MAX_REMOVED]


def references_left(store: Store, g: GraphIndex, root: Path, r: Removal
                    ) -> list[tuple[str, int, int | None]] | None:
    """Each reference the work tree still makes to the removal, in path and line order: its
    path, line and enclosing definition's graph position (None: not in the graph). None
    when a method of that name may still answer them, inherited from a type outside the
    repository or the language's own (`toString`, `save` on a Django model): then the calls
    are no sign of a break."""
    if r.owner and (r.name in STANDARD_METHODS or _outside_base(store, g, r)):
        return None
    owner_name = r.owner.rsplit(".", 1)[-1]
    elsewhere = _importing_from_elsewhere(store, g, r, owner_name) if r.owner else set()
    defined = any(g.names[j] == r.name for j in g.by_name.get(r.name.lower(), ()))
    rows = store.conn.execute(
        "SELECT f.path, r.src_id, r.line, r.kind, r.receiver_type, r.bare, r.alias FROM refs r "
        f"JOIN files f ON f.id = r.file_id WHERE r.name = ? AND r.kind IN "
        f"({','.join('?' * len(_NAMING))}) AND r.dst_id IS NULL", (r.name, *_NAMING))
    seen_from = None if r.owner else _could_name_it(store, g, r)
    imports = [] if r.owner else _imports_of(store, g, r)
    bound_to_it: dict[str, set[str]] = {}  # a file → the names its imports bind to r.file
    for path, _, _, alias in imports:
        bound_to_it.setdefault(path, set()).update(alias.split(","))
    texts: dict[str, list[str]] = {}
    found = []
    for path, src_id, line, kind, receiver_type, bare, alias in rows:
        receiver_type = as_written(receiver_type)  # unresolved: a call's result is unknown
        pos = enclosing_definition(g, path, src_id)
        if r.owner:
            typed = bool(receiver_type) and receiver_type.rsplit(".", 1)[-1] == owner_name \
                and path not in elsewhere
            caller = _caller(g, path, pos)
            inside = bool(bare) and (caller == r.owner or caller.startswith(r.owner + "."))
            if not (typed or inside):
                continue
        elif alias and kind in ("calls", "references"):  # through a module: `client.ping()`,
            # `enum_::f()`, Go's `tea.Model`
            if alias not in bound_to_it.get(path, ()):
                continue
        elif defined or receiver_type or alias or not (bare or kind != "calls") \
                or seen_from is not None and path not in seen_from \
                or not _unqualified(root, path, line, r.name, texts):
            continue
        found.append((path, line, pos))
    found += [(path, line, enclosing_definition(g, path, src_id))
              for path, line, src_id, alias in imports if r.name in alias.split(",")]
    return sorted(set(found), key=lambda f: (f[0], f[1]))


def _importing_from_elsewhere(store: Store, g: GraphIndex, r: Removal, name: str) -> set[str]:
    """The files whose imports bind `name` to another file than the removal's, and not to
    one passing on the removal's file (a re-export: `pub use self::content::…`), or through
    a module path the index cannot follow that names none of the removal's folders and
    file: a type of that name used there is the imported one. serde moved `ContentVisitor`
    into another crate, and the file it left, importing it from `serde_core::__private`,
    read as still calling the removed one."""
    own = _file_symbol_id(g, r.file)
    if own is None:  # the branch deleted the file: every import of it is unresolved now
        return set()
    conn = store.conn
    rows = conn.execute(
        "SELECT f.path, r.name, s.file_id FROM refs r JOIN files f ON f.id = r.file_id "
        "LEFT JOIN symbols s ON s.id = r.dst_id "
        "WHERE r.kind = 'imports' AND instr(',' || r.alias || ',', ?)", (f",{name},",))
    passing = {f for (f,) in conn.execute(
        "SELECT file_id FROM refs WHERE kind = 'imports' AND dst_id = ? UNION "
        "SELECT file_id FROM symbols WHERE id = ?", (own, own))}
    parts = set(re.split(r"[/.]", r.file))
    return {path for path, module, target in rows if target not in passing
            and not (target is None and parts & set(re.split(r"\W+", module)))}


def _outside_base(store: Store, g: GraphIndex, r: Removal) -> bool:
    """The removal's type, or a supertype the repository defines, extends or implements a
    type the repository does not define (its `extends` reference is unresolved)."""
    types = [i for i in range(len(g.ids)) if g.qualified[i] == r.owner and g.path(i) == r.file]
    seen = set(types)
    for _ in range(SUPERTYPE_LEVELS):
        types = [j for t in types for j, _, code in g.out[t] if code in SUPERTYPES
                 and j not in seen]
        seen.update(types)
    ids = [g.ids[i] for i in seen]
    return bool(ids) and store.conn.execute(
        f"SELECT 1 FROM refs WHERE src_id IN ({','.join('?' * len(ids))}) AND kind IN "
        "('extends', 'implements') AND dst_id IS NULL LIMIT 1", ids).fetchone() is not None


def _unqualified(root: Path, path: str, line: int, name: str,
                 texts: dict[str, list[str]]) -> bool:
    """The name stands on its own on that line (`Buffer{}`, `h: Host`), not as another
    module's (`bytes.Buffer`, `headers::Host`), which the refs table records alike: removing
    bubbletea's own `Buffer` type listed 46 uses of `bytes.Buffer` in its package's tests.
    A line that cannot be read says no."""
    if path not in texts:
        texts[path] = read_lines(root, path)
    lines = texts[path]
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return re.search(rf"(?<![\w.:>]){re.escape(name)}\b", text) is not None


def _could_name_it(store: Store, g: GraphIndex, r: Removal) -> set[str]:
    """The files whose code could name a top-level removal unqualified: its own, its
    folder's (a Go package, a Java package), and those importing its file or a namesake of
    it (a C header), resolved or, where the file is gone, by a module path naming its stem.
    A type's name elsewhere is another's: axum's tests use `headers::Host`, which the refs
    table records as `Host`, and the removal of axum-extra's `Host` listed them."""
    folder, stem = posixpath.split(r.file)
    stem = stem.split(".", 1)[0]
    paths = {p for p in g.paths if posixpath.dirname(p) == folder}
    homes = [g.ids[g.file_symbol[k]] for k, p in enumerate(g.paths)
             if posixpath.basename(p).split(".", 1)[0] == stem and g.file_symbol[k] >= 0]
    rows = store.conn.execute(
        "SELECT f.path, r.name, r.dst_id FROM refs r JOIN files f ON f.id = r.file_id "
        "WHERE r.kind = 'imports' AND (r.dst_id IN (SELECT value FROM json_each(?)) "
        "OR (r.dst_id IS NULL AND r.name LIKE ?))", (json.dumps(homes), f"%{stem}%"))
    return paths | {path for path, _, _ in rows}


def _caller(g: GraphIndex, path: str, pos: int | None) -> str:
    """A reference's enclosing definition's qualified name (its path at top level)."""
    return g.qualified[pos] if pos is not None and g.kinds[pos] != "file" else path


def _imports_of(store: Store, g: GraphIndex, r: Removal) -> list[tuple[str, int, int, str]]:
    """The imports resolved to the removal's file (`from client import Pool`), or to its
    package's where a package is a folder (Go's import names the folder, and resolves to
    one of its files), with the names each binds: one that binds the removed name now
    fails, and a call through one (`tui.Width()`) names nothing."""
    own = _file_symbol_id(g, r.file)
    if own is None:  # the branch deleted the file: its importers are unresolved
        return []
    package = [own]
    language = detect_language(r.file)
    if language is not None and plugin_for(language).package_is_folder:
        folder = posixpath.dirname(r.file)
        package += [g.ids[g.file_symbol[k]] for k, p in enumerate(g.paths)
                    if posixpath.dirname(p) == folder and g.file_symbol[k] >= 0
                    and p != r.file and detect_language(p) == language]
    return store.conn.execute(
        "SELECT f.path, r.line, r.src_id, r.alias FROM refs r JOIN files f ON f.id = r.file_id "
        "WHERE r.kind = 'imports' AND r.dst_id IN (SELECT value FROM json_each(?))",
        (json.dumps(package),)).fetchall()


def _file_symbol_id(g: GraphIndex, path: str) -> int | None:
    """The id of `path`'s file symbol; None when the work tree has no such file."""
    try:
        file_pos = g.file_symbol[g.paths.index(path)]
    except ValueError:
        return None
    return g.ids[file_pos] if file_pos >= 0 else None
