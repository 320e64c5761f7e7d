"""Fuzz benchmark: the indexer's parser and `context` on inputs nobody would write by hand.

    python benchmarks/bench_fuzz.py [--inputs 10000] [--tasks 300] [--seed 1]

Files: every source file of one real repository per language (this repository for Python;
the benchmark checkouts, then any other mirror in $BENCH_MIRRORS, for the others), each parsed
as it is; a language none of them has is seeded from its extractor test's sources
(tests/lang/test_<language>.py). Then mutated copies until --inputs is reached: truncated at
a random byte, random bytes flipped, 5,000-deep nesting spliced in, a 300 KB line, NUL
bytes, invalid UTF-8, two files spliced together. Each goes through `parse_file`, the
indexer's per-file step, in this process. Tasks: generated task texts (Markdown, HTML, FTS5
syntax, unicode, 100 KB bodies) through `build_context` and the prompt renderer on this
repository's index, which must hold its budget.

Prints the crashes (any exception; must be 0), the slowest input of each kind, and the
process's peak RSS. Not run in CI: it takes a few minutes.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402
from bench_quality import git_describe  # noqa: E402

from graphiq_ci.index.parse import parse_file  # noqa: E402
from graphiq_ci.lang.registry import LANGUAGES, detect_language  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 400_000
MIN_FILES = 20
MUTATIONS = ("truncate", "flip", "nest", "long-line", "nul", "bad-utf8", "splice")
TASK_PIECES = (
    "# Heading\n\n```python\nunclosed fence", "<script>alert(1)</script><img src=x onerror=y>",
    'NEAR(a b) OR "phrase*" AND NOT x^2 {col}:y', "\u202e\u200b\ufeff emoji \U0001F600 ",
    "@maintainer @org/team </details>", "[link](javascript:alert(1))", "SELECT * FROM x; --",
    "index incremental parse", "résumé naïve 日本語 中文", "\x00\x01\x02", "*" * 50, "`" * 30,
)


def real_files(work: Path) -> dict[str, list[Path]]:
    """Source files per language, each language from one real repository: this repository's
    Python, then the benchmark checkouts, then any other mirror in $BENCH_MIRRORS (its HEAD,
    extracted under `work`); the first with at least MIN_FILES files of the language wins."""
    out: dict[str, list[Path]] = {"python": sorted(ROOT.glob("graphiq_ci/**/*.py"))}
    wanted = {spec.name for spec in LANGUAGES} - {"python"}
    trees: dict[str, Path] = {}
    if (C.WORK / "checkouts").is_dir():
        for co in sorted((C.WORK / "checkouts").glob("*@*")):
            if co.is_dir():
                trees.setdefault(co.name.split("@", 1)[0], co)
    for tree in trees.values():
        _take(out, tree, wanted)
    for mirror in sorted(C.MIRRORS.glob("*/repo")) if C.MIRRORS.is_dir() else []:
        if mirror.parent.name in trees or not wanted - set(out):
            continue
        paths = subprocess.run(["git", f"--git-dir={mirror}", "ls-tree", "-r", "--name-only",
                                "HEAD"], capture_output=True, text=True).stdout.split("\n")
        missing = wanted - set(out)
        mine = [p for p in paths if p and detect_language(p) in missing]
        langs = Counter(detect_language(p) for p in mine)
        if any(n >= MIN_FILES for n in langs.values()):
            dest = work / "repos" / mirror.parent.name
            _extract(mirror, mine, dest)
            _take(out, dest, wanted)
    return out


def _extract(mirror: Path, paths: list[str], dest: Path) -> None:
    """Those files of the mirror's HEAD, written under `dest` (a snapshot may lack a blob)."""
    batch = subprocess.run(["git", f"--git-dir={mirror}", "cat-file", "--batch"],
                           input="".join(f"HEAD:{p}\n" for p in paths).encode(),
                           capture_output=True, check=True).stdout
    at = 0
    for path in paths:
        end = batch.index(b"\n", at)
        header = batch[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # "missing": not in this snapshot
        size = int(header[2])
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(batch[at:at + size])
        at += size + 1


def _take(out: dict[str, list[Path]], tree: Path, wanted: set[str]) -> None:
    by_lang: dict[str, list[Path]] = {}
    for p in tree.rglob("*"):
        if ".git" in p.parts or ".graphiq" in p.parts or not p.is_file():
            continue
        lang = detect_language(str(p))
        if lang in wanted and lang not in out:
            by_lang.setdefault(lang, []).append(p)
    for lang, files in by_lang.items():
        if len(files) >= MIN_FILES:
            out[lang] = sorted(files)


def fixture_seeds(missing: set[str], work: Path) -> dict[str, list[Path]]:
    """For a language no checkout has, the source strings of its extractor test
    (tests/lang/test_<language>.py), written out as seed files to mutate."""
    import ast

    ext = {spec.name: spec.extensions[0] for spec in LANGUAGES}
    out: dict[str, list[Path]] = {}
    for lang in sorted(missing):
        test = ROOT / "tests" / "lang" / f"test_{lang}.py"
        if not test.is_file():
            continue
        sources = [n.value for n in ast.walk(ast.parse(test.read_text()))
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and len(n.value) > 200]
        for k, text in enumerate(sources):
            seed = work / "seeds" / f"{lang}_{k}{ext[lang]}"
            seed.parent.mkdir(parents=True, exist_ok=True)
            seed.write_text(text)
            out.setdefault(lang, []).append(seed)
    return out


def mutate(data: bytes, other: bytes, kind: str, rng: random.Random) -> bytes:
    if not data:
        return b"\xff" * 10
    cut = rng.randrange(len(data))
    if kind == "truncate":
        return data[:cut]
    if kind == "flip":
        buf = bytearray(data)
        for _ in range(max(1, len(buf) // 200)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        return bytes(buf)
    if kind == "nest":
        opener, closer = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]"), (b"if x:\n ", b"")])
        return data[:cut] + opener * 5000 + closer * rng.choice([0, 5000]) + data[cut:]
    if kind == "long-line":
        return data[:cut] + b"x = " + b"a+" * 150_000 + b"\n" + data[cut:]
    if kind == "nul":
        return data[:cut] + b"\0" * rng.randrange(1, 64) + data[cut:]
    if kind == "bad-utf8":
        return data[:cut] + bytes(rng.randrange(0x80, 0x100) for _ in range(32)) + data[cut:]
    return data[:cut] + other[rng.randrange(len(other) or 1):]


class Tally:
    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self.crashes: list[str] = []
        self.slowest: dict[str, tuple[float, str]] = {}

    def run(self, kind: str, label: str, fn: object) -> None:
        t0 = time.perf_counter()
        try:
            fn()  # type: ignore[operator]
        except Exception:  # the point: any exception is a crash to report
            self.crashes.append(f"{kind} {label}: {traceback.format_exc(limit=3).strip()}")
        took = time.perf_counter() - t0
        self.count[kind] += 1
        if took > self.slowest.get(kind, (0.0, ""))[0]:
            self.slowest[kind] = (took, label)


def fuzz_files(tally: Tally, budget: int, rng: random.Random, work: Path) -> dict[str, str]:
    work.mkdir(parents=True, exist_ok=True)
    per_language = real_files(work)
    seeds = fixture_seeds({spec.name for spec in LANGUAGES} - set(per_language), work)
    target = work / "input"

    def parse(path: Path, data: bytes) -> None:
        dest = target.with_suffix(path.suffix)
        dest.write_bytes(data)
        st = dest.stat()
        parse_file(str(work), dest.name, st.st_mtime_ns, st.st_size)

    for lang, files in per_language.items():  # every file of a real repository, as it is
        for p in files:
            data = p.read_bytes()[:MAX_BYTES]
            tally.run(f"file {lang}", str(p), lambda p=p, data=data: parse(p, data))
    done = sum(tally.count.values())
    real = {lang: len(files) for lang, files in per_language.items()}
    pool = {**per_language, **seeds}
    everything = [p for files in pool.values() for p in files]
    while done < budget and pool:
        lang = rng.choice(sorted(pool))  # each language as often, however many files it has
        p, q = rng.choice(pool[lang]), rng.choice(everything)
        kind = rng.choice(MUTATIONS)
        data = mutate(p.read_bytes()[:MAX_BYTES], q.read_bytes()[:MAX_BYTES], kind, rng)
        tally.run(f"mutated {lang}", f"{kind} of {p}", lambda p=p, data=data: parse(p, data))
        done += 1
    return {**{lang: f"{n} real" for lang, n in real.items()},
            **{lang: f"{len(files)} test sources" for lang, files in seeds.items()}}


def task_text(rng: random.Random) -> str:
    pieces = [rng.choice(TASK_PIECES) for _ in range(rng.randrange(1, 12))]
    if rng.random() < 0.1:
        pieces.append("word " * 20_000)  # a 100 KB body
    if rng.random() < 0.2:
        pieces.append("".join(chr(rng.randrange(32, 0x3000)) for _ in range(300)))
    return "\n".join(pieces)


def fuzz_tasks(tally: Tally, n: int, rng: random.Random) -> None:
    from graphiq_ci.context import Options, build_context
    from graphiq_ci.context.workspace import Workspace
    from graphiq_ci.errors import GraphiqError
    from graphiq_ci.render.output import render_text

    with Workspace(ROOT) as ws:
        ws.refresh()

        def one(text: str) -> None:
            try:
                ctx = build_context(ROOT, text, Options(refresh=False), workspace=ws)
            except GraphiqError:
                return  # e.g. an empty task: a clear refusal is the right answer
            budget = rng.choice([200, 2000, 8000])
            out = render_text(ctx, "prompt", max_tokens=budget)
            if out.tokens > budget:
                raise AssertionError(f"{out.tokens} tokens over a budget of {budget}")

        for i in range(n):
            text = task_text(rng)
            tally.run("task", f"task {i} ({len(text)} chars)", lambda text=text: one(text))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=10_000, help="files parsed, as-is + mutated")
    ap.add_argument("--tasks", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="graphiq-fuzz-") as tmp:
        languages = fuzz_files(tally, args.inputs, rng, Path(tmp))
    fuzz_tasks(tally, args.tasks, rng)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Fuzz: graphiq-ci {git_describe()}; seed {args.seed}; {C.hardware_note()}; "
          f"{time.perf_counter() - t0:.0f} s.\n")
    counts = ", ".join(f"{k} {v}" for k, v in sorted(languages.items()))
    print(f"Files per language, before mutation: {counts}\n")
    print("| inputs | count | slowest (s) | slowest input |\n|---|---|---|---|")
    for kind in sorted(tally.count):
        took, label = tally.slowest.get(kind, (0.0, ""))
        print(f"| {kind} | {tally.count[kind]} | {took:.2f} | {label[-70:]} |")
    print(f"\n**{sum(tally.count.values())} inputs, {len(tally.crashes)} crashes**, "
          f"peak RSS {peak_mib:.0f} MiB.")
    for crash in tally.crashes[:20]:
        print(f"\n```\n{crash}\n```")
    return 1 if tally.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
