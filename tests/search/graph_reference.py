"""The graph `build` made before it built arrays directly (issue #14), kept as the reference.

Plain Python lists, sets and dicts from one read of the index, edge lists sorted by
`edge_order`: the tests compare the array-backed `build` to this field by field, so a change in
an edge list's order, a term set, a degree or an IDF shows up as a difference.
"""

from __future__ import annotations

import math
from collections import defaultdict

from graphiq_ci.paths import is_test_path
from graphiq_ci.search.graph import (
    DEEP_CODES,
    Edge,
    GraphIndex,
    edge_order,
    idf_weight,
    name_terms_of,
)
from graphiq_ci.search.graph_views import EDGE_CODES, neighbor_terms_of
from graphiq_ci.store import Store


def reference_build(store: Store) -> GraphIndex:
    """The graph as `build` made it before issue #14, line for line."""
    conn = store.conn
    paths: list[str] = []
    file_pos: dict[int, int] = {}
    for fid, path in conn.execute("SELECT id, path FROM files WHERE skip_reason = '' ORDER BY id"):
        file_pos[fid] = len(paths)
        paths.append(path)
    file_symbol = [-1] * len(paths)
    ids: list[int] = []
    names: list[str] = []
    qualified: list[str] = []
    kinds: list[str] = []
    file_of: list[int] = []
    lines: list[int] = []
    end_lines: list[int] = []
    visibility: list[str] = []
    terms: list[frozenset[str]] = []
    pos_of_id: dict[int, int] = {}
    by_name: dict[str, list[int]] = {}
    df: dict[str, int] = defaultdict(int)
    parent_ids: list[int | None] = []
    for sid, fid, name, qual, kind, line, end, vis, parent, text in conn.execute(
        "SELECT id, file_id, name, qualified, kind, line, end_line, visibility, parent_id, terms "
        "FROM symbols ORDER BY id"
    ):
        i = len(ids)
        pos_of_id[sid] = i
        ids.append(sid)
        names.append(name)
        qualified.append(qual)
        kinds.append(kind)
        file_of.append(file_pos.get(fid, 0))
        lines.append(line)
        end_lines.append(end)
        visibility.append(vis)
        parent_ids.append(parent)
        term_set = frozenset(text.split())
        terms.append(term_set)
        for t in term_set:
            df[t] += 1
        if kind == "file":
            file_symbol[file_of[i]] = i
        by_name.setdefault(name.lower(), []).append(i)
    idf = {t: idf_weight(c, len(ids)) for t, c in df.items()}
    values = sorted(idf.values())
    name_terms = [name_terms_of(name) for name in names]
    out: list[list[Edge]] = [[] for _ in ids]
    inc: list[list[Edge]] = [[] for _ in ids]
    for src, dst, kind, weight in conn.execute("SELECT src_id, dst_id, kind, weight FROM edges"):
        a, b = pos_of_id.get(src), pos_of_id.get(dst)
        if a is None or b is None:
            continue
        code = EDGE_CODES[kind]
        out[a].append((b, weight, code))
        inc[b].append((a, weight, code))
        if code in DEEP_CODES:  # deep edges are symmetric: stored once, walked both ways
            out[b].append((a, weight, code))
            inc[a].append((b, weight, code))
    for adj in (out, inc):
        for lst in adj:
            lst.sort(key=edge_order)
    neighbor_terms = [neighbor_terms_of(name_terms, out[i], inc[i]) for i in range(len(ids))]
    most = max((len(out[i]) + len(inc[i]) for i in range(len(ids))), default=1) or 1
    return GraphIndex(
        generation=store.generation, ids=ids, names=names, qualified=qualified, kinds=kinds,
        file_of=file_of, lines=lines, end_lines=end_lines, visibility=visibility,
        parent=[pos_of_id.get(p, -1) if p else -1 for p in parent_ids],
        terms=terms, name_terms=name_terms, neighbor_terms=neighbor_terms,
        degree=[math.log1p(len(out[i]) + len(inc[i])) / math.log1p(most)
                for i in range(len(ids))],
        out=out, inc=inc, idf=idf, median_idf=values[len(values) // 2] if values else 0.0,
        paths=paths, path_is_test=[is_test_path(p) for p in paths], file_symbol=file_symbol,
        by_name=by_name, pos_of_id=pos_of_id,
    )
