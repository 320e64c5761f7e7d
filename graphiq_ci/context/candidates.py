"""Candidate symbols from every channel (CodeGraph), merged keeping each symbol's best score.

Channels: the search pipeline's ranking; exact names with a co-location boost; class-prefix
and stem variants with a brevity bonus; CamelCase-boundary matches; compound-term matches.
"""

from __future__ import annotations

from collections import defaultdict

from graphiq_ci.context.terms import TaskTerms
from graphiq_ci.search import GraphIndex, SearchResult
from graphiq_ci.text import split_identifier, stem

TEST_FACTOR = 0.3
#: what a declaration keeps of its score once its definition holds it (see _definitions)
DECLARATION_FACTOR = 0.5
MAX_BOUNDARY = 60
#: a definition named as the task names a member of another type (see `_exact_names`)
OTHER_OWNER = 0.5


class Candidates:
    """The symbols each channel (search hits, named symbols, mentions) put forward, with
    their best score and every reason given for them."""

    def __init__(self) -> None:
        self.score: dict[int, float] = {}  # graph position → best score
        self.reasons: dict[int, list[str]] = defaultdict(list)
        self.exact: set[int] = set()  # named exactly by the task

    def offer(self, i: int, score: float, reason: str) -> None:
        if score > self.score.get(i, 0.0):
            self.score[i] = score
        self.reasons[i].append(reason)


def collect(g: GraphIndex, terms: TaskTerms, ranked: SearchResult, about_tests: bool) -> Candidates:
    c = Candidates()
    top = max((h.score for h in ranked.hits), default=1.0) or 1.0
    for h in ranked.hits:
        i = g.pos_of_id.get(h.id)
        if i is not None:
            c.offer(i, min(h.score, top) / top, "search")
    _exact_names(g, terms, c)
    _class_prefix(g, terms, c)
    _boundary_and_compound(g, terms, c)
    _definitions(g, c)
    if not about_tests:
        for i in c.score:
            if g.is_test(i):
                c.score[i] *= TEST_FACTOR
    return c


def _exact_names(g: GraphIndex, terms: TaskTerms, c: Candidates) -> None:
    """Names the task spells out; several of them in one file make that file's symbols stronger.

    A name the task also writes after a type (`Types.asMemberOf`, `Serve::tcp_nodelay`) is
    that type's member: a same-named definition in another type (`MoreTypes.asMemberOf`) is
    only offered (OTHER_OWNER), not named. When no definition's owner is that type, the task
    names code outside the repository, and none of the same-named definitions is it either."""
    owners = _owners(terms)
    hits: dict[int, str] = {}
    for name in terms.symbols:
        leaf = _leaf(name)
        for i in g.name_index().positions(leaf.lower()):
            if g.kinds[i] != "file" and (g.names[i] == leaf or leaf.islower()):
                if leaf in owners and _owner(g.qualified[i]) not in owners[leaf]:
                    c.offer(i, OTHER_OWNER, f"same name as {leaf} of {min(owners[leaf])}")
                    continue
                hits[i] = leaf
    per_file: dict[int, set[str]] = defaultdict(set)
    for i, leaf in hits.items():
        per_file[g.file_of[i]].add(leaf)
    for i, leaf in hits.items():
        together = len(per_file[g.file_of[i]])
        c.offer(i, 1.0 + 0.25 * (together - 1), f"named in the task: {leaf}")
        c.exact.add(i)


def _parts(name: str) -> list[str]:
    """`Foo::bar`, `Foo#bar`, `Foo.bar` → ["Foo", "bar"]."""
    return name.replace("::", ".").replace("#", ".").split(".")


def _leaf(name: str) -> str:
    return _parts(name)[-1]


def _owner(qualified: str) -> str:
    """`Outer.Inner.method` → `Inner`; '' at the top level."""
    parts = qualified.split(".")
    return parts[-2] if len(parts) > 1 else ""


def _owners(terms: TaskTerms) -> dict[str, set[str]]:
    """leaf → the type names the task writes it after (`Types.asMemberOf` → Types). Only a
    capitalised qualifier is a type: `serde_json::RawValue` or `core::net` name a module,
    which the index does not record as an owner."""
    owners: dict[str, set[str]] = defaultdict(set)
    for name in terms.symbols:
        parts = _parts(name)
        if len(parts) > 1 and parts[-2][:1].isupper():
            owners[parts[-1]].add(parts[-2])
    return owners


def _class_prefix(g: GraphIndex, terms: TaskTerms, c: Candidates) -> None:
    """`Rest` → `RestController`: title-cased words as type-name prefixes, shorter names first."""
    for word in terms.words:
        if len(word) < 4:
            continue
        prefix = word[:1].upper() + word[1:]
        index = g.name_index()
        longer = [index.positions(lower) for lower in index.starting_with(word) if lower != word]
        for positions in sorted(longer):  # in order of first occurrence, as `by_name` iterates
            for i in positions:
                if g.names[i].startswith(prefix) and g.kinds[i] not in ("file", "variable"):
                    c.offer(i, 0.35 + 0.3 * len(word) / len(g.names[i]),
                            f"class prefix: {prefix}")


def _boundary_and_compound(g: GraphIndex, terms: TaskTerms, c: Candidates) -> None:
    """Names whose words include task terms: one term (boundary), two or more (compound)."""
    wanted = {stem(w) for w in terms.words}
    wanted |= {stem(p) for s in terms.symbols for p in split_identifier(s)}
    wanted = {w for w in wanted if len(w) > 2}
    if not wanted:
        return
    scored: list[tuple[float, int, int]] = []
    having = set().union(*map(g.with_name_term, wanted))  # the rest share no task term
    for i in sorted(having):
        names = g.name_terms[i]
        if g.kinds[i] == "file" or not names:
            continue
        shared = names & wanted
        if not shared:
            continue
        weight = sum(g.idf_of(t) for t in shared) / g.max_idf
        scored.append((weight * len(shared) / len(names), len(shared), i))
    scored.sort(reverse=True)
    for value, count, i in scored[:MAX_BOUNDARY]:
        if count >= 2:
            c.offer(i, min(0.9, 0.5 + 0.4 * value), f"compound name: {count} task terms")
        else:
            c.offer(i, min(0.5, 0.2 + 0.3 * value), "name word in the task")


def _definitions(g: GraphIndex, c: Candidates) -> None:
    """A declaration found is its definition found (index/pairs.py): the body in parse.c is
    what a task naming `parse` changes, the prototype in parse.h only points at it."""
    for i in list(c.score):
        j = g.definition_of(i)
        if j is None:
            continue
        c.offer(j, c.score[i], f"declared in {g.path(i)}")
        if i in c.exact:  # the name is the definition's; the header only repeats it
            c.exact.discard(i)
            c.exact.add(j)
        c.score[i] *= DECLARATION_FACTOR
