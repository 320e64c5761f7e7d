"""How long each language's tree-sitter query takes to compile: what every process that parses
a file of that language pays once, before its first file (a one-file refresh included, #14).

    python benchmarks/bench_queries.py [LANGUAGE ...] [--runs 5]

Prints a Markdown table, the fastest of `--runs` compiles per language (CPU time of this
process, so another job on the machine slows it less than wall time would).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import tree_sitter as ts
from tree_sitter_language_pack import get_language

from graphiq_ci.lang.compiled import query_text
from graphiq_ci.lang.registry import LANGUAGES

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402


def compile_ms(grammar: str, text: str, runs: int) -> tuple[float, int]:
    """The fastest compile of `text` in milliseconds, and its pattern count."""
    language = get_language(grammar)  # type: ignore[arg-type]
    best, patterns = float("inf"), 0
    for _ in range(runs):
        start = time.process_time()
        query = ts.Query(language, text)
        best = min(best, time.process_time() - start)
        patterns = query.pattern_count
    return best * 1000, patterns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("languages", nargs="*", help="default: every language with a query")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"Query compile: graphiq-ci {git_describe()}; fastest of {args.runs}; "
          f"{C.hardware_note()}.\n")
    print("| language | patterns | compile ms |")
    print("|---|---|---|")
    for spec in LANGUAGES:
        if not spec.grammar or (args.languages and spec.name not in args.languages):
            continue
        ms, patterns = compile_ms(spec.grammar, query_text(spec), args.runs)
        print(f"| {spec.name} | {patterns} | {ms:.1f} |")


if __name__ == "__main__":
    main()
