"""What a language plugin declares: data, plus an import-path convention."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

ImportCandidates = Callable[[str, str], list[str]]


def no_candidates(spec: str, from_path: str) -> list[str]:
    return []


class LanguageSpec(NamedTuple):
    """A language: how to recognise its files, which grammar and query extract its symbols.

    `grammar` is a tree-sitter-language-pack name; None means file-level tracking only.
    `import_candidates(spec, from_path)` lists repo-relative paths an import may point at,
    best first; the indexer keeps the first that exists.
    """

    name: str
    extensions: tuple[str, ...]
    grammar: str | None = None
    query: str | None = None  # file name under lang/queries/
    shebangs: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()
    import_candidates: ImportCandidates = no_candidates
    # names a language gives constructors (so `Foo.new` style scoped queries can find them)
    constructor_names: tuple[str, ...] = ()
    # query files shared with related grammars, read before `query` (ecmascript.scm)
    base_queries: tuple[str, ...] = ()
    # a bare call `f()` may be a method of the enclosing class (Java's implicit `this`); where
    # it may not (Python, Go, Rust, JS), a bare call never resolves to a method
    implicit_self: bool = False
    # same-named definitions in one scope are distinct functions (Java's overloads by
    # parameter types); where not, they are one function (Python's `@overload` stubs and the
    # def that runs, TypeScript's overload signatures): the last one is kept
    overloads: bool = False
    # an overload is picked by how many arguments a call passes (Java: no default parameter
    # values, so only a trailing varargs takes a varying number); see index/resolve.py
    arity_picks_overload: bool = False
    # the file that makes a folder a module and lists what it holds (Rust's `mod.rs`,
    # Python's `__init__.py`, `index.ts`): where a new piece of the folder is registered
    module_files: tuple[str, ...] = ()
    # how a line starts that belongs to the definition below it (decorators, annotations,
    # attributes: `@`, `#[`): shown with that definition, not as its container's own lines
    attribute_prefixes: tuple[str, ...] = ()
    # a programming language held at file level (no grammar here): its files are source
    # code, ranked as code, not as the docs and configuration the other text files are
    source: bool = False
    # its test runners pick a test by an attribute on it (JUnit's `@Test`, Rust's `#[test]`,
    # xUnit's `[Fact]`), not by its name: in a test file, a function nothing calls is a test
    tests_by_attribute: bool = False
    # joins an import's module path and a name it imports (`from pkg import sub`: `pkg.sub`,
    # `use crate::de::{enum_}`: `crate::de::enum_`): a name that is a module of its own
    # binds that module's file, not the package's (index/bindings.py)
    path_separator: str = ""
    # a package is a folder, its files one namespace (Go): `tui.New()` is in any file of
    # the folder an import of `…/tui` names
    package_is_folder: bool = False

    @property
    def is_code(self) -> bool:
        return self.grammar is not None or self.source
