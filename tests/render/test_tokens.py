"""Token counting: the estimate is monotone and near len/4 on code; whichever counter runs."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from graphiq_ci.render.tokens import count_tokens, counter_name, estimate_tokens

SHOP = Path(__file__).resolve().parent.parent / "fixtures" / "shop"
CODE_FILES = sorted(p for p in SHOP.rglob("*") if p.suffix in (".py", ".ts") and p.stat().st_size)


def test_empty_text_is_free() -> None:
    assert estimate_tokens("") == 0 and count_tokens("") == 0


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=300), st.text(max_size=300))
def test_estimate_is_monotone_in_appended_text(a: str, b: str) -> None:
    """Appending never lowers the count (whitespace-separated, so no piece merges)."""
    assert estimate_tokens(a + " " + b) >= estimate_tokens(a)


def test_estimate_grows_with_length() -> None:
    code = (SHOP / "shop" / "payments.py").read_text()
    counts = [estimate_tokens(code[:n]) for n in range(0, len(code), 97)]
    assert counts == sorted(counts)
    assert estimate_tokens(code * 3) >= 3 * estimate_tokens(code) - 3


def test_within_a_factor_of_two_of_chars_over_four_on_code() -> None:
    assert CODE_FILES
    for path in CODE_FILES:
        code = path.read_text()
        if len(code) < 100:
            continue
        quarter = len(code) / 4
        for n in (estimate_tokens(code), count_tokens(code)):
            assert quarter / 2 <= n <= quarter * 2, (path.name, n, quarter)


def test_counter_names_itself() -> None:
    assert counter_name() in ("estimate", "tiktoken cl100k_base")
