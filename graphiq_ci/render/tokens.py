"""Token counting: characters / 4, a ratio measured against OpenAI's cl100k_base BPE.

A real tokenizer was tried: bpe-openai runs cl100k offline, but loading its bindings costs
about 0.46 s in every process, more than a whole `context` query, and tiktoken downloads its
BPE file on first use, which fails offline and in sandboxed CI. So every budget and every
format counts characters / 4, rounded up. tests/render/test_tokens.py measures it against the
real cl100k (bpe-openai, installed with the test extra) on this repository's own source:
within 10 % (about 2 % today). Code with short tokens (TypeScript, heavy punctuation) runs up
to about 15 % more real tokens than this count; long identifiers and indentation (Rust,
Python) fewer.
"""

from __future__ import annotations

#: characters per token; a power of two, so a line's cost is exact in floating point and the
#: packer's sums and prefix sums (render/pack.py) do not depend on the order they are added in
CHARS_PER_TOKEN = 4


def count_tokens(text: str) -> int:
    """characters / 4, rounded up: the count every budget and every format uses."""
    return -(-len(text) // CHARS_PER_TOKEN)


def line_tokens(line: str) -> float:
    """What one line (and its newline) adds to a longer text's count: no rounding per line,
    so the sum over a block's lines is its count, not an overestimate by half a line each."""
    return (len(line) + 1) / CHARS_PER_TOKEN


def lines_tokens(lines: list[str]) -> list[float]:
    """line_tokens() of each line, in one pass (the packer prices every line of a file)."""
    return [(len(line) + 1) / CHARS_PER_TOKEN for line in lines]


def counter_name() -> str:
    return f"characters/{CHARS_PER_TOKEN}"


def calibration() -> str:
    """How far to trust the count, in one sentence (`graphiq-ci stats` prints it)."""
    return ("characters / 4: within 10 % of OpenAI's cl100k_base on this project's own source "
            "(checked by its tests); TypeScript-like code runs up to ~15 % more real tokens")
