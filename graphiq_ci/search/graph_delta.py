"""A graph's delta over its cached base: made from the touched rows, kept in `graph.delta`.

After an index run touches a file, `through_delta` (`compute`) rereads only the symbols the
graph log names (since the base, or since the last delta plus the symbols it already held)
and the edges at them, and works out what `graph_overlay.overlaid` needs to read the base as
the new graph. That costs what the change costs; the base cache file is neither copied nor
rewritten (copying and rewriting it was 2.3 s of the first query after a one-file change at
1M symbols). Once the delta would hold more than `COMPACT_SHARE` of the symbols, the base is
patched whole instead (`graph_update`) and `graph_cache` writes it as the new base.

The side file is a header (magic, format, CRC-32 of the rest) and JSON: never pickle, since
the file lives in the repository's tree; JSON keeps every float exact.
"""

from __future__ import annotations

import json
import struct
import zlib
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from graphiq_ci.phases import phase
from graphiq_ci.search.graph import (
    GraphIndex,
    edge_order,
    idf_weight,
    name_terms_of,
)
from graphiq_ci.search.graph_files import set_aside, write_whole
from graphiq_ci.search.graph_overlay import Delta, overlaid
from graphiq_ci.search.graph_views import Adjacency, Edge, TermSets, edge_lists
from graphiq_ci.search.overlay_columns import Plan
from graphiq_ci.store import Store
from graphiq_ci.store.graph_log import touched_since

#: past this share of the base's symbols touched, a delta is folded into a new base: each
#: query reads the delta whole, and its views bisect per item
COMPACT_SHARE = 0.02
#: a delta larger than this share of the base cache file's bytes is folded too: each query
#: decodes the whole delta and reads the graph through it item by item, while the base is
#: read in place. A small repository's delta can outweigh its base: on zod (7k symbols, a
#: 2.1 MB cache) a one-file change touching 64 symbols rewrote the edge lists of their 584
#: neighbours, a 331 KB delta that made each later `context` ~40 ms slower.
COMPACT_BYTES = 0.1
_MAGIC = b"GIQD"
_FORMAT = 1


class Corrupt(Exception):
    """The delta file is not one this version wrote, or it was damaged since."""


def touched_for(store: Store, base: GraphIndex, previous: Delta | None) -> set[int] | None:
    """The symbols changed since `base`: the previous delta's and those the log names since
    it (so a delta outlives the log's window), or None when the log can't say."""
    since = touched_since(store, previous.generation if previous else base.generation)
    if since is None or previous is None:
        return since
    return since | set(previous.touched)


def compute(base: GraphIndex, base_crc: int, store: Store, touched: set[int],
            generation: int) -> Delta:
    """The delta of the store's graph at `generation` over `base`; read in the transaction
    `touched` was read in."""
    conn = store.conn
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS graph_touched (id INTEGER PRIMARY KEY)")
    conn.execute("DELETE FROM graph_touched")
    conn.executemany("INSERT INTO graph_touched VALUES (?)", [(s,) for s in touched])
    rows = {r[0]: r for r in conn.execute(
        "SELECT id, file_id, name, qualified, kind, line, end_line, visibility, parent_id, "
        "terms FROM symbols WHERE id IN graph_touched")}
    edges = conn.execute(
        "SELECT rowid, src_id, dst_id, kind, weight FROM edges WHERE src_id IN graph_touched "
        "UNION SELECT rowid, src_id, dst_id, kind, weight FROM edges "
        "WHERE dst_id IN graph_touched").fetchall()
    paths: list[str] = []
    file_pos: dict[int, int] = {}
    for fid, path in conn.execute("SELECT id, path FROM files WHERE skip_reason = '' ORDER BY id"):
        file_pos[fid] = len(paths)
        paths.append(path)
    return _Making(base, touched, rows, edges, paths, file_pos).delta(
        base_crc, generation, sorted(touched))


class _Making:
    """One delta: the plan (as `graph_update._Patch` orders a patch), then each part."""

    def __init__(self, g: GraphIndex, touched: set[int], rows: dict[int, tuple[Any, ...]],
                 edges: list[tuple[int, int, int, str, float]], paths: list[str],
                 file_pos: dict[int, int]) -> None:
        self.g, self.edges, self.paths, self.file_pos = g, edges, paths, file_pos
        ids = g.ids
        self.cut = sorted({p for p in map(self.old_position, touched) if p >= 0})
        fresh = sorted(rows)
        events = sorted([(p, 1, 0) for p in self.cut]
                        + [(bisect_left(ids, f), 0, f) for f in fresh])
        pieces: list[tuple[int, int] | int] = []
        self.order: list[tuple[Any, ...]] = []  # fresh rows, in position order
        start = 0
        for q, is_cut, f in events:
            if q > start:
                pieces.append((start, q))
                start = q
            if is_cut:
                start = q + 1
            else:
                pieces.append(len(self.order))
                self.order.append(rows[f])
        if start < len(ids):
            pieces.append((start, len(ids)))
        plan = Plan(pieces, {})
        self.fresh_pos = {self.order[piece][0]: plan.starts[k]
                          for k, piece in enumerate(pieces) if not isinstance(piece, tuple)}
        moved = {o: self.fresh_pos[f] for f in fresh if (o := self.old_position(f)) >= 0}
        self.plan = Plan(pieces, moved)

    def old_position(self, sid: int) -> int:
        ids = self.g.ids
        k = bisect_left(ids, sid)
        return k if k < len(ids) and ids[k] == sid else -1

    def position(self, sid: int) -> int:
        at = self.fresh_pos.get(sid)
        if at is not None:
            return at
        o = self.old_position(sid)
        return self.plan.new_of_old(o) if o >= 0 else -1

    def delta(self, base_crc: int, generation: int, touched: list[int]) -> Delta:
        g, plan = self.g, self.plan
        new_path = {p: k for k, p in enumerate(self.paths)}
        file_symbol = [-1] * len(self.paths)
        for k, p in enumerate(g.paths):
            if p in new_path and g.file_symbol[k] >= 0:
                file_symbol[new_path[p]] = plan.new_of_old(g.file_symbol[k])
        rows = []
        for r in self.order:
            sid, fid, name, qual, kind, line, end, vis, parent, _ = r
            at = self.file_pos.get(fid, 0)
            rows.append((sid, at, name, qual, kind, line, end, vis,
                         self.position(parent) if parent else -1))
            if kind == "file":
                file_symbol[at] = max(file_symbol[at], self.fresh_pos[sid])
        terms, name_terms, added, changed, df_added, median = self._terms()
        out, inc, rep_out, rep_inc, largest, base_largest = self._adjacency()
        return Delta(
            base_generation=g.generation, base_crc=base_crc, generation=generation,
            touched=touched, pieces=plan.pieces, moved=plan.moved, cut=self.cut, rows=rows,
            terms=terms, name_terms=name_terms, out=out, inc=inc, replaced_out=rep_out,
            replaced_inc=rep_inc, added=added, df_changed=changed, df_added=df_added,
            median_idf=median, largest=largest, base_largest=base_largest, paths=self.paths,
            file_symbol=file_symbol)

    def _terms(self) -> tuple[list[list[int]], list[list[int]], list[str], dict[int, int],
                              list[int], float]:
        """Fresh rows' term ids (new words appended, as `graph_update` numbers them), the
        changed per-term counts, and the median IDF from a histogram of the counts."""
        old: TermSets = self.g.terms  # type: ignore[assignment]
        base_df = self.g.term_df
        size = len(old.vocab)
        changed: dict[int, int] = {}
        for o in self.cut:
            for k in old.ids[old.off[o]:old.off[o + 1]]:
                changed[k] = changed.get(k, base_df[k]) - 1
        added: dict[str, int] = {}
        df_added: list[int] = []

        def ids_of(words: Iterable[str], count: bool) -> list[int]:
            found = []
            for w in words:
                ids = old.lookup.ids_of(w)
                k = ids[-1] if ids else added.setdefault(w, size + len(added))
                if k - size == len(df_added):
                    df_added.append(0)
                if count and k >= size:
                    df_added[k - size] += 1
                elif count:
                    changed[k] = changed.get(k, base_df[k]) + 1
                found.append(k)
            return found

        terms = [ids_of(frozenset(r[9].split()), True) for r in self.order]
        name_terms = [ids_of(name_terms_of(r[2]), False) for r in self.order]
        hist = Counter(base_df)  # in C; sorting every count was the build's way
        for k, c in changed.items():
            hist[base_df[k]] -= 1
            hist[c] += 1
        hist.update(df_added)
        held = sorted(((c, m) for c, m in hist.items() if c and m), reverse=True)
        total, median = sum(m for _, m in held), 0.0
        rank = total // 2
        for c, m in held:  # the count at index total // 2 of the counts, largest first
            if rank < m:
                median = idf_weight(c, self.plan.size)
                break
            rank -= m
        return terms, name_terms, list(added), changed, df_added, median

    def _adjacency(self) -> tuple[list[list[Edge]], list[list[Edge]], dict[int, list[Edge]],
                                  dict[int, list[Edge]], int, int]:
        """Fresh rows' edge lists and their neighbours' rebuilt (`graph_update._adjacency`),
        and the largest edge count, new and base (`graph.degrees`' divisor)."""
        g, plan = self.g, self.plan
        old_out: Adjacency = g.out  # type: ignore[assignment]
        old_inc: Adjacency = g.inc  # type: ignore[assignment]
        new_out, new_inc = edge_lists(self.edges, self.position)
        cut = set(self.cut)
        neighbours = {j for o in cut for adj in (old_out, old_inc) for j, _, _ in adj[o]}
        neighbours |= {plan.locate(p)[0] for p in (*new_out, *new_inc)}
        neighbours -= cut
        neighbours.discard(-1)
        lists = []
        for old, new in ((old_out, new_out), (old_inc, new_inc)):
            replaced = {o: sorted([(plan.new_of_old(j), w, c) for j, w, c in old[o]
                                   if j not in cut] + new.get(plan.new_of_old(o), []),
                                  key=edge_order) for o in sorted(neighbours)}
            fresh = [sorted(new.get(self.fresh_pos[r[0]], []), key=edge_order)
                     for r in self.order]
            lists.append((fresh, replaced))
        (out, rep_out), (inc, rep_inc) = lists
        base_largest, tops = _largest(old_out, old_inc, g.degree)
        unchanged = [o for o in tops if o not in cut and o not in neighbours]
        if unchanged or not tops:
            most = base_largest if unchanged else 0
        else:  # every base symbol with the most edges changed: count the others (rare)
            skip = cut | neighbours
            most = max((_count(old_out, old_inc, o) for o in range(len(g.ids))
                        if o not in skip), default=0)
        most = max([most, *(len(a) + len(b) for a, b in zip(out, inc, strict=True)),
                    *(len(rep_out[o]) + len(rep_inc[o]) for o in neighbours)])
        return out, inc, rep_out, rep_inc, most or 1, base_largest


def _count(out: Adjacency, inc: Adjacency, o: int) -> int:
    return out.off[o + 1] - out.off[o] + inc.off[o + 1] - inc.off[o]


def _largest(out: Adjacency, inc: Adjacency, degree: Sequence[float]) -> tuple[int, list[int]]:
    """The base's `degrees` divisor (its largest edge count, 1 when it has no edge) and the
    positions holding that many, found as the degrees equal to 1.0 (in C for a loaded one)."""
    if isinstance(degree, memoryview):
        blob, one, size = bytes(degree.cast("B")), struct.pack("=d", 1.0), degree.itemsize
        tops, at = [], blob.find(one)
        while at >= 0:
            if at % size == 0:
                tops.append(at // size)
            at = blob.find(one, at + 1)
    else:
        tops = [i for i, d in enumerate(degree) if d == 1.0]
    return (_count(out, inc, tops[0]) if tops else 1), tops


def encode(delta: Delta) -> bytes:
    body = json.dumps({k: getattr(delta, k) for k in _FIELDS}, separators=(",", ":"),
                      allow_nan=False).encode("ascii")
    return _MAGIC + struct.pack("<II", _FORMAT, zlib.crc32(body)) + body


def decode(data: bytes) -> Delta:
    """The delta a file holds; raises `Corrupt` for anything but what `encode` wrote."""
    if len(data) < 12 or data[:4] != _MAGIC:
        raise Corrupt("not a graph delta")
    fmt, crc = struct.unpack_from("<II", data, 4)
    if fmt != _FORMAT:
        raise Corrupt(f"format {fmt}")
    body = data[12:]
    if zlib.crc32(body) != crc:
        raise Corrupt("checksum mismatch")
    try:
        d = json.loads(body)
        return Delta(
            **{k: d[k] for k in _FIELDS if k not in _CONVERTED},
            pieces=[tuple(p) if isinstance(p, list) else p for p in d["pieces"]],
            moved={int(k): v for k, v in d["moved"].items()},
            rows=[tuple(r) for r in d["rows"]],
            out=_edges(d["out"]), inc=_edges(d["inc"]),
            replaced_out={int(k): _edge_list(v) for k, v in d["replaced_out"].items()},
            replaced_inc={int(k): _edge_list(v) for k, v in d["replaced_inc"].items()},
            df_changed={int(k): v for k, v in d["df_changed"].items()})
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise Corrupt(type(exc).__name__) from None


_FIELDS = Delta._fields
_CONVERTED = {"pieces", "moved", "rows", "out", "inc", "replaced_out", "replaced_inc",
              "df_changed"}


def _edge_list(items: list[list[Any]]) -> list[Edge]:
    return [(int(j), float(w), int(c)) for j, w, c in items]


def _edges(lists: list[list[list[Any]]]) -> list[list[Edge]]:
    return [_edge_list(x) for x in lists]


def check(delta: Delta, base: GraphIndex) -> None:
    """Raise `Corrupt` unless `delta`'s shape fits `base` (ids and positions in it are read
    bounds-checked, as the base's are: see `graph_cache`)."""
    n, fresh, at = len(base.ids), 0, 0
    k = len(delta.rows)
    ok = len(delta.terms) == len(delta.name_terms) == len(delta.out) == len(delta.inc) == k \
        and all(len(r) == 9 for r in delta.rows) \
        and len(delta.file_symbol) == len(delta.paths) \
        and len(delta.df_added) == len(delta.added) \
        and all(0 <= o < n for o in (*delta.cut, *delta.replaced_out, *delta.replaced_inc)) \
        and set(delta.moved) <= set(delta.cut) \
        and all(0 <= v < len(base.term_df) for v in delta.df_changed)
    for piece in delta.pieces:
        if isinstance(piece, tuple):
            a, b = piece
            ok = ok and type(a) is type(b) is int and at <= a < b <= n
            at = b
        else:
            ok = ok and piece == fresh
            fresh += 1
    if not ok or fresh != k:
        raise Corrupt("does not fit the graph cache")


def through_delta(base: GraphIndex, crc: int, base_bytes: int, store: Store, path: Path,
                  ) -> tuple[GraphIndex | None, bool]:
    """The store's graph over `base` (the cache file whose CRC is `crc`, `base_bytes` long)
    and whether it reads through a delta: the delta file at `path` when it is current, else a
    new delta (written there), else `base` patched whole when the delta would be large, in
    symbols or in bytes (the caller writes it as the new cache); (None, False) when the log
    can't say what changed."""
    previous = None
    try:
        previous = decode(path.read_bytes())
        if (previous.base_generation, previous.base_crc) != (base.generation, crc):
            previous = None  # another cache's delta (a rebuild replaced it)
        else:
            check(previous, base)
    except OSError:
        pass
    except Corrupt as exc:
        set_aside(path, str(exc), "graph delta")
        previous = None
    if previous is not None and previous.generation == store.generation:
        return overlaid(base, previous), True
    from graphiq_ci.search.graph_update import patch  # compaction only: not every query's

    conn = store.conn
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")  # the log, the rows and the generation: one snapshot
    try:
        generation = store.generation
        if previous is not None and previous.generation > generation:
            previous = None  # an index that went back (rebuilt): the log since the base says
        touched = touched_for(store, base, previous)
        if touched is None:
            return None, False
        if len(touched) > COMPACT_SHARE * max(len(base.ids), 1000):
            return patch(base, store, touched), False
        phase(f"graph-patch {len(touched)} symbols")
        delta = compute(base, crc, store, touched, generation)
        data = encode(delta)
        if len(data) > COMPACT_BYTES * base_bytes:
            return patch(base, store, touched), False
    finally:
        if own:
            conn.execute("COMMIT")
    write_whole(path, [data], "graph-delta")
    return overlaid(base, delta), True
