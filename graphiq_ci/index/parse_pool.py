"""Parse many files in worker processes, handing the records back in the order they were given.

Each worker compiles a language's query the first time it meets one of its files, and a
compile is costly: TypeScript's and TSX's queries take ~150 ms each, JavaScript's ~60 ms.
Chunks cut from the list in path order scatter a language with a few files (zod's 29 `.tsx`
files and 7 `.js` files among 450 `.ts`) over both workers, so both pay its compile. Here the
files of a parsed language that fits in one chunk form that chunk, and only one worker
compiles its query (text files have none to compile and stay in path order); the records
still come back in the order of the list, which is the order the writer stores
files in (and the order a merge of shards reproduces), so the index is the same.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from graphiq_ci.index.parse import FileRecord, parse_file
from graphiq_ci.lang.registry import detect_language, plugin_for

#: what a worker is given for one file: parse_file's arguments
ParseArgs = tuple[str, str, int, int, int, str]


def chunk_size(files: int, workers: int) -> int:
    """Files per chunk: small enough that the workers finish together, at most 32."""
    return max(1, min(32, files // (workers * 4)))


def language_chunks(paths: list[str], size: int) -> list[list[int]]:
    """Positions in `paths`, cut into chunks of at most `size`, in order; except that the
    files of a parsed language with at most `size` files are one chunk, placed where its
    first file is (early, so its records are not held back long). Files with no query to
    compile (text, an unknown extension) are chunked in order, as is a language too large for
    one chunk: its compile is paid by both workers anyway, and they share the bulk of the
    work."""
    languages = [_parsed_language(p) for p in paths]
    counts = Counter(languages)
    chunks: list[list[int]] = []
    own: dict[str, list[int]] = {}  # a small language → its chunk
    current: list[int] = []
    for i, language in enumerate(languages):
        if language is not None and counts[language] <= size:
            if language not in own:
                own[language] = []
                chunks.append(own[language])
            own[language].append(i)
            continue
        current.append(i)
        if len(current) == size:
            chunks.append(current)
            current = []
    if current:
        chunks.append(current)
    return chunks


def _parsed_language(path: str) -> str | None:
    """The language of `path` by its name, when it has a grammar (a query to compile)."""
    language = detect_language(path)
    return language if language is not None and plugin_for(language).grammar else None


def parse_in_pool(args: list[ParseArgs], workers: int) -> Iterator[FileRecord]:
    """parse_file over `args` in `workers` processes, the records in the order of `args`."""
    chunks = language_chunks([a[1] for a in args], chunk_size(len(args), workers))
    with ProcessPoolExecutor(max_workers=workers, initializer=gc.enable) as pool:
        jobs: list[tuple[list[int], Future[list[FileRecord]]]] = [
            (chunk, pool.submit(_parse_chunk, [args[i] for i in chunk])) for chunk in chunks]
        waiting: dict[int, FileRecord] = {}
        next_out = 0
        for chunk, job in jobs:
            waiting.update(zip(chunk, job.result(), strict=True))
            while next_out in waiting:
                yield waiting.pop(next_out)
                next_out += 1


def _parse_chunk(chunk: list[ParseArgs]) -> list[FileRecord]:
    return [parse_file(*a) for a in chunk]
