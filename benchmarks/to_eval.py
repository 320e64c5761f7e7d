"""graphiq-ci's JSON (DESIGN.md: files as {path, score, reasons}) → eval.py's answer format.

eval.py ranks `files` given as plain paths; graphiq-ci's documented schema carries a score and
reasons with each file. This filter keeps the order and the paths, and passes symbols and the
token count through, and hands the rendered prompt (`prompt`, the text the budget bought) over
as `context`, which eval.py scores for CodeR and Full:
    graphiq-ci context ... --format json | python benchmarks/to_eval.py
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    obj = json.load(sys.stdin)
    print(json.dumps({
        "files": [f["path"] if isinstance(f, dict) else f for f in obj.get("files", [])],
        "symbols": [{"file": s["file"], "name": s["name"], "line": s["line"]}
                    for s in obj.get("symbols", [])],
        "tokens": obj.get("tokens"),
        **({"context": obj["prompt"]} if isinstance(obj.get("prompt"), str) else {}),
    }))


if __name__ == "__main__":
    main()
