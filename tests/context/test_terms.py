"""Term extraction from task and PR text: what code it names, with Markdown noise removed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.context.terms import clean_markdown, extract_terms
from graphiq_ci.search.query import parse_query
from graphiq_ci.text import common_words_as_code
from tests.conftest import git
from tests.context.conftest import run_cli


def test_code_spans_and_dotted_names() -> None:
    t = extract_terms("Fix `Session.request` timeout when `charge_card` retries")
    assert "Session.request" in t.symbols
    assert "request" in t.symbols  # the leaf of a scoped name
    assert "charge_card" in t.symbols
    assert "timeout" in t.words


def test_fenced_code_contributes_identifiers_not_its_language_tag() -> None:
    t = extract_terms("Repro:\n```python\nproc = RefundProcessor()\nproc.validate_refund(o)\n```\n"
                      "then the ledger breaks")
    assert {"RefundProcessor", "validate_refund", "proc.validate_refund"} <= set(t.symbols)
    assert "python" not in t.words
    assert "ledger" in t.words


def test_paths_are_paths_not_words() -> None:
    t = extract_terms("The total in shop/payments.py and web/checkout.ts, see ledger.py.")
    assert t.paths == ("shop/payments.py", "web/checkout.ts", "ledger.py")
    assert not {"payments", "checkout", "py", "ts"} & set(t.words)
    assert not any(s.endswith((".py", ".ts")) for s in t.symbols)


def test_case_styles_are_symbols_and_prose_capitals_are_not() -> None:
    t = extract_terms("Then RefundProcessor, cartTotal, post_entry and MAX_RETRIES break. "
                      "Version v1.2.3 was fine.")
    assert {"RefundProcessor", "cartTotal", "post_entry", "MAX_RETRIES"} <= set(t.symbols)
    assert "Then" not in t.symbols and "Version" not in t.symbols
    assert not any("1.2" in s for s in t.symbols + t.words)


def test_acronyms_and_scoped_separators() -> None:
    t = extract_terms("The HTTP API calls CheckoutController::submitOrder then "
                      "CheckoutController#cartTotal")
    assert {"HTTP", "API"} <= set(t.symbols)
    assert {"CheckoutController::submitOrder", "CheckoutController#cartTotal",
            "submitOrder", "cartTotal"} <= set(t.symbols)


def test_urls_mentions_and_html_comments_are_removed() -> None:
    text = ("See https://github.com/org/repo/pull/12 and www.example.com/RefundProcessor "
            "cc @alice-bob <!-- HiddenTemplateHint --> please review ledger_balance")
    t = extract_terms(text)
    assert t.symbols == ("ledger_balance",)
    assert not {"github", "pull", "alice", "bob", "example"} & set(t.words)
    cleaned = clean_markdown(text)
    assert "@alice" not in cleaned and "HiddenTemplateHint" not in cleaned
    assert "https" not in cleaned


def test_a_word_pointing_at_an_issue_number_is_not_a_term() -> None:
    """`ref #2804` names a thread; the same word elsewhere is the code's (`ref counting`)."""
    t = extract_terms("Fix crash on numeric comparison (ref #2804). Refs: #12, cf. #9, "
                      "Reverts #10; see #3 for the ref counting")
    assert t.words == ("crash", "numeric", "comparison", "ref", "counting")


def test_markdown_links_keep_their_text_images_and_checklists_go() -> None:
    t = extract_terms("- [x] update `charge_card`\n- [ ] read the [refund docs](https://x.y/z) "
                      "![diagram](LedgerDiagram.png) <b>urgent</b>")
    assert t.symbols == ("charge_card",)
    assert {"refund", "docs", "urgent"} <= set(t.words)
    assert "LedgerDiagram" not in t.text and "[x]" not in t.text


def test_punctuation_and_emoji_do_not_leak() -> None:
    t = extract_terms("Refunds 💳 fail!!! post_entry()?? — (ledger_balance), 🔥🔥 …done.")
    assert set(t.symbols) == {"post_entry", "ledger_balance"}
    assert all(w.isalnum() for w in t.words)
    assert "refunds" in t.words


def test_words_in_other_scripts_stay_whole() -> None:
    t = extract_terms("Zahlungsrückerstattung für größere Bestellungen")
    assert "zahlungsrückerstattung" in t.words
    assert not {"zahlungsr", "ckerstattung", "gr"} & set(t.words)


def test_stopwords_and_empty_text() -> None:
    assert extract_terms("").symbols == ()
    t = extract_terms("please fix the thing that should work")
    assert not {"please", "fix", "the", "should", "work"} & set(t.words)


def test_a_capitalised_word_in_backticks_is_a_name_not_prose() -> None:
    t = extract_terms("Document type parameter `T` on `Handler`")
    assert "Handler" in t.symbols  # the type the task is about
    assert "T" not in t.symbols  # a single letter says nothing
    # the same word in prose, or in a fenced log, is a sentence-start capital
    assert "Handler" not in extract_terms("Handler breaks on empty input").symbols
    assert "Traceback" not in extract_terms("It fails:\n```\nTraceback Error\n```").symbols


def test_a_glue_word_capitalised_inside_a_sentence_is_a_name() -> None:
    # jsoup's `CombiningEvaluator.And` and `.Or`: prose capitalises `and` only where a sentence
    # starts, so inside one the capital says the author means the class
    t = extract_terms("Make And and Or constructors public\n\nAllows composability")
    assert t.symbols == ("And", "Or")
    assert "and" not in t.words
    # at a sentence's start it is still prose, and lower-case it is still a glue word
    t = extract_terms("And now the parser. Or the lexer; or both")
    assert t.symbols == ()


def test_a_common_word_written_as_code_is_a_name() -> None:
    """`close`, `get`, `add` are stopwords as prose ("close the issue", "add support"); in
    backticks on their own, or called, the author names code."""
    t = extract_terms("why does `close()` leak the connection")
    assert t.symbols == ("close",)
    assert parse_query(t.text).terms == ("close", "leak", "connection")
    assert extract_terms("sum two values with add()").symbols == ("add",)
    assert extract_terms("the `.get` helper").symbols == ("get",)
    # a member of a qualified name is searched for too; its package or receiver is not
    assert parse_query("Fix `Session.close`").terms == ("session", "close")
    assert "org" not in parse_query("Migrate from `org.jspecify.nullness`").terms
    # prose stays prose, and a keyword inside a longer span is no name
    assert extract_terms("close the connection, then add a retry").symbols == ()
    assert "new" not in extract_terms("call `new Builder(this)` there").symbols
    assert extract_terms("fix(sse): add retry").symbols == ()
    # what a task is searched as when nothing matched: its common names as code
    assert common_words_as_code("the add function, fix(x): get()") == \
        "the `add` function, fix(x): get()"
    assert extract_terms(common_words_as_code("the add function")).symbols == ("add",)


def test_a_task_naming_a_common_word_as_code_finds_that_definition(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """The real CLI on a git repo: the task's other words point at the connection module, the
    name it writes as code at the pool's `close`, which must be found and shown."""
    repo = make_repo({
        "pool.py": "class Pool:\n    def close(self):\n        for c in self.idle:\n"
                   "            c.release()\n\n    def size(self):\n        return 3\n",
        "connection.py": "class Connection:\n    def leak_warning(self):\n"
                         "        '''Warn when a connection may leak.'''\n"
                         "        return 'connection leak'\n",
    })
    out = run_cli("context", "why does `close()` leak the connection", "--repo", str(repo),
                  "--format", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    named = {s["qualified"]: s["reasons"] for s in doc["symbols"]}
    assert "named in the task: close" in named["Pool.close"]
    assert "def close(self):" in run_cli("context", "why does `close()` leak the connection",
                                         "--repo", str(repo)).stdout
    # a task whose only name is a common word called: found, not "nothing relevant found"
    out = run_cli("context", "sum two values with add()", "--repo", str(repo), "--format",
                  "json")
    assert out.returncode == 1  # this repository has no `add`
    (repo / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    out = run_cli("context", "sum two values with add()", "--repo", str(repo), "--format",
                  "json")
    assert out.returncode == 0, out.stderr
    assert [s["name"] for s in json.loads(out.stdout)["symbols"]] == ["add"]
    # in prose the word is searched as a name only when the task's other words find nothing
    # (committed: an uncommitted file is found for being changed on the branch)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "calc")
    out = run_cli("context", "the add function", "--repo", str(repo))
    assert out.returncode == 0, out.stderr
    assert "def add(a, b):" in out.stdout
    assert "its common words were searched as names" in out.stderr
    out = run_cli("search", "the add function", "--repo", str(repo))
    assert (out.returncode, out.stdout) == (0, "calc.py:1  add  [function]\n"), out.stderr
    out = run_cli("context", "add a retry to the pool", "--repo", str(repo), "--format", "json")
    assert "add" not in {s["name"] for s in json.loads(out.stdout)["symbols"]}
