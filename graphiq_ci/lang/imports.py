"""Import-path conventions: an import as written → repo-relative files it may name, best first."""

from __future__ import annotations

import posixpath

from graphiq_ci.lang.spec import ImportCandidates

_JS_EXTS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts")


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
    """Relative specifiers only: `./x` → x.ts, x/index.ts, …; bare package names are external."""
    spec = spec.strip("'\"`")
    if not spec.startswith("."):
        return []
    stem = _join(from_path, spec)
    out = [stem]
    for base in (stem, stem.removesuffix(".js")):
        out += [base + ext for ext in _JS_EXTS]
        out += [f"{base}/index{ext}" for ext in _JS_EXTS]
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
