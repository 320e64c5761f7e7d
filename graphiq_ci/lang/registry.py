"""The language registry: extension (then shebang, then file name) → `LanguageSpec`."""

from __future__ import annotations

import posixpath
import re
from functools import cache

from graphiq_ci.lang import imports
from graphiq_ci.lang.spec import LanguageSpec


def _ecmascript(name: str, exts: tuple[str, ...], grammar: str, query: str) -> LanguageSpec:
    return LanguageSpec(name, exts, grammar, query, ("node",) if name == "javascript" else (),
                        base_queries=("ecmascript.scm",), import_candidates=imports.javascript,
                        constructor_names=("constructor",), attribute_prefixes=("@",),
                        module_files=tuple(f"index{ext}" for ext in exts))


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("python", (".py", ".pyi"), "python", "python.scm", ("python",),
                 import_candidates=imports.python, constructor_names=("__init__",),
                 module_files=("__init__.py",), attribute_prefixes=("@",), path_separator="."),
    _ecmascript("javascript", (".js", ".mjs", ".cjs"), "javascript", "javascript.scm"),
    _ecmascript("jsx", (".jsx",), "javascript", "javascript.scm"),
    _ecmascript("typescript", (".ts", ".mts", ".cts"), "typescript", "typescript.scm"),
    _ecmascript("tsx", (".tsx",), "tsx", "typescript.scm"),
    LanguageSpec("go", (".go",), "go", "go.scm", import_candidates=imports.go,
                 package_is_folder=True),
    LanguageSpec("rust", (".rs",), "rust", "rust.scm", import_candidates=imports.rust,
                 constructor_names=("new",), module_files=("mod.rs", "lib.rs"),
                 attribute_prefixes=("#[",), tests_by_attribute=True, path_separator="::"),
    LanguageSpec("java", (".java",), "java", "java.scm",
                 import_candidates=imports.dotted_class(".java"), implicit_self=True,
                 overloads=True, arity_picks_overload=True, attribute_prefixes=("@",),
                 tests_by_attribute=True),
    LanguageSpec("c", (".c", ".h"), "c", "c.scm", import_candidates=imports.c_include,
                 base_queries=("c_family.scm",)),
    LanguageSpec("cpp", (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"), "cpp", "cpp.scm",
                 import_candidates=imports.c_include, base_queries=("c_family.scm",),
                 implicit_self=True, overloads=True),
    LanguageSpec("csharp", (".cs",), "csharp", "csharp.scm", implicit_self=True,
                 overloads=True, attribute_prefixes=("[",), tests_by_attribute=True),
    LanguageSpec("ruby", (".rb", ".rake"), "ruby", "ruby.scm", ("ruby",),
                 filenames=("Rakefile", "Gemfile"), import_candidates=imports.ruby,
                 constructor_names=("initialize",), implicit_self=True),
    LanguageSpec("php", (".php",), "php", "php.scm", ("php",),
                 import_candidates=imports.php,
                 constructor_names=("__construct",), attribute_prefixes=("#[",)),
    LanguageSpec("kotlin", (".kt", ".kts"), "kotlin", "kotlin.scm",
                 import_candidates=imports.dotted_class(".kt"), implicit_self=True,
                 overloads=True, attribute_prefixes=("@",), tests_by_attribute=True),
    LanguageSpec("swift", (".swift",), "swift", "swift.scm", constructor_names=("init",),
                 implicit_self=True, overloads=True, attribute_prefixes=("@",)),
    LanguageSpec("dart", (".dart",), "dart", "dart.scm", import_candidates=imports.dart,
                 implicit_self=True, attribute_prefixes=("@",)),
    LanguageSpec("elixir", (".ex", ".exs"), "elixir", "elixir.scm",
                 import_candidates=imports.elixir, implicit_self=True,
                 attribute_prefixes=("@",)),
    LanguageSpec("scala", (".scala", ".sc"), "scala", "scala.scm",
                 import_candidates=imports.scala, implicit_self=True,
                 overloads=True, attribute_prefixes=("@",), tests_by_attribute=True),
    LanguageSpec("lua", (".lua",), "lua", "lua.scm", import_candidates=imports.lua,
                 module_files=("init.lua",)),
)

#: Programming languages tracked at file level: their files are findable by path and
#: words, and ranked as the source code they are. Ranked as markup, they fell behind the few
#: files a repository has in a parsed language: Phoenix's Elixir files, before Elixir was
#: parsed, gave a third of BM25's MRR on its own history.
_SOURCE_AS_TEXT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("erlang", (".erl", ".hrl")),
    ("haskell", (".hs",)), ("ocaml", (".ml", ".mli")), ("fsharp", (".fs", ".fsi")),
    ("clojure", (".clj", ".cljs", ".cljc")), ("elm", (".elm",)), ("julia", (".jl",)),
    ("r", (".r", ".R")), ("perl", (".pl", ".pm")), ("objc", (".m", ".mm")),
    ("zig", (".zig",)), ("nim", (".nim",)), ("crystal", (".cr",)), ("groovy", (".groovy",)),
    ("powershell", (".ps1", ".psm1")), ("solidity", (".sol",)), ("vb", (".vb",)),
)

#: Text files tracked at file level (findable by path and content, no symbols).
TEXT_LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("markdown", (".md", ".markdown", ".rst", ".txt")),
    LanguageSpec("yaml", (".yml", ".yaml")),
    LanguageSpec("toml", (".toml",)),
    LanguageSpec("json", (".json",)),
    LanguageSpec("shell", (".sh", ".bash", ".zsh"), shebangs=("sh", "bash", "zsh")),
    LanguageSpec("html", (".html", ".htm", ".vue", ".svelte")),
    LanguageSpec("css", (".css", ".scss", ".less")),
    LanguageSpec("sql", (".sql",)),
    *(LanguageSpec(name, exts, source=True) for name, exts in _SOURCE_AS_TEXT),
    LanguageSpec("protobuf", (".proto",)),
    LanguageSpec("graphql", (".graphql", ".gql")),
    LanguageSpec("xml", (".xml",)),
    LanguageSpec("make", (".mk",), filenames=("Makefile", "makefile", "GNUmakefile")),
    LanguageSpec("dockerfile", (), filenames=("Dockerfile",)),
    LanguageSpec("cmake", (".cmake",), filenames=("CMakeLists.txt",)),
    LanguageSpec("ini", (".ini", ".cfg", ".conf")),
    LanguageSpec("text", ()),  # any other text file: findable by its path and words
)

_ALL = LANGUAGES + TEXT_LANGUAGES
_BY_NAME = {spec.name: spec for spec in _ALL}
_BY_EXT = {ext: spec for spec in _ALL for ext in spec.extensions}
_BY_FILENAME = {name: spec for spec in _ALL for name in spec.filenames}
_BY_SHEBANG = {prog: spec for spec in _ALL for prog in spec.shebangs}


#: every language's module files (`LanguageSpec.module_files`)
MODULE_FILES = frozenset(name for spec in LANGUAGES for name in spec.module_files)


#: what only C++ writes, at the start of a line or anywhere (`std::`): GitHub Linguist's rules
#: for a `.h` file, in short. fmt, LLVM and Google-style projects keep C++ in `.h` headers, and
#: the C grammar reads their classes, namespaces and templates as noise (fmt's `base.h`: 291
#: symbols and no class as C, 726 with its classes and methods as C++). `extern "C"` and
#: `__cplusplus` guards are C headers written for C++ callers: they stay C.
_CPP_HEADER = re.compile(
    rb"^[ \t]*(?:template\s*<|(?:class|namespace)\s+\w+\s*(?:[:{]|$)|"
    rb"(?:public|private|protected)\s*:|#\s*include\s*<(?:cstddef|cstdint|cstdio|cstdlib|"
    rb"cstring|string|string_view|vector|map|set|memory|utility|type_traits|iostream|"
    rb"ostream|functional|algorithm|optional|array|unordered_map|unordered_set)>)|std::\w",
    re.M)
#: how much of a header the C++ check reads
HEADER_SCAN = 1 << 16


def detect_language(path: str, head: bytes = b"") -> str | None:
    """Language of a file by extension, then file name, then shebang; None if unknown.

    `head`: the file's first bytes, for a shebang and for telling a C++ `.h` from a C one
    (without them a `.h` is C)."""
    base = posixpath.basename(path)
    if base in _BY_FILENAME:
        return _BY_FILENAME[base].name
    ext = posixpath.splitext(base)[1].lower()
    if base.endswith(".d.ts"):
        ext = ".ts"
    if ext == ".h" and _CPP_HEADER.search(head, 0, HEADER_SCAN):
        return "cpp"
    if ext in _BY_EXT:
        return _BY_EXT[ext].name
    if head.startswith(b"#!"):
        line = head.split(b"\n", 1)[0].decode("utf-8", "replace")
        words = line[2:].replace("/usr/bin/env", " ").split()
        if words:
            prog = posixpath.basename(words[0]).rstrip("0123456789.")
            if prog in _BY_SHEBANG:
                return _BY_SHEBANG[prog].name
    return None


@cache
def plugin_for(language: str) -> LanguageSpec:
    return _BY_NAME[language]
