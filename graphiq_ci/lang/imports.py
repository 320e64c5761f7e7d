"""Import-path conventions: an import as written → repo-relative files it may name, best first."""

from __future__ import annotations

import posixpath

from graphiq_ci.lang.spec import ImportCandidates

_JS_EXTS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts")
#: Node's own modules: an app's `src/util/` or `lib/events/` is not what `import "util"` names
_NODE_BUILTINS = frozenset(
    "assert async_hooks buffer child_process cluster console constants crypto dgram dns domain "
    "events fs http http2 https inspector module net os path perf_hooks process punycode "
    "querystring readline repl stream string_decoder timers tls trace_events tty url util v8 "
    "vm wasi worker_threads zlib".split())


def _join(from_path: str, rel: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(from_path), rel))


def python(spec: str, from_path: str) -> list[str]:
    """`a.b` → a/b.py, a/b/__init__.py; `..x` is relative to the importing package."""
    dots = len(spec) - len(spec.lstrip("."))
    rest = spec[dots:].replace(".", "/")
    if dots:
        base = posixpath.dirname(from_path)
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        stem = posixpath.join(base, rest) if rest else base
    else:
        stem = rest
    stem = stem.strip("/")
    return [f"{stem}.py", f"{stem}/__init__.py"] if stem else []


def javascript(spec: str, from_path: str) -> list[str]:
    """`./x` → x.ts, x/index.ts, …; a package name → that package's source when the
    repository holds it (a workspace: `zod/mini` → `*/zod/src/mini/index.ts`), else nothing."""
    spec = spec.strip("'\"`")
    if not spec.startswith("."):
        return _package(spec)
    stem = _join(from_path, spec)
    out = [stem]
    for base in (stem, stem.removesuffix(".js")):
        out += [base + ext for ext in _JS_EXTS]
        out += [f"{base}/index{ext}" for ext in _JS_EXTS]
    return out


def _package(spec: str) -> list[str]:
    """A package import as a monorepo lays it out: the package's folder is named after it
    (`@scope/` dropped), with its source in `src/` or at its root. Tests and sibling packages
    import a workspace package by name (zod's tests: `import * as z from "zod/mini"`), and
    without this every such call was unresolved. An external package (`react` in an app)
    names no folder of the repository and resolves to nothing, as before."""
    parts = spec.split("/")[1:] if spec.startswith("@") else spec.split("/")
    if not parts or not parts[0] or ":" in parts[0] or parts[0] in _NODE_BUILTINS:
        return []  # `node:fs`, `fs`, an empty or odd name
    name, sub = parts[0], "/".join(parts[1:]) or "index"
    out = []
    for base in (f"{name}/src/{sub}", f"{name}/{sub}"):
        out += [f"*/{base}{ext}" for ext in _JS_EXTS]
        if sub != "index":
            out += [f"*/{base}/index{ext}" for ext in _JS_EXTS]
    return out


def c_include(spec: str, from_path: str) -> list[str]:
    spec = spec.strip("\"<>")
    return [_join(from_path, spec), spec, f"include/{spec}", f"src/{spec}"]


def dotted_class(ext: str) -> ImportCandidates:
    """Java/Kotlin/PHP style `a.b.C` (or `a\\b\\C`) → a/b/C.ext, matched by path suffix."""

    def candidates(spec: str, from_path: str) -> list[str]:
        parts = [p for p in spec.replace("\\", ".").split(".") if p and p != "*"]
        if not parts:
            return []
        return ["*/" + "/".join(parts) + ext, "*/" + parts[-1] + ext]

    return candidates


def php(spec: str, from_path: str) -> list[str]:
    """`require 'lib/x.php'` is a path; `use App\\Models\\User` a class."""
    if "/" in spec or spec.endswith(".php"):
        rel = spec.lstrip("/")
        return [_join(from_path, rel), rel]
    return dotted_class(".php")(spec, from_path)


def rust(spec: str, from_path: str) -> list[str]:
    """`crate::a::b::C` → src/a/b.rs, src/a/b/mod.rs, src/a.rs …"""
    parts = [p for p in spec.split("::") if p and p not in {"crate", "self", "super", "{", "*"}]
    out: list[str] = []
    for n in range(len(parts), 0, -1):
        stem = "/".join(parts[:n])
        out += [f"*/{stem}.rs", f"*/{stem}/mod.rs"]
    return out


def go(spec: str, from_path: str) -> list[str]:
    """An import path names a directory: match its last two segments as a path suffix."""
    parts = spec.strip('"').split("/")
    return ["*/" + "/".join(parts[-2:]) + "/", "*/" + parts[-1] + "/"]


def ruby(spec: str, from_path: str) -> list[str]:
    spec = spec.strip("'\"")
    return [_join(from_path, spec) + ".rb", f"lib/{spec}.rb", f"*/{spec}.rb"]


#: folders of a Dart package (beside its pubspec.yaml) whose files import it by name
_DART_PACKAGE_DIRS = frozenset(
    "lib bin test example tool benchmark integration_test test_driver web".split())


def dart(spec: str, from_path: str) -> list[str]:
    """`'src/x.dart'` is relative to the importing file; `package:name/x.dart` is `x.dart` in
    the `lib/` of package `name`: in a folder named after it (a monorepo's
    `pkgs/name/lib/x.dart`), else in the importing file's own package (its folder above
    `lib/`, `test/`, …: a package importing itself under a folder named otherwise), else in
    the repository's root package. `dart:` libraries are the SDK's: nothing."""
    spec = spec.strip("'\"")
    if spec.startswith("package:"):
        name, _, rest = spec.removeprefix("package:").partition("/")
        if not name or not rest:
            return []
        out = [f"*/{name}/lib/{rest}"]
        parts = from_path.split("/")[:-1]
        for i in range(len(parts) - 1, -1, -1):
            if parts[i] in _DART_PACKAGE_DIRS:
                if i:
                    out.append("/".join([*parts[:i], "lib", rest]))
                break
        return [*out, f"lib/{rest}"]
    if not spec or ":" in spec:
        return []  # `dart:io`, another scheme
    return [_join(from_path, spec)]


def _underscore(part: str) -> str:
    """A module alias's part as its file is named (Elixir's `Macro.underscore`): `LongPoll`
    → long_poll, `HTTPClient` → http_client, `Base64Url` → base64_url."""
    out = []
    for i, ch in enumerate(part):
        if ch.isupper() and i and (not part[i - 1].isupper() or (
                i + 1 < len(part) and part[i + 1].islower())) and part[i - 1] != "_":
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def elixir(spec: str, from_path: str) -> list[str]:
    """`Phoenix.Router.Helpers` → lib/phoenix/router/helpers.ex (Mix's layout: the alias's
    parts in snake case under `lib/`), an umbrella app's `apps/*/lib/…`, then the same path
    anywhere; then the parent module's file, which often defines the nested module
    (`Phoenix.Router.NoRouteError` in router.ex); last a test helper in `test/support/`,
    named by the last part (`RouterHelper`: test/support/router_helper.exs). A Mix task
    `Mix.Tasks.Phx.Gen.Secret` is lib/mix/tasks/phx.gen.secret.ex; `__MODULE__.Route` in
    lib/phoenix/router.ex is lib/phoenix/router/route.ex. A one-part name (`Logger`,
    `GenServer`: mostly Elixir's own; or a member of `alias Phoenix.Router.{Route, Scope}`,
    which the query names alone) is looked for beside the importing file's own module, where
    a module aliasing several of its children finds them (router.ex: router/route.ex), and
    under `lib/`; never by suffix, which matched lib/phoenix/logger.ex for `require Logger`."""
    parts = [p for p in spec.strip().split(".") if p]
    if not parts or not all(p.replace("_", "").isalnum() for p in parts):
        return []  # `:erlang_module`, `unquote(x)`, an odd name
    snake = [_underscore(p) for p in parts]
    if parts[0] == "__MODULE__":
        stem = posixpath.splitext(from_path)[0]
        return [f"{stem}/{'/'.join(snake[1:])}.ex"] if len(parts) > 1 else []
    rel = "/".join(snake)
    out = [f"lib/{rel}.ex", f"*/lib/{rel}.ex"]
    if len(parts) == 1:  # a member of `alias Phoenix.Router.{Route}`, in router.ex: route.ex
        out.insert(0, f"{posixpath.splitext(from_path)[0]}/{rel}.ex")
    else:
        out.append(f"*/{rel}.ex")
    if len(parts) > 2 and parts[:2] == ["Mix", "Tasks"]:
        task = ".".join(snake[2:])
        out[:0] = [f"lib/mix/tasks/{task}.ex", f"*/lib/mix/tasks/{task}.ex"]
    elif len(parts) > 2:
        parent = "/".join(snake[:-1])
        out += [f"lib/{parent}.ex", f"*/lib/{parent}.ex"]
    return out + [f"*/test/support/{snake[-1]}.ex", f"*/test/support/{snake[-1]}.exs"]


def lua(spec: str, from_path: str) -> list[str]:
    """`require "a.b.c"` → a/b/c.lua or a/b/c/init.lua from the root (package.path's `./?.lua`
    and `./?/init.lua`), under `lua/` (a Neovim plugin's runtime folder) or `src/`, then the
    same paths anywhere (a rock's own folder, a LuaRocks tree vendored in). A one-part name
    (`cjson`, `ffi`, `lpeg`) is mostly a C module or a rock: never matched by suffix. A
    require is never relative to the requiring file."""
    parts = [p for p in spec.strip().replace("/", ".").split(".") if p]
    if not parts or not all(p.replace("_", "").replace("-", "").isalnum() for p in parts):
        return []  # a path with spaces, `..`, or another odd string
    stem = "/".join(parts)
    out = [f"{stem}.lua", f"{stem}/init.lua", f"lua/{stem}.lua", f"lua/{stem}/init.lua",
           f"src/{stem}.lua", f"src/{stem}/init.lua"]
    if len(parts) > 1:
        out += [f"*/{stem}.lua", f"*/{stem}/init.lua"]
    return out


#: roots of imports that name the Scala and Java platforms (`collection.X` is scala.collection's:
#: `scala._` is imported everywhere): found by their own path only (the scala/scala repository),
#: never by a bare class name (scopt's own Seq.scala for `collection.{Seq => CSeq}`)
_SCALA_PLATFORM = frozenset({"scala", "java", "javax", "collection", "concurrent", "annotation"})
_SCALA_WILDCARDS = frozenset({"_", "*", "given"})


def scala(spec: str, from_path: str) -> list[str]:
    """An import as the query names it: a whole declaration (`import a.b.C`, `import a.b.C as
    D`, `import a.b.{C => D}`, `import a.b._`, `import a.b.{given, *}`) or one of several
    selectors alone (`C`, `D` of `import a.b.{C, D => E}`: the grammar gives an import's path
    no node of its own).

    `a.b.C` → a/b/C.scala (sbt's layout: the package's folders), then, when `B` is capitalised
    (an object), C as its member (a/B.scala), then any C.scala (Scala ties no file to its
    package, and a file may hold several classes; not for the platform's `scala.`/`java.`
    imports, nor for a lower-case name). A wildcard `a.b._` imports an object's members
    (a/b.scala) or a package's: its package object (a/b/package.scala), then a file of the
    package's folder (it binds no name that file could wrongly claim). A bare name (a
    selector, or a relative `import OEffect._`) is first looked for beside the importing file:
    the same package, as Scala resolves it."""
    text = " ".join(spec.replace("`", "").split())
    here = posixpath.dirname(from_path)
    beside = [posixpath.join(here, "{}.scala")] if here else ["{}.scala"]
    if not text.startswith("import "):  # a selector: the name alone
        if not text or not text.replace("_", "a").replace("$", "a").isalnum():
            return []
        return [p.format(text) for p in beside] + ([f"*/{text}.scala"] if text[0].isupper() else [])
    body = text.removeprefix("import ").strip()
    if "{" in body:  # one selector (`a.b.{C => D}`: a.b.C), or only wildcards: `a.b._`
        prefix, _, selectors = body.partition("{")
        named = []
        for selector in selectors.rstrip("} ").split(","):
            name, _, bound = selector.replace(" as ", "=>").partition("=>")
            name, bound = name.strip(), bound.strip()
            if name and name not in _SCALA_WILDCARDS and not name.startswith("given ") \
                    and bound != "_":  # `{C => _}` hides C
                named.append(name)
        body = prefix.rstrip(". ") + "." + (named[0] if len(named) == 1 else "_")
    body = body.rsplit(",", 1)[-1].strip()  # `import a.B, c.D`: the last, as the query binds
    body = body.split(" as ", 1)[0].strip()
    parts = [p.strip() for p in body.split(".") if p.strip()]
    wildcard = bool(parts) and parts[-1] in _SCALA_WILDCARDS
    if wildcard:
        parts = parts[:-1]
    if not parts or not all(p.replace("_", "a").replace("$", "a").isalnum() for p in parts):
        return []
    stem, last = "/".join(parts), parts[-1]
    out = [p.format(last) for p in beside] if len(parts) == 1 else []
    anywhere = parts[0] not in _SCALA_PLATFORM and last[:1].isupper()  # a class or object
    if wildcard:
        out += [f"*/{stem}.scala", f"*/{stem}/package.scala"]
        out += [f"*/{last}.scala"] if anywhere else []
        out += [f"*/{stem}/"] if len(parts) > 1 else []
        return list(dict.fromkeys(out))
    out.append(f"*/{stem}.scala")
    if len(parts) > 1 and parts[-2][:1].isupper():  # a member of an object: `a.Obj.C`
        out.append(f"*/{'/'.join(parts[:-1])}.scala")
    out += [f"*/{last}.scala"] if anywhere else []
    return list(dict.fromkeys(out))
