"""Token counting: the real cl100k_base BPE offline, and the documented fallback ratio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from graphiq_ci.render.tokens import CHARS_PER_TOKEN, count_tokens, counter_name, ratio_tokens

REPO = Path(__file__).resolve().parents[2]


def test_the_counter_is_the_real_tokenizer_offline() -> None:
    """bpe-openai is a dependency, so the count is cl100k_base, not an estimate."""
    assert counter_name() == "cl100k_base"
    assert count_tokens("hello world") == 2  # cl100k: "hello", " world"
    assert count_tokens("") == 0
    # special-token text in a task or a file is counted as text, never refused
    assert count_tokens("<|endoftext|>") > 1


def test_the_fallback_ratio_rounds_up() -> None:
    assert ratio_tokens("") == 0
    assert ratio_tokens("abcd") == 1
    assert ratio_tokens("abcde") == 2


def test_the_fallback_ratio_is_within_ten_percent_of_cl100k_on_this_repository() -> None:
    """What the docstring claims: characters / 4 stays near the real count on source code."""
    files = sorted((REPO / "graphiq_ci").rglob("*.py"))
    assert len(files) > 30
    text = "\n".join(p.read_text() for p in files)
    real, ratio = count_tokens(text), len(text) / CHARS_PER_TOKEN
    assert 0.9 <= ratio / real <= 1.1, (ratio, real)


def test_stats_says_which_counter_runs_and_how_far_to_trust_it(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def hello():\n    return 'world'\n")
    env = {k: v for k, v in os.environ.items() if k != "GRAPHIQ_DEBUG"}
    run = [sys.executable, "-m", "graphiq_ci"]
    subprocess.run([*run, "index", "--repo", str(tmp_path)], check=True, env=env,
                   capture_output=True)
    out = subprocess.run([*run, "stats", "--json", "--repo", str(tmp_path)], env=env,
                         capture_output=True, text=True, check=True)
    counter = json.loads(out.stdout)["token_counter"]
    assert counter["name"] == "cl100k_base"
    assert "offline" in counter["calibration"] and "cl100k" in counter["calibration"]
    text = subprocess.run([*run, "stats", "--repo", str(tmp_path)], env=env,
                          capture_output=True, text=True, check=True).stdout
    assert "token counter: cl100k_base BPE" in text
