"""Token counting: characters / 4, held to the real cl100k_base tokenizer on real code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import bpe_openai

from graphiq_ci.render.tokens import CHARS_PER_TOKEN, count_tokens, counter_name

REPO = Path(__file__).resolve().parents[2]


def _cl100k(text: str) -> int:
    return len(bpe_openai.get_encoding("cl100k_base").encode(text, disallowed_special=()))


def test_the_count_is_characters_over_four_rounded_up() -> None:
    assert counter_name() == "characters/4" and CHARS_PER_TOKEN == 4
    assert count_tokens("") == 0
    assert count_tokens("abcd") == 1
    assert count_tokens("abcde") == 2


def test_the_ratio_is_within_ten_percent_of_cl100k_on_this_repository() -> None:
    """What the docstring and `stats` claim, measured with the real tokenizer, file by file
    (the tokenizer takes at most 200k tokens at once; the whole package is more)."""
    files = sorted((REPO / "graphiq_ci").rglob("*.py"))
    assert len(files) > 30
    texts = [p.read_text() for p in files]
    real, ours = sum(map(_cl100k, texts)), sum(map(count_tokens, texts))
    assert 0.9 <= ours / real <= 1.1, (ours, real)


def test_a_rendered_context_is_within_fifteen_percent_of_cl100k() -> None:
    """The text a budget buys: this repository's own context for a real question."""
    out = subprocess.run([sys.executable, "-m", "graphiq_ci", "context", "--repo", str(REPO),
                          "how are references resolved to edges", "--format", "prompt",
                          "--max-tokens", "2000"], capture_output=True, text=True, check=True)
    ours, real = count_tokens(out.stdout), _cl100k(out.stdout)
    assert ours <= 2000
    assert 0.85 <= ours / real <= 1.15, (ours, real)


def test_stats_says_which_counter_runs_and_how_far_to_trust_it(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def hello():\n    return 'world'\n")
    env = {k: v for k, v in os.environ.items() if k != "GRAPHIQ_DEBUG"}
    run = [sys.executable, "-m", "graphiq_ci"]
    subprocess.run([*run, "index", "--repo", str(tmp_path)], check=True, env=env,
                   capture_output=True)
    out = subprocess.run([*run, "stats", "--json", "--repo", str(tmp_path)], env=env,
                         capture_output=True, text=True, check=True)
    counter = json.loads(out.stdout)["token_counter"]
    assert counter["name"] == "characters/4"
    assert "cl100k_base" in counter["calibration"]
    text = subprocess.run([*run, "stats", "--repo", str(tmp_path)], env=env,
                          capture_output=True, text=True, check=True).stdout
    assert "token counter: characters / 4: within 10 %" in text
