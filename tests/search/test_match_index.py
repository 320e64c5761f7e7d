"""The indexed query paths return exactly what a scan over every name returns, in the same order.

`find_names` narrows by bisection, a regex over the joined names and rapidfuzz; the context
channels read name-term postings and sorted prefixes. Each is compared here with the
straightforward scan it replaced, on generated names (case variants, joiners, duplicates,
non-ASCII, regex metacharacters).
"""

from __future__ import annotations

import random
from array import array
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphiq_ci.context.candidates import Candidates, _boundary_and_compound, _class_prefix
from graphiq_ci.context.terms import TaskTerms
from graphiq_ci.search.graph import GraphIndex, name_terms_of
from graphiq_ci.search.graph_lookups import NameIndex
from graphiq_ci.search.graph_views import TermSets
from graphiq_ci.search.match import find_names, find_names_scan
from graphiq_ci.text import split_identifier, stem

WORDS = ["refund", "proc", "processor", "select", "sel", "parse", "zod", "string", "ab", "x",
         "rule", "stage", "i", "İ", "straße", "$", "a]b", "c^d", "e\\f", "[g", "1", "42"]
KINDS = ["function", "method", "class", "variable", "file", "interface"]


def _name(rnd: random.Random) -> str:
    words = [rnd.choice(WORDS) for _ in range(rnd.randint(1, 3))]
    style = rnd.randrange(5)
    if style == 0:
        out = "".join(w[:1].upper() + w[1:] for w in words)
    elif style == 1:
        out = words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])
    elif style == 2:
        out = rnd.choice(["_", "-", ".", "__"]).join(words)
    elif style == 3:
        out = "_".join(words).upper()
    else:
        out = "".join(words)
    return rnd.choice(["", "", "", "_", "$"]) + out


def _graph(names: list[str], seed: int = 0) -> GraphIndex:
    rnd = random.Random(seed)
    by_name: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        by_name.setdefault(name.lower(), []).append(i)
    scopes = ["Billing", "billing.Ledger", "Shop", ""]
    qualified = [".".join(p for p in (rnd.choice(scopes), n) if p) for n in names]
    name_terms = [name_terms_of(n) for n in names]
    vocab = sorted({t for s in name_terms for t in s})
    at = {t: k for k, t in enumerate(vocab)}
    off, flat = array("I", [0]), array("I")
    for s in name_terms:
        flat.extend(at[t] for t in s)
        off.append(len(flat))
    return GraphIndex(
        ids=list(range(len(names))), names=names, qualified=qualified,
        kinds=[rnd.choice(KINDS) for _ in names], file_of=[i % 3 for i in range(len(names))],
        name_terms=TermSets(vocab, off, flat), idf={t: 1.0 + len(t) / 10 for t in vocab},
        paths=["a.py", "b.py", "tests/test_c.py"], path_is_test=[False, False, True],
        by_name=by_name,
    )


def _names(seed: int, n: int) -> list[str]:
    rnd = random.Random(seed)
    names = [_name(rnd) for _ in range(n)]
    names += [rnd.choice(names).upper() for _ in range(n // 10)]  # same lower-case name again
    rnd.shuffle(names)
    return names


def _queries(names: list[str], seed: int) -> list[str]:
    rnd = random.Random(seed)
    out = ["", ".", "a", "ab", "_", "-", "sel", "sleect", "refundproc", "REFUNDPROC", "zodstrng",
           "Billing.refund", "billing::Ledger#parse", "a]b", "c^", "e\\f", "straße", "i̇", "x\0y"]
    for _ in range(150):
        n = rnd.choice(names)
        k = rnd.randrange(len(n) + 1)
        out += [n, n.lower(), n[:k], n[:k] + n[k + 1:], n[:k] + "q" + n[k:], n[::2],
                "".join(p[:2] for p in split_identifier(n))]
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_find_names_equals_the_scan(seed: int) -> None:
    names = _names(seed, 400)
    g = _graph(names, seed)
    for q in _queries(names, seed):
        assert list(find_names(g, q).items()) == list(find_names_scan(g, q).items()), repr(q)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="aAbB_-.$çİ]^", min_size=0, max_size=8), min_size=1,
                max_size=30), st.text(alphabet="aAbB_-.:#$çİ]^", max_size=8))
def test_find_names_equals_the_scan_on_any_names(names: list[str], q: str) -> None:
    g = _graph(names)
    assert list(find_names(g, q).items()) == list(find_names_scan(g, q).items())


def test_a_name_holding_a_nul_falls_back_to_the_scan() -> None:
    g = _graph(["ab\0cd", "abcd", "ab_cd", "abc"])
    assert g.name_index().blob is None
    for q in ["ab", "abcd", "abd", "ab\0cd"]:
        assert list(find_names(g, q).items()) == list(find_names_scan(g, q).items())


def test_name_index_lookups_equal_by_name() -> None:
    names = _names(3, 500)
    g = _graph(names)
    index = NameIndex(names)
    for lower, positions in g.by_name.items():
        assert index.positions(lower) == positions
    assert index.positions("no such name") == []
    assert index.distinct == sorted(g.by_name)
    for prefix in ["", "r", "re", "refund", "_", "$", "zz", "İ".lower()]:
        assert index.starting_with(prefix) == sorted(k for k in g.by_name if k.startswith(prefix))


def test_term_postings_equal_the_scan() -> None:
    names = _names(4, 500)
    g = _graph(names)
    nt = g.name_terms
    for term in {t for s in nt for t in s} | {"nosuchterm", ""}:
        want = [i for i in range(len(nt)) if term in nt[i]]
        assert g.with_name_term(term) == want, term
        assert g.with_name_term(term) == want  # cached
    plain = GraphIndex(names=names, name_terms=list(nt))  # a built graph: plain frozensets
    assert all(plain.with_name_term(t) == g.with_name_term(t) for t in ["refund", "zod", "x"])


def test_term_postings_skip_matches_straddling_two_ids() -> None:
    # ids 0x0100 and 0x0002 side by side hold the bytes of id 0x0201 at an odd offset
    vocab = [f"t{k}" for k in range(0x0300)]
    sets = TermSets(vocab, array("I", [0, 2, 3]), array("I", [0x0100, 0x0002, 0x0201]))
    assert sets.having("t513") == [1] and sets.having("t256") == [0] and sets.having("t2") == [0]


def _class_prefix_scan(g: GraphIndex, terms: TaskTerms, c: Candidates) -> None:
    for word in terms.words:
        if len(word) < 4:
            continue
        prefix = word[:1].upper() + word[1:]
        for lower, positions in g.by_name.items():
            if lower.startswith(word) and lower != word:
                for i in positions:
                    if g.names[i].startswith(prefix) and g.kinds[i] not in ("file", "variable"):
                        c.offer(i, 0.35 + 0.3 * len(word) / len(g.names[i]),
                                f"class prefix: {prefix}")


def _boundary_scan(g: GraphIndex, terms: TaskTerms, c: Candidates) -> None:
    wanted = {stem(w) for w in terms.words}
    wanted |= {stem(p) for s in terms.symbols for p in split_identifier(s)}
    wanted = {w for w in wanted if len(w) > 2}
    if not wanted:
        return
    scored: list[tuple[float, int, int]] = []
    for i, names in enumerate(g.name_terms):
        if g.kinds[i] == "file" or not names:
            continue
        shared = names & wanted
        if not shared:
            continue
        weight = sum(g.idf_of(t) for t in shared) / g.max_idf
        scored.append((weight * len(shared) / len(names), len(shared), i))
    scored.sort(reverse=True)
    for value, count, i in scored[:60]:
        if count >= 2:
            c.offer(i, min(0.9, 0.5 + 0.4 * value), f"compound name: {count} task terms")
        else:
            c.offer(i, min(0.5, 0.2 + 0.3 * value), "name word in the task")


@pytest.mark.parametrize("seed", [5, 6])
def test_context_channels_equal_the_scan(seed: int) -> None:
    names = _names(seed, 600)
    g = _graph(names, seed)
    rnd = random.Random(seed)
    for _ in range(40):
        words = tuple(rnd.choice(WORDS + ["refunds", "processing", "strings", "selector"])
                      for _ in range(rnd.randint(0, 5)))
        symbols = tuple(rnd.choice(names) for _ in range(rnd.randint(0, 2)))
        terms = TaskTerms(text=" ".join(words + symbols), symbols=symbols, paths=(), words=words)
        for fast, slow in ((_class_prefix, _class_prefix_scan),
                           (_boundary_and_compound, _boundary_scan)):
            a, b = Candidates(), Candidates()
            fast(g, terms, a)
            slow(g, terms, b)
            assert list(a.score.items()) == list(b.score.items()), (fast.__name__, terms)
            assert dict(a.reasons) == dict(b.reasons) and list(a.reasons) == list(b.reasons)


def test_path_words_are_derived_once() -> None:
    g = GraphIndex(paths=["src/rich_utils.py", "locales/index.ts", "locales/en.ts"])
    words, df = g.path_words()
    assert g.path_words()[0] is words
    assert words[0] == {stem(t) for t in ["src", "rich", "utils", "rich_utils", "py"]}
    assert df == defaultdict(int, {**{w: 1 for w in words[0]}, "local": 2, "index": 1, "ts": 2,
                                   "en": 1})
