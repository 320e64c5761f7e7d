"""`graphiq-ci search`: ranked symbols for a query, with --explain showing every feature."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from graphiq_ci.cli import guarded

if TYPE_CHECKING:
    from graphiq_ci.search import SearchResult


def _explain_lines(result: SearchResult) -> list[str]:
    lines = []
    for n, hit in enumerate(result.hits, 1):
        lines.append(f"{n:>2}. {hit.qualified}  [{hit.kind}]  {hit.path}:{hit.line}  "
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


def register(app: typer.Typer) -> None:
    @app.command(name="search")
    def search_cmd(
        query: str = typer.Argument(..., help="A symbol, path, error or description."),
        repo: Path = typer.Option(Path("."), "--repo", help="Repository."),
        top: int = typer.Option(10, "--top", min=1, help="How many results."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        explain: bool = typer.Option(False, "--explain", help="Show each feature's share."),
    ) -> None:
        """Rank symbols for a query: BM25 retrieves, the graph reranks."""
        from graphiq_ci.search import search

        result = guarded(lambda: search(repo, query, top))
        if as_json:
            typer.echo(json.dumps({
                "query": query, "family": result.query.family.value,
                "results": [{"name": h.name, "qualified": h.qualified, "kind": h.kind,
                             "file": h.path, "line": h.line, "end_line": h.end_line,
                             "score": round(h.score, 4), "sources": list(h.sources),
                             **({"features": h.features} if explain else {})}
                            for h in result.hits]}, indent=2))
        elif explain:
            q = result.query
            typer.echo(f"family: {q.family.value}  terms: {' '.join(q.terms)}")
            typer.echo("\n".join(_explain_lines(result)))
        else:
            for hit in result.hits:
                typer.echo(f"{hit.path}:{hit.line}  {hit.qualified}  [{hit.kind}]")
        if not result.hits:
            raise typer.Exit(1)
