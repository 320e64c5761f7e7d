"""Every definition by name, with the language facts that narrow what a name can denote.

Loaded once per resolution (index/resolve.py) in a few queries: definitions by name, files and
their languages, supertypes by name. Folding happens here, before any lookup: a constructor
named like its type is the type, and same-named definitions in one file are one function where
the language does not overload; what a given call may denote is then decided in resolve.py.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable
from functools import cached_property
from typing import NamedTuple

from graphiq_ci.lang import plugin_for
from graphiq_ci.model import TYPE_KINDS
from graphiq_ci.store import Store, chunks

#: what a qualified call can be made through (`Type.member`, `Def.is_type`): the types, and
#: modules, which Elixir calls into by name (`Shop.Repo.get(id)`)
_NAMESPACE_KINDS = frozenset(k.value for k in TYPE_KINDS) | {"module"}
_NAMESPACE_KINDS_SQL = ",".join(f"'{k}'" for k in sorted(_NAMESPACE_KINDS))
#: how far up a receiver type's supertypes a method is looked for
MAX_BASE_DEPTH = 3
_MEMBER_KINDS = frozenset({"method", "constructor"})
_VALUE_KINDS = frozenset({"variable", "constant"})


class Def(NamedTuple):
    """One definition as resolution sees it: enough to pick it, not to show it. A tuple:
    a full resolution holds one per symbol, and an instance dict each is ~100 bytes more."""

    id: int
    file_id: int
    qualified: str
    is_type: bool = False
    is_member: bool = False  # a method or constructor: what only a qualified call reaches
    line: int = 0
    arity: str = ""  # "2", "1+" (varargs), "" (not a callable, or not known)
    is_value: bool = False  # a variable or constant: what no qualified call names elsewhere

    def takes(self, arguments: int) -> bool:
        """Whether a call passing `arguments` can be this definition (unknown: it can)."""
        if not self.arity:
            return True
        least = int(self.arity.rstrip("+"))
        return arguments >= least if self.arity.endswith("+") else arguments == least


class NameTable:
    """What resolution needs from the whole index, loaded in a few queries."""

    def __init__(self) -> None:
        self.by_name: dict[str, list[Def]] = defaultdict(list)
        self.qualified_of: dict[int, str] = {}
        self.path_of: dict[int, str] = {}
        self.language_of: dict[int, str] = {}
        self.file_symbol: dict[int, int] = {}
        self.file_of_symbol: dict[int, int] = {}
        self.file_by_path: dict[str, int] = {}
        self.bases: dict[str, set[str]] = defaultdict(set)
        self.returns: dict[int, str] = {}  # a callable's id → the type it declares it returns
        # a declaration's file → the files defining what it declares (parse.h → parse.c)
        self.defining_files: dict[int, set[int]] = defaultdict(set)
        self._import_cache: dict[tuple[str, str, str], int | None] = {}
        self._package_of: dict[int, set[int]] = {}

    @classmethod
    def load(cls, store: Store, pairs: dict[int, int]) -> NameTable:
        """Every definition: what resolving every reference looks up."""
        t = cls.load_files(store)
        t._add_definitions(store.conn.execute(
            "SELECT id, file_id, name, qualified, kind, line, arity, returns FROM symbols "
            "WHERE kind != 'file'"), pairs)
        return t

    @classmethod
    def load_files(cls, store: Store) -> NameTable:
        """Files, their file symbols and every supertype, no definitions yet: re-resolving a
        few files' references then adds the symbols and names it looks up (`add_symbols_of`,
        `add_names`); reading all 7k of zod's symbols cost a one-file refresh 50 ms (#14)."""
        t = cls()
        for fid, path, lang in store.conn.execute(
            "SELECT id, path, language FROM files WHERE skip_reason = ''"
        ):
            t.path_of[fid] = path
            t.language_of[fid] = lang
            t.file_by_path[path] = fid
        for sid, fid in store.conn.execute("SELECT id, file_id FROM symbols WHERE kind = 'file'"):
            t.file_of_symbol[sid] = fid
            t.file_symbol[fid] = sid
        for qualified, base in store.conn.execute(
            "SELECT s.qualified, r.name FROM refs r JOIN symbols s ON s.id = r.src_id "
            "WHERE r.kind IN ('extends', 'implements')"
        ):
            t.bases[qualified].add(base)
            t.bases[qualified.rsplit(".", 1)[-1]].add(base)
        return t

    def add_symbols_of(self, store: Store, file_ids: set[int]) -> None:
        """The qualified names of `file_ids`' symbols: the scopes their references are in."""
        for part in chunks(sorted(file_ids)):
            for sid, fid, qualified in store.conn.execute(
                "SELECT id, file_id, qualified FROM symbols WHERE kind != 'file' AND file_id "
                f"IN ({','.join('?' * len(part))})", part,
            ):
                self.file_of_symbol[sid] = fid
                self.qualified_of[sid] = qualified

    def add_names(self, store: Store, names: set[str], pairs: dict[int, int]) -> None:
        """Every definition of `names`, folded as a full load folds it (folding looks at one
        name's definitions at a time, and a declaration's pair by its ids)."""
        rows = [row for part in chunks(sorted(names)) for row in store.conn.execute(
            "SELECT id, file_id, name, qualified, kind, line, arity, returns FROM symbols "
            f"WHERE kind != 'file' AND name IN ({','.join('?' * len(part))})", part)]
        for part in chunks(sorted(pairs.keys() | pairs.values())):
            self.file_of_symbol.update(store.conn.execute(
                f"SELECT id, file_id FROM symbols WHERE id IN ({','.join('?' * len(part))})",
                part))
        self._add_definitions(rows, pairs)

    def _add_definitions(self, rows: Iterable[tuple[int, int, str, str, str, int, str, str]],
                         pairs: dict[int, int]) -> None:
        for sid, fid, name, qualified, kind, line, arity, returns in rows:
            self.file_of_symbol[sid] = fid
            self.qualified_of[sid] = qualified
            self.by_name[name].append(Def(sid, fid, qualified, kind in _NAMESPACE_KINDS,
                                          kind in _MEMBER_KINDS, line, arity,
                                          kind in _VALUE_KINDS))
            if returns:
                self.returns[sid] = returns
        self._fold_constructors()
        self._fold_redefinitions()
        self._fold_declarations(pairs)

    def _fold_constructors(self) -> None:
        """A member named like its own type (Java's, C#'s, C++'s constructors, `Foo.Foo`) is
        left out of name lookup: `new Foo()` and `extends Foo` name the type, and the type
        stands for its constructors (see context/relations.py `incoming`). Kept, the name
        would have two or more definitions (overloads) and resolve to none, or an `extends
        Foo` inside `Foo` would pick the constructor by its longer scope prefix."""
        for name, defs in self.by_name.items():
            types = {(d.file_id, d.qualified) for d in defs if d.is_type}
            if types and len(defs) > len(types):
                self.by_name[name] = [d for d in defs if d.is_type or (
                    d.file_id, d.qualified.rpartition(".")[0]) not in types]

    def _fold_declarations(self, pairs: dict[int, int]) -> None:
        """A declaration with a known definition stops being a target of its own: uses of
        the name resolve to the definition, and a file that includes the declaring header
        imports the defining files too (see index/pairs.py)."""
        if not pairs:
            return
        for name, defs in list(self.by_name.items()):
            kept = [d for d in defs if d.id not in pairs]
            if len(kept) != len(defs):
                self.by_name[name] = kept
        for decl, definition in pairs.items():
            self.defining_files[self.file_of_symbol[decl]].add(self.file_of_symbol[definition])

    def _fold_redefinitions(self) -> None:
        """Definitions of one qualified name in one file are one function where the language
        does not overload (three `def encode` under `@overload` are the one that runs, the
        last); kept apart, a call of it would be ambiguous and resolve to none."""
        for name, defs in self.by_name.items():
            if len(defs) < 2:
                continue
            last: dict[tuple[int, str], Def] = {}
            for d in defs:
                key = (d.file_id, d.qualified if not self.overloads(d.file_id) else str(d.id))
                if key not in last or d.line > last[key].line:
                    last[key] = d
            if len(last) < len(defs):
                self.by_name[name] = list(last.values())

    def overloads(self, file_id: int) -> bool:
        language = self.language_of.get(file_id)
        return plugin_for(language).overloads if language else False

    def implicit_self(self, file_id: int) -> bool:
        language = self.language_of.get(file_id)
        return plugin_for(language).implicit_self if language else False

    def arity_picks_overload(self, file_id: int) -> bool:
        language = self.language_of.get(file_id)
        return plugin_for(language).arity_picks_overload if language else False

    def type_and_bases(self, type_name: str) -> list[str]:
        """`type_name`, then its supertypes by name, nearest first (a few levels)."""
        order, frontier = [type_name], [type_name]
        for _ in range(MAX_BASE_DEPTH):
            frontier = [b for f in frontier for b in sorted(self.bases.get(f, ()))
                        if b not in order]
            order += frontier
        return order

    def types_over(self, store: Store, file_ids: set[int]) -> set[str]:
        """The types defined in `file_ids` and every type that has one of them among its
        bases: a call through any of these may resolve differently once those files change
        (a base class swapped, a member moved), so its reference is resolved again."""
        return self.with_derived(self.types_in(store, file_ids))

    def types_in(self, store: Store, file_ids: set[int]) -> set[str]:
        """The types defined in `file_ids`, by last name. Read from the store before
        folding: a folded-away type only adds references to resolve again."""
        return {q.rsplit(".", 1)[-1] for part in chunks(sorted(file_ids))
                for (q,) in store.conn.execute(
                    f"SELECT qualified FROM symbols WHERE kind IN ({_NAMESPACE_KINDS_SQL}) AND "
                    f"file_id IN ({','.join('?' * len(part))})", part)}

    def with_derived(self, types: set[str]) -> set[str]:
        """`types` and the types that have one of them among their bases."""
        return types | self._under(types)

    def _under(self, types: set[str]) -> set[str]:
        """The types with one of `types` within MAX_BASE_DEPTH levels of their bases (those
        `type_and_bases` would reach it from), found downwards from `types`: asking every
        type for its bases was 58 ms of a one-file refresh on sqlalchemy's 7k types."""
        below: dict[str, set[str]] = defaultdict(set)
        for derived, bases in self.bases.items():
            for base in bases:
                below[base].add(derived)
        found: set[str] = set()
        frontier = set(types)
        for _ in range(MAX_BASE_DEPTH):
            frontier = {d for t in frontier for d in below.get(t, ())} - found
            found |= frontier
        return found | (types & self.bases.keys())

    def defines_type(self, type_name: str) -> bool:
        """A type of this repository is named `type_name`: by its last name (`Outer.Inner`
        is `Inner`), or whole where a definition's name is dotted (Elixir's `defmodule
        Shop.Repo`)."""
        return any(d.is_type for name in {type_name, type_name.rsplit(".", 1)[-1]}
                   for d in self.by_name.get(name, []))

    def import_target(self, spec: str, file_id: int) -> int | None:
        """The file an import names, by the importing language's path convention."""
        from_path = self.path_of[file_id]
        key = (spec, posixpath.dirname(from_path), self.language_of[file_id])
        if key not in self._import_cache:
            self._import_cache[key] = self._import_target(spec, file_id, from_path)
        return self._import_cache[key]

    def _import_target(self, spec: str, file_id: int, from_path: str) -> int | None:
        for cand in plugin_for(self.language_of[file_id]).import_candidates(spec, from_path):
            if not cand.startswith("*/"):
                if cand in self.file_by_path:
                    return self.file_by_path[cand]
                continue
            hits = sorted(self._ending_with(cand[1:]), key=len)
            if hits:
                return self.file_by_path[hits[0]]
        return None

    def _ending_with(self, suffix: str) -> list[str]:
        """Paths ending with `suffix` ("/a/b.rs"), or in a directory that does ("/a/b/"), in
        index order. Only the paths of the suffix's last name are compared: a JavaScript
        package import tries 28 candidates, and comparing each with every path was
        quadratic in a repository's files."""
        by_name, by_dir = self._paths_by_name
        in_dir = suffix.endswith("/")
        last = suffix.rstrip("/").rpartition("/")[2]
        paths = (by_dir if in_dir else by_name).get(last, [])
        return [p for p in paths
                if ("/" + (posixpath.dirname(p) + "/" if in_dir else p)).endswith(suffix)]

    def module_files(self, file_id: int) -> set[int]:
        """The files that make up `file_id`'s module: its package's, and the files defining
        what it declares (a C header's source)."""
        return self.package_files(file_id) | self.defining_files.get(file_id, set())

    def package_files(self, file_id: int) -> set[int]:
        """`file_id`, and where a package is a folder (Go) the folder's other files of its
        language: `tui.New()` is in any file of the `tui` folder."""
        if file_id not in self._package_of:
            language = self.language_of.get(file_id)
            files = {file_id}
            if language is not None and plugin_for(language).package_is_folder:
                folder = posixpath.dirname(self.path_of[file_id])
                files |= {f for f in self._files_by_folder.get(folder, ())
                          if self.language_of.get(f) == language}
            self._package_of[file_id] = files
        return self._package_of[file_id]

    @cached_property
    def _files_by_folder(self) -> dict[str, list[int]]:
        by_folder: dict[str, list[int]] = defaultdict(list)
        for path, file_id in self.file_by_path.items():
            by_folder[posixpath.dirname(path)].append(file_id)
        return by_folder

    @cached_property
    def _paths_by_name(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """File name → its paths, and folder name → the paths in such a folder, in index
        order (`file_by_path` is complete once `load_files` has run)."""
        by_name: dict[str, list[str]] = defaultdict(list)
        by_dir: dict[str, list[str]] = defaultdict(list)
        for p in self.file_by_path:
            folder, _, name = p.rpartition("/")
            by_name[name].append(p)
            by_dir[folder.rpartition("/")[2]].append(p)
        return by_name, by_dir
