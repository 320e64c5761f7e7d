"""The schema, versioned in `meta`. A different version is rebuilt, never half-migrated."""

from __future__ import annotations

import re

SCHEMA_VERSION = 34

#: FTS5 columns and their bm25() weights, in column order (GraphIQ's weighted columns).
FTS_COLUMNS: tuple[tuple[str, float], ...] = (
    ("name", 10.0),
    ("decomposed", 8.0),
    ("qualified", 6.0),
    ("hints", 5.0),
    ("sig", 4.0),
    ("file_path", 3.5),
    ("doc", 3.0),
    ("source", 1.0),
)

def _log_triggers() -> str:
    """One trigger per way a symbol's row or edges change; each logs the ids it touches under
    the generation the running index run will publish (the current one plus one)."""
    gen = "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'), 0) + 1"
    on = "coalesce((SELECT value FROM meta WHERE key = 'graph_log'), 'on') != 'off'"
    watched = "file_id, name, qualified, kind, line, end_line, visibility, parent_id, terms"
    cases = (
        ("symbol_in", "INSERT ON symbols", ["NEW.id"]),
        ("symbol_out", "DELETE ON symbols", ["OLD.id"]),
        ("symbol_set", f"UPDATE OF {watched} ON symbols", ["OLD.id", "NEW.id"]),
        ("edge_in", "INSERT ON edges", ["NEW.src_id", "NEW.dst_id"]),
        ("edge_out", "DELETE ON edges", ["OLD.src_id", "OLD.dst_id"]),
        ("edge_set", "UPDATE ON edges", ["OLD.src_id", "OLD.dst_id", "NEW.src_id", "NEW.dst_id"]),
    )
    return "\n".join(
        f"CREATE TRIGGER IF NOT EXISTS graph_log_{name} AFTER {event} WHEN {on} BEGIN "
        + " ".join(f"INSERT OR IGNORE INTO graph_log VALUES ({gen}, {sid});" for sid in ids)
        + " END;"
        for name, event, ids in cases)


DDL = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    skip_reason TEXT NOT NULL DEFAULT '',   -- '' = parsed; else why it was not parsed
    parse_error TEXT NOT NULL DEFAULT '',
    recency REAL NOT NULL DEFAULT 0,        -- max(mtime, last commit time), unix seconds
    churn INTEGER NOT NULL DEFAULT 0,       -- commits touching it in the co-change window
    body TEXT NOT NULL DEFAULT ''           -- tokens of the whole file, for file-level BM25
);

CREATE TABLE IF NOT EXISTS symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    qualified TEXT NOT NULL,
    kind TEXT NOT NULL,
    line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    signature TEXT NOT NULL DEFAULT '',
    doc TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    visibility TEXT NOT NULL DEFAULT '',
    parent_id INTEGER,
    hints TEXT NOT NULL DEFAULT '',
    terms TEXT NOT NULL DEFAULT '',  -- distinct stems of its name, signature, doc, hints and body
    declaration INTEGER NOT NULL DEFAULT 0,  -- 1: declared only (a prototype), defined elsewhere
    arity TEXT NOT NULL DEFAULT '',  -- a callable's parameter count: "2", "1+" (varargs), ""
    returns TEXT NOT NULL DEFAULT ''  -- the type a callable declares it returns, by name
);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE INDEX IF NOT EXISTS symbols_name_lower ON symbols(lower(name));
-- a one-file refresh reads every file symbol, supertype and declaration, and the calls
-- through the file's types (index/names.py, pairs.py, resolve.py): scanning the tables for
-- them was 90 ms of a 0.26 s refresh on sqlalchemy; these partial indexes hold few rows
CREATE INDEX IF NOT EXISTS symbols_files ON symbols(file_id) WHERE kind = 'file';
CREATE INDEX IF NOT EXISTS symbols_declared ON symbols(name) WHERE declaration = 1;
CREATE INDEX IF NOT EXISTS symbols_returns ON symbols(returns) WHERE returns != '';

-- references as the plugin saw them; re-resolved into edges when their targets change
CREATE TABLE IF NOT EXISTS refs (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    src_id INTEGER,               -- enclosing symbol (NULL: the file symbol)
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    line INTEGER NOT NULL,
    alias TEXT NOT NULL DEFAULT '',
    receiver_type TEXT NOT NULL DEFAULT '',  -- a method call's receiver type, if the file shows it
    bare INTEGER NOT NULL DEFAULT 0,  -- a call of a name nothing qualifies (`f()`, not `x.f()`)
    arity INTEGER NOT NULL DEFAULT -1,  -- a call's argument count (-1: not known)
    dst_id INTEGER                -- resolved target, NULL when it is not one known definition
);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE INDEX IF NOT EXISTS refs_bases ON refs(src_id, name) WHERE kind IN ('extends', 'implements');
CREATE INDEX IF NOT EXISTS refs_receiver ON refs(receiver_type) WHERE receiver_type != '';

CREATE TABLE IF NOT EXISTS deep_tokens (
    symbol_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    token TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS deep_tokens_token ON deep_tokens(kind, token);
CREATE INDEX IF NOT EXISTS deep_tokens_symbol ON deep_tokens(symbol_id);

CREATE TABLE IF NOT EXISTS edges (
    src_id INTEGER NOT NULL,
    dst_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    weight REAL NOT NULL,
    meta TEXT NOT NULL DEFAULT ''  -- deep edges: the shared token
);
CREATE INDEX IF NOT EXISTS edges_src ON edges(src_id);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst_id);
CREATE INDEX IF NOT EXISTS edges_meta ON edges(kind, meta);

CREATE VIRTUAL TABLE IF NOT EXISTS symbols_fts USING fts5(
    {", ".join(name for name, _ in FTS_COLUMNS)},
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- whole files as documents: lexical evidence at file granularity is a strong signal
CREATE VIRTUAL TABLE IF NOT EXISTS files_fts USING fts5(
    path, body, tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Which symbols each generation touched (their row, or an edge at either end), so the graph
-- cache can be patched instead of rebuilt (search/graph_update.py). Written by the triggers
-- below, whoever changes the rows; `graph_log_floor` in meta is the oldest generation it is
-- complete after (a full index run, which sets `graph_log` to 'off', moves it up).
CREATE TABLE IF NOT EXISTS graph_log (
    generation INTEGER NOT NULL,
    symbol_id INTEGER NOT NULL,
    PRIMARY KEY (generation, symbol_id)
) WITHOUT ROWID;
{_log_triggers()}

-- per file, the subject lines of the co-change window's commits that touched it (one row per
-- path, written with the co-change table when HEAD moves): a task worded like the changes
-- made to a file is evidence for it (context/files.py, feature "history")
CREATE VIRTUAL TABLE IF NOT EXISTS history_fts USING fts5(
    path UNINDEXED, subjects, tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TABLE IF NOT EXISTS cochange (
    a TEXT NOT NULL, b TEXT NOT NULL, support INTEGER NOT NULL, confidence REAL NOT NULL,
    PRIMARY KEY (a, b)
);
"""

BM25_WEIGHTS = ", ".join(str(w) for _, w in FTS_COLUMNS)


#: the secondary indexes of the tables an index run fills: name → (table, statement). A build
#: from scratch drops them and creates each once after its inserts (one sort) instead of
#: updating every B-tree per row (index/run.py); the edges' come back after resolution and
#: deep edges have written theirs (finish.py). Every open runs DDL, which creates any of them
#: a killed build left out.
BULK_INDEXES: dict[str, tuple[str, str]] = {
    m.group(1): (m.group(2), m.group(0)) for m in re.finditer(
        r"CREATE INDEX IF NOT EXISTS (\w+) ON (symbols|refs|deep_tokens|edges)\b[^;]*", DDL)}
