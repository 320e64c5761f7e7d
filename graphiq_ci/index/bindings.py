"""What each file's imports bind, and which definition a file passes on under a name.

A name imported from a file is not always defined there: a package's entry file hands on
what it imports or re-exports (`export * as util from './util.js'`, `export { a } from './a'`,
`export * from './schemas'`, Python's `from .models import Request` or `from .models import *`
in an `__init__.py`). Callers then import from the entry file, and their calls named no
definition: on zod, `util.merge(inst, other)` through `import { util } from '../core/index.js'`
linked nothing, so a changed `merge` showed no caller (issue #11). Resolution therefore follows
a file's own bindings a few hops, and takes a definition only where exactly one is reached.

An import and a re-export bind alike here: `import { a } from './x'; export { a }` passes `a`
on just as `export { a } from './x'` does, and a re-export binding its name in its own file too
changes nothing a valid module can observe. A star binds "*" (lang/queries).
"""

from __future__ import annotations

import posixpath

from graphiq_ci.index.names import Def, NameTable
from graphiq_ci.lang import plugin_for
from graphiq_ci.store import Store, chunks

#: how many files a name is followed through (an entry file, a sub-package's, the definer)
MAX_HOPS = 3
#: the alias a star import or re-export binds (`from x import *`, `export * from './x'`)
STAR = "*"


class FileImports:
    """What one file's imports bind. An import inside a function binds its name there only:
    `from .run import summary` in one function and `from .merge import summary` in another
    are two bindings, and a use outside both of them is not guessed between the two."""

    def __init__(self) -> None:
        self.scoped: dict[tuple[str, str], int] = {}  # (scope, name) → file
        self.anywhere: dict[str, int] = {}  # name → the file it is bound to
        self.conflicting: set[str] = set()  # names bound to two files here
        self.files: set[int] = set()
        self.stars: set[int] = set()  # files whose names this one passes on whole
        #: names bound to a module itself (`import jobs`, `mod tuple;`), not to a name a
        #: module defines (`from users import app`)
        self.modules: set[str] = set()

    def bind(self, scope: str, name: str, target: int) -> None:
        if self.anywhere.setdefault(name, target) != target:
            self.conflicting.add(name)
        self.scoped[(scope, name)] = target

    def origin(self, name: str, scope: str) -> int | None:
        """The file `name` was imported from, as seen from `scope` (a qualified name): the
        binding in the scope or the nearest enclosing one, else the file's only one."""
        while True:
            if (scope, name) in self.scoped:
                return self.scoped[(scope, name)]
            if not scope:
                break
            scope = scope.rpartition(".")[0]
        return None if name in self.conflicting else self.anywhere.get(name)

    def exported(self, name: str) -> int | None:
        """The file a top-level binding of `name` points at: what importers of this file get
        under that name (a binding inside a function is no export)."""
        return None if name in self.conflicting else self.scoped.get(("", name))


class ImportTable:
    """Every file's `FileImports`, read in one query for the files being resolved and on
    demand for the files a name is followed through (an incremental resolution reads only
    the changed files' references; the entry files they import from are read when asked)."""

    def __init__(self, store: Store, t: NameTable, file_ids: set[int]) -> None:
        self._store, self._t = store, t
        self._of: dict[int, FileImports] = {}
        self._passed: dict[tuple[int, str, tuple[int, ...]], Def | None] = {}
        # the type each chained call returns (resolve.py `_returned_type`) by its file, scope
        # and chain: `self.session().execute(…)` and `self.session().close()` ask the same
        # inner call, 41k questions of 19k distinct ones on sqlalchemy. Resolution clears it
        # file by file, as it does its other answers.
        self.returned: dict[tuple[int, str, str], str] = {}
        self._load(file_ids)

    def __getitem__(self, file_id: int) -> FileImports:
        if file_id not in self._of:
            self._load({file_id})
        return self._of[file_id]

    def _load(self, file_ids: set[int]) -> None:
        t = self._t
        for f in file_ids:
            self._of.setdefault(f, FileImports())
        for chunk in chunks(sorted(file_ids)):
            for file_id, src_id, name, alias in self._store.conn.execute(
                f"SELECT file_id, src_id, name, alias FROM refs WHERE kind = 'imports' AND "
                f"file_id IN ({','.join('?' * len(chunk))})", chunk,
            ):
                if file_id not in t.path_of:
                    continue
                target = t.import_target(name, file_id)
                if target is None:
                    continue
                imp = self._of[file_id]
                imp.files.add(target)
                imp.files |= t.defining_files.get(target, set())
                scope = t.qualified_of.get(src_id, "") if src_id is not None else ""
                for bound in filter(None, alias.split(",")):
                    if bound == STAR:
                        imp.stars.add(target)
                        continue
                    module = self._submodule(file_id, name, bound, target)
                    if module is not None:
                        imp.files.add(module)
                    local = bound.rsplit(".", 1)[-1]
                    imp.bind(scope, local, target if module is None else module)
                    if module is not None or self._module_named(target, local):
                        imp.modules.add(local)

    def _submodule(self, file_id: int, name: str, bound: str, target: int) -> int | None:
        """The file of the module `bound` when the import of `name` binds a module of that
        package (`from . import rich_utils`, `use crate::de::{enum_}`): calls through it
        (`rich_utils.f()`, `enum_::f()`) are that file's, not the package entry file's."""
        separator = plugin_for(self._t.language_of[file_id]).path_separator
        if not separator or bound == name:  # `import a.b` binds a.b itself
            return None
        joined = name + bound if name.endswith(separator) else f"{name}{separator}{bound}"
        module = self._t.import_target(joined, file_id)
        return None if module == target else module  # Rust's candidates fall back to it

    def _module_named(self, file_id: int, name: str) -> bool:
        """`file_id` is the module `name` (`tuple.rs`, `jobs.py`, `util/index.ts`, a file of
        Go's package folder `tui/`)."""
        folder, base = posixpath.split(self._t.path_of.get(file_id, ""))
        spec = plugin_for(self._t.language_of[file_id])
        if base in spec.module_files or spec.package_is_folder:
            return posixpath.basename(folder) == name
        return base.split(".", 1)[0] == name

    def passed_on(self, file_id: int, name: str, defs: list[Def]) -> Def | None:
        """The one top-level definition among `defs` that `file_id` passes on as `name`,
        followed through its bindings of `name` and its stars; None when none is reached or
        two are (never guessed)."""
        key = (file_id, name, tuple(d.id for d in defs))  # a call's narrowing picks `defs`
        if key not in self._passed:
            found = self._reach(file_id, name, defs, MAX_HOPS, set())
            self._passed[key] = next(iter(found.values())) if len(found) == 1 else None
        return self._passed[key]

    def namespace_member(self, file_id: int, namespace: str, name: str,
                         defs: list[Def]) -> Def | None:
        """`namespace.name` where `namespace` is imported from `file_id`: when that file binds
        `namespace` itself (`export * as util from './util.js'`, which `import { util }`
        imports), the member is looked up where that binding points; else in the file."""
        inner = self[file_id].exported(namespace)
        if inner is not None and inner != file_id:
            return self.passed_on(inner, name, defs)
        return self.passed_on(file_id, name, defs)

    def _reach(self, file_id: int, name: str, defs: list[Def], hops: int,
               seen: set[int]) -> dict[int, Def]:
        """The definitions reached, by id (a file reached twice, through two stars, counts
        once)."""
        if file_id in seen:
            return {}
        seen.add(file_id)
        files = self._t.module_files(file_id)
        here = {d.id: d for d in defs if d.file_id in files and not d.is_member}
        if here or hops == 0:
            return here
        imp = self[file_id]
        bound = imp.exported(name)
        if bound is not None:
            return self._reach(bound, name, defs, hops - 1, seen)
        found: dict[int, Def] = {}
        for star in sorted(imp.stars):
            found |= self._reach(star, name, defs, hops - 1, seen)
        return found


def importers(store: Store, file_ids: set[int], hops: int = MAX_HOPS) -> set[int]:
    """The files importing `file_ids`, directly or through up to `hops` files: how far a name
    is followed, so how far a changed binding can change what a name resolves to. Read from
    the last resolution's import edges: a file that imports them only since was written in
    this run and is resolved anyway."""
    out: set[int] = set()
    frontier = set(file_ids)
    for _ in range(hops):
        frontier = {f for part in chunks(sorted(frontier)) for (f,) in store.conn.execute(
            "SELECT DISTINCT a.file_id FROM edges e JOIN symbols a ON a.id = e.src_id "
            "JOIN symbols b ON b.id = e.dst_id WHERE +e.kind = 'imports' AND b.kind = 'file' "
            f"AND b.file_id IN ({','.join('?' * len(part))})", part)} - out - file_ids
        if not frontier:
            break
        out |= frontier
    return out
