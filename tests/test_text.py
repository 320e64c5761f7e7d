"""The shared vocabulary: the packer's cheap pre-check agrees with stemming on real words."""

from __future__ import annotations

from pathlib import Path

from graphiq_ci.text import stem, stem_probe, terms, tokens

ROOT = Path(__file__).resolve().parent.parent


def test_the_stem_probe_matches_every_word_of_this_repository_with_that_stem() -> None:
    """Each identifier part of graphiq-ci's own source, and the English stemmer's rewrites
    (`happy` -> `happi`, `dying` -> `die`), is found by the probe of its own stem: a line the
    probe passes over can never use one of the task's words."""
    words = {w for path in (ROOT / "graphiq_ci").rglob("*.py")
             for w in tokens(path.read_text(encoding="utf-8"))}
    words |= {"happy", "dying", "lying", "tying", "skies", "hoping", "operator", "early"}
    assert len(words) > 2000
    missed = [w for w in words if not stem_probe(frozenset({stem(w)})).search(w)]
    assert missed == []


def test_the_stem_probe_passes_over_lines_without_the_task_words() -> None:
    stems = frozenset(stem(t) for t in terms("refunds over the order total are rejected"))
    probe = stem_probe(stems)
    assert probe.search("def refund_payment(self, amount):".lower())
    assert probe.search("raise RejectedError(total)".lower())
    assert not probe.search("    return self.client.get(url, timeout=timeout)")
    assert not stem_probe(frozenset()).search("anything at all")
