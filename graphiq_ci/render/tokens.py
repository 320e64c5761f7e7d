"""Token counting: OpenAI's cl100k_base BPE, offline, with a measured ratio as the fallback.

`bpe-openai` (a dependency) bundles the cl100k_base ranks inside its wheel, so a real tokenizer
runs with no network; tiktoken would download its BPE file on first use, which fails offline
and in sandboxed CI. If the tokenizer cannot load, the count is characters / 4, which
tests/render/test_tokens.py holds to within 10 % of cl100k on this repository's own source
(about 2 % today). Every format and every budget uses the one counter chosen here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

#: characters per token when no tokenizer loads (what bench_tokens.py measures against)
CHARS_PER_TOKEN = 4


def ratio_tokens(text: str) -> int:
    """The fallback count: characters / 4, rounded up."""
    return -(-len(text) // CHARS_PER_TOKEN)


@lru_cache(maxsize=1)
def _counter() -> tuple[str, Callable[[str], int]]:
    try:
        import bpe_openai

        enc = bpe_openai.get_encoding("cl100k_base")
        enc.encode("warm up")
        return "cl100k_base", lambda text: len(enc.encode(text, disallowed_special=()))
    except Exception:  # the wheel is missing or broken on this platform: the documented ratio
        return f"characters/{CHARS_PER_TOKEN}", ratio_tokens


def count_tokens(text: str) -> int:
    return _counter()[1](text) if text else 0


def counter_name() -> str:
    return _counter()[0]


def calibration() -> str:
    """How far to trust the count, in one sentence (`graphiq-ci stats` prints it)."""
    if counter_name() == "cl100k_base":
        return ("cl100k_base BPE, run offline (bpe-openai): exact for cl100k models; other "
                "models' tokenizers differ by a few per cent on code")
    return ("characters / 4 (bpe-openai did not load): within 10 % of cl100k_base on this "
            "project's source, checked by its tests")
