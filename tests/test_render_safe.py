from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphiq_ci.render.safe import (
    ZERO_WIDTH_JOINER,
    code_block,
    escape_md_inline,
    fence_for,
    iter_fenced_lines,
    neutralise_mentions,
)


def test_mentions_no_longer_ping_but_emails_stay():
    text = neutralise_mentions("cc @octocat and @octo-org/reviewers, mail me@example.com")

    assert "@octocat" not in text
    assert "@octo-org/reviewers" not in text
    assert f"@{ZERO_WIDTH_JOINER}octocat" in text
    assert "me@example.com" in text


def test_fence_is_longer_than_any_backtick_run():
    assert fence_for("plain") == "```"
    assert fence_for("a ``` b ````` c") == "``````"


@given(st.text(alphabet=st.sampled_from("`~ a\n"), max_size=60))
def test_code_block_cannot_be_closed_from_inside(text):
    block = code_block(text, "py")
    fences = [fence for _, fence in iter_fenced_lines(block)]

    # Open from the first line until the very last one closes it.
    assert all(fences[:-1]) and fences[-1] == ""


def test_code_block_language_is_sanitised():
    assert code_block("x", "py\n<script>").splitlines()[0] == "```pyscript"


def test_escape_md_inline_for_file_names():
    name = escape_md_inline("docs/[x](javascript:1)_*@team*<b>\nnext.md")

    assert "\n" not in name
    assert "\\[x\\]\\(javascript:1\\)" in name
    assert "\\<b\\>" in name
    assert "\\_\\*" in name
    assert f"@{ZERO_WIDTH_JOINER}team" in name
