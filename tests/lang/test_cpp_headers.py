"""A `.h` header is C++ when its text is (lang/registry.py's `_CPP_HEADER`): C++ projects keep
classes and templates in `.h` files, and read as C they lost every class and method."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index
from graphiq_ci.lang.registry import detect_language
from graphiq_ci.store import DB_NAME, INDEX_DIR

CPP_HEADER = """\
#pragma once
#include <string>

namespace geo {

class Shape {
public:
    explicit Shape(std::string name);
    double area() const;
private:
    std::string name_;
};

}  // namespace geo
"""

C_HEADER = """\
#ifndef API_H
#define API_H
#ifdef __cplusplus
extern "C" {
#endif

struct point { double x, y; };
double api_distance(const struct point *a, const struct point *b);

#ifdef __cplusplus
}
#endif
#endif
"""

CPP_SOURCE = """\
#include "shape.h"

namespace geo {
double Shape::area() const { return 0.0; }
}
"""


def test_a_header_is_cpp_by_its_text() -> None:
    assert detect_language("include/shape.h", CPP_HEADER.encode()) == "cpp"
    assert detect_language("include/api.h", C_HEADER.encode()) == "c"  # extern "C" guards
    assert detect_language("include/shape.h") == "c"  # unread: by its extension
    assert detect_language("x.h", b"template <typename T> T twice(T v);\n") == "cpp"
    assert detect_language("x.h", b"int n = std::size(v);\n") == "cpp"


def test_a_cpp_header_is_indexed_with_its_class_and_methods(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"include/shape.h": CPP_HEADER, "include/api.h": C_HEADER,
                      "src/shape.cc": CPP_SOURCE})
    run_index(root)
    conn = sqlite3.connect(root / INDEX_DIR / DB_NAME)
    try:
        languages = dict(conn.execute("SELECT path, language FROM files"))
        header = {(kind, qualified) for kind, qualified in conn.execute(
            "SELECT s.kind, s.qualified FROM symbols s JOIN files f ON f.id = s.file_id "
            "WHERE f.path = 'include/shape.h'")}
    finally:
        conn.close()
    assert languages["include/shape.h"] == "cpp"
    assert languages["include/api.h"] == "c"
    assert ("class", "geo.Shape") in header, header
    assert ("method", "geo.Shape.area") in header, header
