"""`graphiq-ci search`: ranked symbols for a query, with --explain showing every feature."""

from __future__ import annotations

import argparse

from graphiq_ci.commands.common import TYPE_CHECKING, add_command, at_least, echo, guarded, path_arg

if TYPE_CHECKING:
    from graphiq_ci.search import SearchResult


def _explain_lines(result: SearchResult) -> list[str]:
    from graphiq_ci.paths import one_line

    lines = []
    for n, hit in enumerate(result.hits, 1):
        lines.append(f"{n:>2}. {hit.qualified}  [{hit.kind}]  {one_line(hit.path)}:{hit.line}  "
                     f"score {hit.score:.3f}")
        if hit.features:
            add = ", ".join(f"{k} +{v:.3f}" for k, v in hit.features.items()
                            if not k.startswith("x_"))
            mul = ", ".join(f"{k[2:]} ×{v:.2f}" for k, v in hit.features.items()
                            if k.startswith("x_"))
            lines.append(f"      seeds: {', '.join(hit.sources)}")
            lines.append(f"      additive: {add or 'none'}")
            lines.append(f"      multipliers: {mul or 'none'}")
    return lines


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(commands, "search", _search,
                    "Rank symbols for a query: BM25 retrieves, the graph reranks.")
    p.add_argument("query", help="A symbol, path, error or description.")
    p.add_argument("--repo", type=path_arg, default=".", metavar="PATH",
                   help="Repository (default: .).")
    p.add_argument("--top", type=at_least(1), default=10, metavar="N",
                   help="How many results (default: 10).")
    p.add_argument("--json", dest="as_json", action="store_true", help="Print one JSON object.")
    p.add_argument("--explain", action="store_true", help="Show each feature's share.")


def _search(a: argparse.Namespace) -> int:
    """Exit codes as `context`'s: 0 found, 1 nothing found, 2 bad input; 1 and 2 say why in
    one line on stderr (an empty query, or no hit, used to exit 1 without a word)."""
    from graphiq_ci.errors import GraphiqError
    from graphiq_ci.paths import one_line
    from graphiq_ci.search import search

    def run() -> SearchResult:
        if not a.query.strip():
            raise GraphiqError("the query is empty: pass a symbol, a path, an error or a "
                               "description")
        return search(a.repo, a.query, a.top)

    result = guarded(run)
    if result.as_names:
        echo("graphiq-ci: nothing matched the query's other words: its common words were "
             "searched as names", err=True)
    if a.as_json:
        import json

        echo(json.dumps({
            "query": a.query, "family": result.query.family.value,
            "results": [{"name": h.name, "qualified": h.qualified, "kind": h.kind,
                         "file": h.path, "line": h.line, "end_line": h.end_line,
                         "score": round(h.score, 4), "sources": list(h.sources),
                         **({"features": h.features} if a.explain else {})}
                        for h in result.hits]}, indent=2))
    elif a.explain:
        q = result.query
        echo(f"family: {q.family.value}  terms: {' '.join(q.terms)}")
        echo("\n".join(_explain_lines(result)))
    else:
        for hit in result.hits:
            echo(f"{one_line(hit.path)}:{hit.line}  {hit.qualified}  [{hit.kind}]")
    if not result.hits:
        words = " ".join(result.query.terms) or "(no searchable words in the query)"
        echo(f"graphiq-ci: nothing found for: {words}", err=True)
        return 1
    return 0
