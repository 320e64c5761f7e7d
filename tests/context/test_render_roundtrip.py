"""The context rendered: JSON as DESIGN.md documents it, Markdown that stays well-formed,
token budgets that hold, and a Mermaid diagram with escaped labels."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import graphiq_ci
from graphiq_ci.context import Options
from graphiq_ci.render.safe import iter_fenced_lines
from graphiq_ci.render.tokens import count_tokens
from tests.context.conftest import run_cli

TASK = "refunds over the order total are rejected"
FENCE_TASK = "receipt_markdown writes code fences for support tickets"

SYMBOL_FIELDS = {"name": str, "qualified": str, "kind": str, "file": str, "line": int,
                 "end_line": int, "score": float, "reasons": list}


def _json(root: Path, task: str = TASK) -> dict[str, object]:
    proc = run_cli("context", task, "--repo", str(root), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_json_has_the_documented_shape(shop_root: Path) -> None:
    out = _json(shop_root)
    for key in ("query", "family", "entry_points", "files", "symbols", "edges", "snippets",
                "stats"):
        assert key in out
    assert out["query"] == TASK
    assert out["family"] == "NaturalDescriptive"
    files, symbols = out["files"], out["symbols"]
    assert isinstance(files, list) and isinstance(symbols, list) and files and symbols
    for f in files:
        assert isinstance(f["path"], str) and isinstance(f["score"], (int, float))
        assert isinstance(f["reasons"], list) and all(isinstance(r, str) for r in f["reasons"])
    scores = [f["score"] for f in files]
    assert scores == sorted(scores, reverse=True)
    assert files[0]["path"] in ("shop/payments.py", "shop/orders.py")
    for s in symbols:
        for field, typ in SYMBOL_FIELDS.items():
            assert isinstance(s[field], (int, float) if typ is float else typ), (field, s)
        assert 1 <= s["line"] <= s["end_line"]
    ids = {s["id"] for s in symbols}
    for e in out["edges"]:  # type: ignore[union-attr]
        assert set(e) == {"src", "dst", "kind"} and e["src"] in ids and e["dst"] in ids
    for sn in out["snippets"]:  # type: ignore[union-attr]
        assert {"file", "line", "end_line", "code"} <= set(sn)
    assert isinstance(out["stats"], dict) and out["stats"]["tokens"] > 0  # type: ignore[index]


def test_json_symbols_rank_entry_points_first_then_best_first(shop_root: Path) -> None:
    out = _json(shop_root)
    symbols = out["symbols"]
    entries = set(out["entry_points"])  # type: ignore[arg-type]
    flags = [s["id"] in entries for s in symbols]  # type: ignore[union-attr]
    assert flags == sorted(flags, reverse=True)  # all entry points, then the rest
    rest = [s["score"] for s in symbols if s["id"] not in entries]  # type: ignore[union-attr]
    assert rest == sorted(rest, reverse=True)


def test_markdown_fences_survive_code_full_of_backticks(shop_root: Path) -> None:
    ctx = graphiq_ci.build_context(shop_root, FENCE_TASK, Options(max_nodes=8))
    for fmt in ("markdown", "prompt"):
        rendered = graphiq_ci.render_text(ctx, fmt, max_tokens=4000)
        snippet = next(sn for sn in rendered.snippets if "receipt_markdown" in sn.code)
        assert "````" in snippet.code and "```" in snippet.code
        text = rendered.text
        assert snippet.code in text
        states = list(iter_fenced_lines(text))
        assert states and states[-1][1] == ""  # no fence left open at the end
        # the snippet sits inside one fence longer than its longest backtick run
        start = text.index(snippet.code)
        opener = text[:start].rstrip("\n").splitlines()[-1]
        assert re.fullmatch(r"`{5,}\w*", opener), opener
        fence = opener.rstrip("abcdefghijklmnopqrstuvwxyz")
        assert text[start + len(snippet.code):].lstrip("\n").startswith(fence)


@pytest.mark.parametrize("fmt", ["markdown", "prompt"])
@pytest.mark.parametrize("max_tokens", [100, 250, 600, 1500])
def test_max_tokens_is_never_exceeded(shop_root: Path, fmt: str, max_tokens: int) -> None:
    ctx = graphiq_ci.build_context(shop_root, TASK, Options(max_nodes=24))
    rendered = graphiq_ci.render_text(ctx, fmt, max_tokens=max_tokens)
    assert count_tokens(rendered.text) <= max_tokens
    assert rendered.tokens <= max_tokens
    if max_tokens >= 1500:
        assert rendered.snippets and all(sn.code in rendered.text for sn in rendered.snippets)


def test_max_tokens_through_the_cli(shop_root: Path) -> None:
    for n in (150, 700):
        proc = run_cli("context", TASK, "--repo", str(shop_root), "--max-tokens", str(n))
        assert proc.returncode == 0, proc.stderr
        assert count_tokens(proc.stdout.rstrip("\n")) <= n


def test_diagram_is_a_mermaid_block_with_safe_labels(shop_root: Path) -> None:
    proc = run_cli("context", TASK, "--repo", str(shop_root), "--diagram", "--max-tokens", "4000")
    assert proc.returncode == 0, proc.stderr
    block = re.search(r"```mermaid\n(.*?)\n```", proc.stdout, re.S)
    assert block, proc.stdout
    lines = block.group(1).splitlines()
    assert lines[0] == "flowchart LR"
    labels = [m.group(1) for line in lines[1:]
              for m in [re.fullmatch(r"\s+n\d+\[\[?\"([^\"]*)\"\]\]?", line)] if m]
    edges = [line for line in lines[1:] if "-->" in line]
    assert labels and edges
    for label in labels:
        assert re.fullmatch(r"[\w .:/()-]*", label), label
    for line in edges:
        assert re.fullmatch(r"\s+n\d+ -->\|\w+\| n\d+", line), line


def test_a_user_template_is_used(shop_root: Path, tmp_path: Path) -> None:
    template = tmp_path / "review.md.j2"
    template.write_text("REVIEW {{ family }}\n{% for f in files %}* {{ f.path }}\n{% endfor %}"
                        "{% for s in entries %}> {{ s.qualified }}\n{% endfor %}")
    proc = run_cli("context", TASK, "--repo", str(shop_root), "--template", str(template))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "REVIEW NaturalDescriptive"
    assert "* shop/payments.py" in lines
    assert any(line.startswith("> ") for line in lines)
    assert "## graphiq-ci context" not in proc.stdout  # not the built-in template


def test_a_broken_user_template_is_a_usage_error(shop_root: Path, tmp_path: Path) -> None:
    template = tmp_path / "broken.md.j2"
    template.write_text("{% for f in files %}")
    proc = run_cli("context", TASK, "--repo", str(shop_root), "--template", str(template))
    assert proc.returncode == 2
    assert proc.stdout == ""
    # README: exit 2 is "one line on stderr"; what follows the path is Jinja's wording, not ours
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"graphiq-ci: template {template}: "), lines[0]
