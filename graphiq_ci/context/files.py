"""Which files to open: file-level BM25, the file's best symbols, explicit mentions, the graph,
and the words its recent commits were described with.

Plain BM25 over whole files is a strong baseline for "which files does this task touch"; the
symbol, graph and history signals are added to it, never substituted for it.
"""

from __future__ import annotations

import math
from collections import defaultdict

from graphiq_ci.context.candidates import Candidates
from graphiq_ci.context.model import DATA_KINDS
from graphiq_ci.context.terms import TaskTerms
from graphiq_ci.lang import MODULE_FILES, plugin_for
from graphiq_ci.paths import is_docs_path
from graphiq_ci.search import GraphIndex
from graphiq_ci.search.fts import file_bm25, history_bm25, rare_term_files
from graphiq_ci.store import Store
from graphiq_ci.text import stem, tokens

#: file-level feature weights, by the names --explain prints
FILE_WEIGHTS = {
    "file_bm25": 1.0,
    "symbols": 0.7,
    "mentioned_path": 1.5,
    "path_terms": 0.5,
    "named_symbol": 0.6,
    "graph": 0.25,
    "rare_term": 0.3,
    "history": 0.7,
    "scope": 0.5,
    "module_file": 0.3,
    "not_code": 0.3,
    "test_file": 0.3,
    "docs_file": 0.3,
}
SYMBOL_DECAY = (1.0, 0.5, 0.25)
#: per-file features that rank files but never make one relevant on their own
PRIORS = frozenset({"recency", "churn"})
FILE_LIMIT = 300
#: named_symbol's share for a file where the task's name is only a data member (an enum
#: variant, a constant, a field) while another file defines it as a type or function: axum's
#: `FunctionKind::Handler` variant tied with `trait Handler` for "… on `Handler`"
NAMED_DATA = 0.5
#: FTS5 gives a word held by more than half of the documents an IDF of 1e-6: a history
#: match on such words alone ("fix", "module") is no evidence, and scaled to the best match
#: it would count in full
NO_EVIDENCE = 1e-3
#: a task word held by at most this many files is evidence for each of them (rare_term)
RARE_TERM_FILES = 3
#: a title's scope held by more paths than this is weaker evidence for each (see _scope_paths)
SCOPE_PATHS = 60


class FileScores:
    """Each file's score and the features it is the sum of (what `--explain` prints)."""

    def __init__(self) -> None:
        self.score: dict[str, float] = {}
        self.features: dict[str, dict[str, float]] = defaultdict(dict)


def rank_files(store: Store, g: GraphIndex, terms: TaskTerms, query_terms: list[str],
               cands: Candidates, about_tests: bool, about_docs: bool,
               extra: dict[str, dict[str, float]] | None = None) -> FileScores:
    w = FILE_WEIGHTS
    fs = FileScores()
    lex = file_bm25(store, query_terms, FILE_LIMIT)
    top_lex = max(lex.values(), default=0.0) or 1.0
    for path, s in lex.items():
        fs.features[path]["file_bm25"] = w["file_bm25"] * s / top_lex
    past = {path: s for path, s in (history_bm25(store, query_terms, FILE_LIMIT)
                                    if w["history"] > 0 else {}).items() if s > NO_EVIDENCE}
    top_past = max(past.values(), default=0.0) or 1.0
    for path, s in past.items():
        fs.features[path]["history"] = w["history"] * s / top_past
    for path in rare_term_files(store, query_terms, RARE_TERM_FILES):
        fs.features[path]["rare_term"] = w["rare_term"]

    by_file: dict[int, list[float]] = defaultdict(list)
    for i, s in cands.score.items():
        by_file[g.file_of[i]].append(s)
    agg = {f: sum(d * s for d, s in zip(SYMBOL_DECAY, sorted(v, reverse=True), strict=False))
           for f, v in by_file.items()}
    top_agg = max(agg.values(), default=0.0) or 1.0
    for f, s in agg.items():
        fs.features[g.paths[f]]["symbols"] = w["symbols"] * s / top_agg

    defines = {g.file_of[i] for i in cands.exact if g.kinds[i] not in DATA_KINDS}
    for f in {g.file_of[i] for i in cands.exact}:
        fs.features[g.paths[f]]["named_symbol"] = w["named_symbol"] * (
            1.0 if f in defines or not defines else NAMED_DATA)
    for mention in terms.paths:
        for path in g.paths:
            if path == mention or path.endswith("/" + mention):
                fs.features[path]["mentioned_path"] = w["mentioned_path"]

    _path_terms(g, {stem(t) for t in query_terms}, fs)
    _scope_paths(g, {stem(t) for t in terms.scope}, fs)
    _module_files(g, {stem(t) for t in query_terms}, fs)
    _graph_neighbours(g, cands, fs)
    for path, extra_features in (extra or {}).items():
        fs.features[path].update(extra_features)

    test_paths = {g.paths[f] for f in range(len(g.paths)) if g.path_is_test[f]}
    for path in [p for p, feats in fs.features.items() if not set(feats) - PRIORS]:
        del fs.features[path]  # recency or churn alone is a prior, not evidence
    languages = dict(store.conn.execute("SELECT path, language FROM files"))
    for path, feats in fs.features.items():
        total = sum(feats.values())
        language = languages.get(path, "text")
        if not plugin_for(language).is_code:
            total *= w["not_code"]
            feats["x_not_code"] = w["not_code"]
        if path in test_paths and not about_tests:
            total *= w["test_file"]
            feats["x_test_file"] = w["test_file"]
        elif is_docs_path(path) and not about_docs:
            total *= w["docs_file"]
            feats["x_docs_file"] = w["docs_file"]
        fs.score[path] = total
    return fs


def _path_terms(g: GraphIndex, wanted: set[str], fs: FileScores) -> None:
    """How much of a path the task explains: IDF share of its words that the task uses.

    `locales/index.ts` for "add a locale", `rich_utils.py` for "Rich markup": file and directory
    names carry intent that whole-file BM25 dilutes in long files.
    """
    words, df = g.path_words()  # per path, derived once per graph
    n = len(g.paths) or 1
    for path, ws in zip(g.paths, words, strict=True):
        hit = ws & wanted
        if not hit:
            continue
        weight = {w: math.log(1 + n / df[w]) for w in ws}
        share = sum(weight[w] for w in hit) / sum(weight.values())
        fs.features[path]["path_terms"] = round(FILE_WEIGHTS["path_terms"] * share, 4)


def _scope_paths(g: GraphIndex, scope: set[str], fs: FileScores) -> None:
    """Paths holding every word of the title's scope (`fix(sse):` → `response/sse.rs`). A
    scope held by more than SCOPE_PATHS paths names a broad area, and each of them gets that
    share of the weight: Humanizer's `fix(localization):` reaches hundreds of files."""
    if not scope:
        return
    words, _ = g.path_words()
    hits = [path for path, ws in zip(g.paths, words, strict=True) if scope <= ws]
    weight = FILE_WEIGHTS["scope"] * min(1.0, SCOPE_PATHS / max(1, len(hits)))
    for path in hits:
        if path in fs.features:
            fs.features[path]["scope"] = round(weight, 4)


def _module_files(g: GraphIndex, wanted: set[str], fs: FileScores) -> None:
    """A folder's module file (`response/mod.rs`, `locales/index.ts`, `pkg/__init__.py`) when
    the task uses every word of the folder's name: adding to a module ("Add FileStream
    response to axum-extra", "add Uzbek locale") registers the new piece there, in a file
    whose own text rarely shares the task's words. A crate's `src/lib.rs` goes by the
    crate's folder; a file named like a folder beside it is that folder's module file too
    (Rust's `routing.rs` beside `routing/`, zustand's `middleware.ts` beside `middleware/`)."""
    folders = {p.rpartition("/")[0] for p in g.paths}
    for path in g.paths:
        parent, _, name = path.rpartition("/")
        base, dot, _ = path.rpartition(".")
        if name in MODULE_FILES and parent:
            parent, _, folder = parent.rpartition("/")
            if folder == "src" and parent:
                folder = parent.rpartition("/")[2]
        elif dot and "/" not in path[len(base):] and base in folders:
            folder = base.rpartition("/")[2]
        else:
            continue
        words = {stem(t) for t in tokens(folder)}
        if words and words <= wanted:
            fs.features[path]["module_file"] = FILE_WEIGHTS["module_file"]


def _graph_neighbours(g: GraphIndex, cands: Candidates, fs: FileScores) -> None:
    """Files one structural edge away from the strongest candidates share some of their score."""
    best = sorted(cands.score.items(), key=lambda kv: -kv[1])[:10]
    spread: dict[int, float] = defaultdict(float)
    for i, s in best:
        home = g.file_of[i]
        for adj in (g.out[i], g.inc[i]):
            for j, weight, _ in adj[:20]:
                f = g.file_of[j]
                if f != home:
                    spread[f] = max(spread[f], s * weight)
    top = max(spread.values(), default=0.0) or 1.0
    for f, s in spread.items():
        fs.features[g.paths[f]]["graph"] = FILE_WEIGHTS["graph"] * s / top


#: each file feature in words, for the reviewer (the arithmetic stays behind --explain)
_IN_WORDS = {
    "mentioned_path": "named in the task",
    "rare_term": "one of the few files using a word of the task",
    "history": "its past commits were described in the task's words",
    "graph": "linked to the best matches",
    "scope": "in the area the title names",
    "module_file": "the module file of a folder the task names",
    "recency": "changed recently",
    "churn": "changes often",
    "branch": "changed on this branch",
    "branch_dir": "next to files this branch changed",
    "cochange": "usually changes with the branch's files",
    "impact": "calls or is called by changed code",
    "x_test_file": "a test file",
    "x_docs_file": "documentation",
    "x_not_code": "not source code",
}


def in_words(features: dict[str, float]) -> list[str]:
    """The file's non-lexical evidence as a reviewer reads it, strongest first."""
    strongest = sorted(features, key=lambda k: -abs(features[k]))
    return [_IN_WORDS[k] for k in strongest if k in _IN_WORDS][:3]
