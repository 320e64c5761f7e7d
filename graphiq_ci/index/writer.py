"""Writing file records into the store, and remembering what resolution must revisit.

A re-parsed file's symbols get their old ids back by (qualified name, kind), so the edges and
resolved references other files hold to them stay; only the names that appeared or
disappeared are resolved again across the repository (index/run.py drives it). A definition
that comes out of the parse as it was keeps its rows too (its symbols row, FTS row and deep
tokens): an edit of one function in a long file rewrites that function, not the file.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from graphiq_ci.model import EDGE_WEIGHTS, EdgeKind, Kind, qualified_of_key, scope_keys
from graphiq_ci.store import Store, chunks
from graphiq_ci.store.schema import FTS_COLUMNS
from graphiq_ci.text import tokens

if TYPE_CHECKING:  # parsing imports tree-sitter: a no-change refresh should not pay for it
    from graphiq_ci.index.parse import FileRecord

SymbolKey = tuple[str, str]  # (qualified name, kind): what makes a re-parsed symbol "the same"
#: an old symbol's id, and what calls of it resolve by: its arity and declared return type
_Reused = tuple[int, str, str]
#: a reference as resolution reads it: source (the file's own: -file_id), name, kind, alias,
#: receiver type, bare, arity; its line only says where it is
_RefKey = tuple[int, str, str, str, str, int, int]
#: reference kinds whose change reaches every reference of the file: what it imports, and
#: the bases its types inherit bare calls from
_FILE_WIDE = frozenset({EdgeKind.IMPORTS.value, EdgeKind.EXTENDS.value,
                        EdgeKind.IMPLEMENTS.value})
_BASES = frozenset({EdgeKind.EXTENDS.value, EdgeKind.IMPLEMENTS.value})


#: a symbols row, as `_write_symbols` builds it (arity and return type last: `_forget` reads
#: them from there)
_SYMBOL_COLUMNS = ("id, file_id, name, qualified, kind, line, end_line, signature, doc, source, "
                   "visibility, parent_id, hints, terms, declaration, arity, returns")
_SYMBOL_MARKS = ", ".join("?" for _ in _SYMBOL_COLUMNS.split(", "))
_SYMBOL_UPDATE = ", ".join(f"{c} = ?" for c in _SYMBOL_COLUMNS.split(", ")[1:])
#: symbols_fts's columns after its rowid (store/schema.py FTS_COLUMNS)
_FTS_COLUMNS = ", ".join(name for name, _ in FTS_COLUMNS)


class _Stored:
    """A re-parsed file's reused symbols as the index holds them: what to compare against."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[Any, ...]] = {}  # id → its symbols row
        self.fts: dict[int, tuple[str, ...]] = {}  # id → its FTS row
        self.deep: dict[int, Counter[tuple[str, str]]] = {}  # id → its tokens
        #: the file's references by what resolves them (`_RefKey`), each a (rowid, line) in
        #: order
        self.refs: dict[_RefKey, list[tuple[int, int]]] = {}


class Writer:
    """Applies file records to the store and remembers what resolution must revisit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.names: set[str] = set()
        self.tokens: set[tuple[str, str]] = set()
        self.file_ids: set[int] = set()
        #: modified files whose imports now bind other names or files: their importers may
        #: resolve a name differently through them (index/bindings.py `importers`)
        self.rebound: set[int] = set()
        #: re-parsed files whose references changed only in these sources (symbol ids, the
        #: file's own as -file_id): resolution redoes those alone. A file missing here (new,
        #: or a change to what it imports or inherits) is resolved whole.
        self.changed_sources: dict[int, set[int]] = {}
        self._old_imports: dict[int, set[tuple[str, str, str]]] = {}
        self.files_added_or_removed = False
        #: FTS rows of the batch being written, inserted together by `write_fts`
        self.fts_files: list[tuple[int, str, str]] = []
        self.fts_symbols: list[tuple[int, str, str, str, str, str, str, str, str]] = []

    def _forget(self, file_id: int,
                keep: Counter[SymbolKey] | None = None) -> tuple[dict[SymbolKey, list[_Reused]],
                                                                 _Stored]:
        """Remove a file's rows, except the symbols whose key is in `keep`: as many per key as
        the new parse has (overloads share a key), in file order, give back their ids, and
        their rows stay for `_write_symbols` to compare (`_Stored`) and rewrite only where
        they changed.

        A reused id keeps every edge and resolved reference other files hold to it, so only
        the names that appeared or disappeared need re-resolving across the repository; a
        row left as it was is no change to the FTS index, the deep edges or the graph.
        """
        conn = self.store.conn
        old = conn.execute(f"SELECT {_SYMBOL_COLUMNS} FROM symbols WHERE file_id = ? "
                           "ORDER BY id", (file_id,)).fetchall()
        reuse: dict[SymbolKey, list[_Reused]] = {}
        stored = _Stored()
        for row in old:
            sid, _, name, qualified, kind = row[:5]
            key = (qualified, kind)
            slots = reuse.setdefault(key, [])
            if keep is not None and len(slots) < keep[key]:
                slots.append((sid, row[-2], row[-1]))
                stored.rows[sid] = row
            else:
                self.names.add(name)
        gone = [row[0] for row in old if row[0] not in stored.rows]
        for part in chunks(list(stored.rows)):
            marks = ",".join("?" * len(part))
            for sid, *fts in conn.execute(f"SELECT rowid, {_FTS_COLUMNS} FROM symbols_fts "
                                          f"WHERE rowid IN ({marks})", part):
                stored.fts[sid] = tuple(fts)
            for sid, kind, token in conn.execute("SELECT symbol_id, kind, token FROM deep_tokens "
                                                 f"WHERE symbol_id IN ({marks})", part):
                stored.deep.setdefault(sid, Counter())[(kind, token)] += 1
        for part in chunks(gone):
            marks = ",".join("?" * len(part))
            self.tokens.update(conn.execute(
                f"SELECT kind, token FROM deep_tokens WHERE symbol_id IN ({marks})", part))
            conn.execute(f"DELETE FROM symbols_fts WHERE rowid IN ({marks})", part)
            conn.execute(f"DELETE FROM deep_tokens WHERE symbol_id IN ({marks})", part)
            # A kept id keeps its edges: what writes each kind writes only the difference
            # (`_write_contains`, resolve's `_replace_edges`, the deep edges of its tokens).
            conn.execute(f"DELETE FROM edges WHERE src_id IN ({marks})", part)
            conn.execute(f"DELETE FROM edges WHERE dst_id IN ({marks})", part)
            conn.execute(f"UPDATE refs SET dst_id = NULL WHERE dst_id IN ({marks})", part)
            conn.execute(f"DELETE FROM symbols WHERE id IN ({marks})", part)
        self._old_imports[file_id] = set(conn.execute(
            "SELECT coalesce(s.qualified, ''), r.name, r.alias FROM refs r LEFT JOIN symbols s "
            "ON s.id = r.src_id WHERE r.file_id = ? AND r.kind = 'imports'", (file_id,)))
        if keep:  # a re-parse: its references are compared as its symbols are
            for rowid, *key, line in conn.execute(
                    "SELECT rowid, coalesce(src_id, -file_id), name, kind, alias, receiver_type, "
                    "bare, arity, line FROM refs WHERE file_id = ? ORDER BY line, rowid",
                    (file_id,)):
                stored.refs.setdefault(tuple(key), []).append((rowid, line))
        else:
            conn.execute("DELETE FROM refs WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM files_fts WHERE rowid = ?", (file_id,))
        return reuse, stored

    def delete(self, path: str) -> None:
        row = self.store.conn.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row:
            self._forget(row[0])
            self.store.conn.execute("DELETE FROM files WHERE id = ?", (row[0],))
            self.files_added_or_removed = True

    def touch(self, rec: FileRecord) -> None:
        """Content unchanged: only the stat moved."""
        self.store.conn.execute(
            "UPDATE files SET mtime_ns = ?, size = ? WHERE path = ?",
            (rec.mtime_ns, rec.size, rec.path))

    def write(self, rec: FileRecord, existed: bool) -> None:
        conn = self.store.conn
        reuse: dict[SymbolKey, list[_Reused]] = {}
        stored = _Stored()
        if existed:
            row = conn.execute("SELECT id FROM files WHERE path = ?", (rec.path,)).fetchone()
            keep = Counter((s[1], s[2]) for s in rec.symbols) if rec.parsed else Counter()
            reuse, stored = self._forget(row[0], keep)
        else:
            self.files_added_or_removed = True
        file_id = conn.execute(
            "INSERT INTO files(path, language, mtime_ns, size, content_hash, skip_reason, "
            "parse_error, recency) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(path) DO UPDATE SET language = excluded.language, "
            "mtime_ns = excluded.mtime_ns, size = excluded.size, "
            "content_hash = excluded.content_hash, skip_reason = excluded.skip_reason, "
            "parse_error = excluded.parse_error, recency = excluded.recency RETURNING id",
            (rec.path, rec.language, rec.mtime_ns, rec.size, rec.content_hash, rec.skip_reason,
             rec.parse_error if rec.parsed else "", rec.mtime_ns / 1e9),
        ).fetchone()[0]
        self.file_ids.add(file_id)
        if not rec.parsed:
            return
        self.fts_files.append((file_id, " ".join(tokens(rec.path.replace("/", " "))), rec.body))
        self._write_symbols(rec, file_id, reuse, stored)

    def write_fts(self) -> None:
        """The batch's FTS rows in two statements (a phase of its own in the phase log)."""
        conn = self.store.conn
        conn.executemany("INSERT INTO files_fts(rowid, path, body) VALUES (?, ?, ?)",
                         self.fts_files)
        conn.executemany(
            "INSERT INTO symbols_fts(rowid, name, decomposed, qualified, hints, sig, file_path, "
            "doc, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", self.fts_symbols)
        self.fts_files, self.fts_symbols = [], []

    def _write_symbols(self, rec: FileRecord, file_id: int,
                       reuse: dict[SymbolKey, list[_Reused]], stored: _Stored) -> None:
        """Insert the new symbols, rewrite the reused ones whose row, FTS row or deep tokens
        differ from what is `stored`, and leave the rest untouched (see `_forget`)."""
        conn = self.store.conn
        taken = conn.execute("SELECT max(id) FROM symbols").fetchone()[0] or 0
        next_id = max(taken, *(sid for slots in reuse.values() for sid, *_ in slots), 0) + 1
        id_of: dict[str, int] = {}
        new_rows, changed_rows, contains, kept_ids = [], [], [], []
        path_words = " ".join(tokens(rec.path.replace("/", " ")))
        file_sym_id = 0
        file_kind = Kind.FILE.value
        keys = scope_keys((row[1], row[2]) for row in rec.symbols)  # as its references name them
        name_of: dict[int, str] = {}
        for key, (name, qualified, kind, line, end_line, signature, doc, source, visibility,
                  parent, decomposed, hints, body, terms, declaration, arity, returns) in zip(
                keys, rec.symbols, strict=True):
            slots = reuse.get((qualified, kind))
            sid, old_arity, old_returns = slots.pop(0) if slots else (0, arity, returns)
            if not sid:
                sid = next_id
                next_id += 1
                self.names.add(name)  # a new definition: uses of its name may resolve anew
            else:
                kept_ids.append(sid)
                # a call's argument count may pick another overload now, and a call on its
                # result another type's method
                if old_arity != arity or old_returns != returns:
                    self.names.add(name)
            id_of.setdefault("" if kind == file_kind else key, sid)
            name_of[sid] = name
            parent_id = id_of.get(parent) if parent else None
            if kind == file_kind:
                file_sym_id = sid
            else:
                contains.append((parent_id or file_sym_id, sid))
            row = (sid, file_id, name, qualified, kind, line, end_line, signature, doc, source,
                   visibility, parent_id, hints, terms, declaration, arity, returns)
            fts = (name, decomposed, qualified, hints, signature, path_words, doc, body)
            if sid not in stored.rows:
                new_rows.append(row)
            elif row != stored.rows[sid]:
                changed_rows.append((*row[1:], sid))
            if stored.fts.get(sid) != fts:
                if sid in stored.fts:
                    conn.execute("DELETE FROM symbols_fts WHERE rowid = ?", (sid,))
                self.fts_symbols.append((sid, *fts))
        conn.executemany(f"INSERT INTO symbols({_SYMBOL_COLUMNS}) VALUES ({_SYMBOL_MARKS})",
                         new_rows)
        conn.executemany(f"UPDATE symbols SET {_SYMBOL_UPDATE} WHERE id = ?", changed_rows)
        self._write_contains(contains, kept_ids)
        imports = {(qualified_of_key(scope), name, alias)
                   for scope, name, kind, _, alias, *_ in rec.refs
                   if kind == EdgeKind.IMPORTS.value}
        if imports != self._old_imports.pop(file_id, imports):
            self.rebound.add(file_id)
        self._write_refs(rec, file_id, id_of, stored, name_of)
        self._write_deep(rec, id_of, stored)

    def _write_refs(self, rec: FileRecord, file_id: int, id_of: dict[str, int],
                    stored: _Stored, name_of: dict[int, str]) -> None:
        """The file's references: a stored one that reads as a new one keeps its row and its
        resolved target (its line moved, if need be); the rest are deleted and inserted, and
        their sources are what resolution must redo (`changed_sources`). A type whose bases
        changed joins `names`: calls on another call's result reach it through that call
        (index/call_results.py), and are resolved again only for such a type."""
        conn = self.store.conn
        moved: list[tuple[int, int]] = []
        inserted: list[tuple[_RefKey, int]] = []
        for scope, name, kind, line, alias, receiver, bare, arity in rec.refs:
            src = (id_of.get(scope, 0) if scope else 0) or -file_id
            key = (src, name, kind, alias, receiver, bare, arity)
            slots = stored.refs.get(key)
            if slots:
                rowid, old_line = slots.pop(0)
                if old_line != line:
                    moved.append((line, rowid))
            else:
                inserted.append((key, line))
        deleted = [(key, rowid) for key, slots in stored.refs.items() for rowid, _ in slots]
        conn.executemany("UPDATE refs SET line = ? WHERE rowid = ?", moved)
        conn.executemany("DELETE FROM refs WHERE rowid = ?", [(r,) for _, r in deleted])
        conn.executemany(
            "INSERT INTO refs(file_id, src_id, name, kind, alias, receiver_type, bare, arity, "
            "line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(file_id, None if key[0] < 0 else key[0], *key[1:], line)
             for key, line in inserted])
        changed = [key for key, _ in inserted] + [key for key, _ in deleted]
        self.names.update(name_of.get(key[0], "") for key in changed if key[2] in _BASES)
        self.names.discard("")
        # a new file, or a change to what this one imports or inherits: resolved whole
        if (stored.refs or stored.rows) and file_id not in self.rebound and \
                not any(key[2] in _FILE_WIDE for key in changed):
            self.changed_sources[file_id] = {key[0] for key in changed}

    def _write_deep(self, rec: FileRecord, id_of: dict[str, int], stored: _Stored) -> None:
        """Each symbol's deep tokens, rewritten only where they differ from the stored ones;
        the tokens that appeared or disappeared are the ones whose deep edges change."""
        conn = self.store.conn
        if not stored.deep:  # a new file, or none of its symbols had tokens: insert them all
            rows = [(id_of[scope], kind, token) for scope, kind, token in rec.deep
                    if scope in id_of]
            conn.executemany("INSERT INTO deep_tokens(symbol_id, kind, token) VALUES (?, ?, ?)",
                             rows)
            self.tokens.update((kind, token) for _, kind, token in rows)
            return
        new: dict[int, Counter[tuple[str, str]]] = {}
        for scope, kind, token in rec.deep:
            if scope in id_of:
                new.setdefault(id_of[scope], Counter())[(kind, token)] += 1
        rows = []
        for sid in new.keys() | stored.deep.keys():
            now, before = new.get(sid, Counter()), stored.deep.get(sid, Counter())
            if now == before:
                continue
            if before:
                conn.execute("DELETE FROM deep_tokens WHERE symbol_id = ?", (sid,))
            rows += [(sid, kind, token) for (kind, token), n in now.items() for _ in range(n)]
            self.tokens.update(now.keys() ^ before.keys())
        conn.executemany("INSERT INTO deep_tokens(symbol_id, kind, token) VALUES (?, ?, ?)",
                         rows)

    def _write_contains(self, contains: list[tuple[int, int]], kept_ids: list[int]) -> None:
        """Write the file's `contains` edges: only the difference from those `kept_ids` (the
        ids a re-parse gave back, with their edges) still have; a new id has no edges yet, so
        a file indexed for the first time costs no query."""
        conn = self.store.conn
        wanted = set(contains)
        kept: set[tuple[int, int]] = set()
        stale: list[tuple[int]] = []
        for part in chunks(kept_ids):  # `+kind`: by the src_id index, see resolve.py
            for rowid, src, dst in conn.execute(
                    "SELECT rowid, src_id, dst_id FROM edges WHERE +kind = 'contains' AND src_id "
                    f"IN ({','.join('?' * len(part))})", part):
                if (src, dst) in wanted and (src, dst) not in kept:
                    kept.add((src, dst))
                else:
                    stale.append((rowid,))
        conn.executemany("DELETE FROM edges WHERE rowid = ?", stale)
        w = EDGE_WEIGHTS[EdgeKind.CONTAINS]
        conn.executemany(
            "INSERT INTO edges(src_id, dst_id, kind, weight) VALUES (?, ?, 'contains', ?)",
            [(p, c, w) for p, c in contains if (p, c) not in kept])
