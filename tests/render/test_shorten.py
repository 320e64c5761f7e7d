"""Fitting snippets into the budget: whole, else signature + head marked `shortened`, else out."""

from __future__ import annotations

import re

import pytest

from graphiq_ci.context.model import Context, ContextFile, ContextSymbol, Snippet
from graphiq_ci.render import render_text
from graphiq_ci.render.mermaid import diagram
from graphiq_ci.render.tokens import count_tokens

SIGNATURE = "def settle_everything(batch, ledger, bank, *, dry_run=False):"


def _long_context() -> Context:
    body = [SIGNATURE, '    """Settle every refund in the batch against the bank file."""']
    body += [f"    total_{i} = post_entry(batch[{i}].order_id, batch[{i}].amount * rate_{i})"
             for i in range(60)]
    code = "\n".join(body)
    sym = ContextSymbol(1, "settle_everything", "settle_everything", "function",
                        "shop/settlement.py", 10, 10 + len(body) - 1, 1.0, ["search"],
                        role="entry", signature=SIGNATURE)
    return Context(query="settle everything", family="NaturalDescriptive", entry_points=[1],
                   files=[ContextFile("shop/settlement.py", 1.0, ["file_bm25 +1.000"])],
                   symbols=[sym],
                   snippets=[Snippet(1, "shop/settlement.py", 10, sym.end_line, "python", code)])


@pytest.mark.parametrize("fmt", ["markdown", "prompt"])
def test_a_long_snippet_is_shortened_to_signature_and_head(fmt: str) -> None:
    ctx = _long_context()
    full = render_text(ctx, fmt, max_tokens=100_000)
    assert full.snippets_full == 1 and ctx.snippets[0].code in full.text
    budget = (count_tokens(full.text) + render_text(ctx, fmt, max_tokens=60).tokens) // 2
    short = render_text(ctx, fmt, max_tokens=budget)
    assert (short.snippets_full, short.snippets_shortened, short.snippets_dropped) == (0, 1, 0)
    assert short.tokens <= budget
    assert SIGNATURE in short.text
    assert "total_0 = " in short.text and "total_59 = " not in short.text
    assert "    ..." in short.text
    assert "shortened" in short.text


def test_a_snippet_that_cannot_fit_even_shortened_is_dropped() -> None:
    ctx = _long_context()
    skeleton = render_text(ctx, "markdown", max_tokens=100_000).text.split("### Code")[0]
    tight = render_text(ctx, "markdown", max_tokens=count_tokens(skeleton) + 5)
    assert tight.snippets_dropped == 1 and SIGNATURE not in tight.text


def test_the_header_token_count_matches_the_budgeted_output() -> None:
    ctx = _long_context()
    ctx.symbols += [ContextSymbol(i, f"helper_{i}", f"helper_{i}", "function",
                                  f"shop/h{i}.py", 1, 2, 0.1, ["graph neighbour"])
                    for i in range(2, 40)]
    out = render_text(ctx, "markdown", max_tokens=120)
    assert out.tokens <= 120
    claimed = re.search(r"~(\d+) tokens", out.text)
    assert claimed and int(claimed.group(1)) <= 120


def test_mermaid_labels_escape_hostile_names() -> None:
    ctx = _long_context()
    ctx.symbols[0].qualified = 'evil"]:::x\n<script>@octocat`|'
    ctx.symbols.append(ContextSymbol(2, "b", "b[0]{x}", "function", "a.py", 1, 1, 0.5, []))
    ctx.edges = [(1, 2, "calls")]
    text = diagram(ctx)
    lines = text.splitlines()
    assert lines[0] == "flowchart LR"
    assert len(lines) == 4  # two nodes and one edge: the newline did not split a label
    for line in lines[1:3]:
        label = re.fullmatch(r'\s+n\d+\[\[?"(.*)"\]\]?', line)
        assert label and re.fullmatch(r"[\w .:/()-]*", label.group(1)), line
    assert lines[3].strip() == "n0 -->|calls| n1"
