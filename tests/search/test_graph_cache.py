"""The binary graph cache: a loaded graph reads exactly like a built one; damage is rebuilt."""

from __future__ import annotations

import mmap
import os
import shutil
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from graphiq_ci.index import run_index
from graphiq_ci.search import graph_cache
from graphiq_ci.search.graph import GraphIndex, build
from graphiq_ci.search.graph_cache import (
    _LAYOUT,
    _MAGIC,
    CACHE_NAME,
    _Corrupt,
    _dump,
    _load,
    _Stale,
    load_graph,
)
from graphiq_ci.search.graph_lookups import NameIndex
from graphiq_ci.search.graph_views import Adjacency, Strings, TermSets, plain
from graphiq_ci.store import Store, index_dir, open_store

SHOP = Path(__file__).resolve().parent.parent / "fixtures" / "shop"


@pytest.fixture(scope="module")
def shop_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Store]]:
    root = tmp_path_factory.mktemp("graph_cache") / "shop"
    shutil.copytree(SHOP, root)
    run_index(root)
    store = open_store(root)
    yield root, store
    store.close()


def _observable(g: GraphIndex) -> dict[str, object]:
    n = len(g.ids)
    return {
        "generation": g.generation,
        "ids": list(g.ids), "names": list(g.names), "qualified": list(g.qualified),
        "kinds": list(g.kinds), "file_of": list(g.file_of), "lines": list(g.lines),
        "end_lines": list(g.end_lines), "visibility": list(g.visibility),
        "parent": list(g.parent), "degree": list(g.degree),
        "terms": [g.terms[i] for i in range(n)],
        "name_terms": [g.name_terms[i] for i in range(n)],
        "neighbor_terms": [g.neighbor_terms[i] for i in range(n)],
        "out": [g.out[i] for i in range(n)], "inc": [g.inc[i] for i in range(n)],
        "idf": dict(g.idf), "median_idf": g.median_idf,
        "paths": list(g.paths), "path_is_test": list(g.path_is_test),
        "file_symbol": list(g.file_symbol),
        "by_name": dict(g.by_name), "pos_of_id": dict(g.pos_of_id),
        "path_words": g.path_words()[0], "path_df": dict(g.path_words()[1]),
        "name_index": [list(plain(part)) for part in (g.name_index().distinct,
                                                       g.name_index().at, g.name_index().order)],
    }


def test_a_cached_graph_reads_exactly_like_a_built_one(shop_store: tuple[Path, Store]) -> None:
    root, store = shop_store
    built = build(store)
    assert len(built.ids) > 20 and any(built.out) and any(built.neighbor_terms)
    (index_dir(root) / CACHE_NAME).unlink(missing_ok=True)
    first = load_graph(store, root)  # builds and writes the cache
    loaded = load_graph(store, root)
    assert isinstance(loaded.terms, TermSets) and isinstance(loaded.out, Adjacency)
    want = _observable(built)
    assert _observable(first) == want
    got = _observable(loaded)
    for key, value in want.items():
        assert got[key] == value, key
    # every term any symbol carries, plus one nobody does, weighs the same
    every = set().union(*built.terms, *built.name_terms, {"no-such-term-anywhere"})
    assert {t: loaded.idf_of(t) for t in every} == {t: built.idf_of(t) for t in every}
    assert loaded.max_idf == built.max_idf
    for i in range(len(built.ids)):
        assert loaded.path(i) == built.path(i) and loaded.is_test(i) == built.is_test(i)
    # iteration, negative indices and slices behave as on lists
    assert list(loaded.name_terms) == list(built.name_terms)
    assert list(loaded.out) == list(built.out)
    assert loaded.terms[-1] == built.terms[-1] and loaded.inc[-1] == built.inc[-1]
    assert loaded.out[1:4] == built.out[1:4] and loaded.terms[:3] == built.terms[:3]
    assert loaded.by_name.get("no such name", []) == [] and -5 not in loaded.pos_of_id
    with pytest.raises(IndexError):
        loaded.terms[len(built.ids)]
    with pytest.raises(IndexError):
        loaded.out[len(built.ids)]


def test_a_loaded_graph_dumps_back_to_the_same_graph(shop_store: tuple[Path, Store]) -> None:
    _, store = shop_store
    built = build(store)
    once = _load(_dump(built), built.generation)
    assert once is not None
    twice = _load(_dump(once), built.generation)
    assert twice is not None and _observable(twice) == _observable(built)


def test_large_string_sections_read_lazily_and_alike(
        shop_store: tuple[Path, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """Sections of 1 MiB and more stay one blob, each string decoded when read; here every
    section does, so the shop index exercises what a large repository's graph does."""
    _, store = shop_store
    monkeypatch.setattr(graph_cache, "_SPLIT_BELOW", 0)
    built = build(store)
    loaded = _load(_dump(built), built.generation)
    assert loaded is not None and isinstance(loaded.names, Strings)
    assert _observable(loaded) == _observable(built)
    want, got = NameIndex(built.names), loaded.name_index()
    assert isinstance(got.distinct, Strings) and list(got.distinct) == want.distinct
    assert got.blob == want.blob and got.listed() == want.distinct
    for lower in [*want.distinct, "", "no such name", "zzzz"]:
        assert got.positions(lower) == want.positions(lower), lower
        for prefix in (lower[:1], lower[:3]):
            assert got.starting_with(prefix) == want.starting_with(prefix), prefix
    again = _load(_dump(loaded), built.generation)
    assert again is not None and _observable(again) == _observable(built)


def test_a_mapped_cache_reads_like_a_read_one(
        shop_store: tuple[Path, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """A large cache file is memory-mapped (`_MAP_FROM`); here every file is, with lazy
    strings too, and term postings are searched in the mapping itself."""
    root, store = shop_store
    monkeypatch.setattr(graph_cache, "_MAP_FROM", 0)
    monkeypatch.setattr(graph_cache, "_SPLIT_BELOW", 0)
    want = _observable(build(store))
    load_graph(store, root)
    mapped = load_graph(store, root)
    flat = mapped.name_terms._flat  # type: ignore[attr-defined]
    assert flat is not None and isinstance(flat[0], mmap.mmap)
    assert _observable(mapped) == want
    assert all(mapped.with_name_term(t) == [i for i, s in enumerate(mapped.name_terms) if t in s]
               for t in ("order", "cart", "no-such-term"))


def test_a_stale_cache_is_ignored(shop_store: tuple[Path, Store]) -> None:
    _, store = shop_store
    data = _dump(build(store))
    assert _load(data, store.generation + 1) is None
    other_format = data[:4] + (999).to_bytes(4, "little") + data[8:]
    with pytest.raises(_Stale):
        _load(other_format, store.generation)


def _table(good: bytes) -> tuple[list[int], int]:
    """The section table's (byte length, item count) pairs and where the first section starts."""
    count = struct.unpack_from("<I", good, 16)[0]
    sizes = list(struct.unpack_from(f"<{2 * count}Q", good, 20))
    start = 20 + 16 * count
    return sizes, start + -start % 8


def _start(good: bytes, name: str) -> int:
    sizes, at = _table(good)
    for k, (section, _) in enumerate(_LAYOUT):
        if section == name:
            return at
        at += sizes[2 * k] + -sizes[2 * k] % 8
    raise KeyError(name)


def _sealed(data: bytes | bytearray) -> bytes:
    """`data` with its CRC made to match again: damage only the structure checks can find."""
    return bytes(data[:12]) + struct.pack("<I", zlib.crc32(data[16:])) + bytes(data[16:])


def _damaged(good: bytes) -> dict[str, bytes]:
    sizes, _ = _table(good)
    flipped = bytearray(good)
    flipped[_start(good, "out.to")] ^= 0x40  # an edge target, the CRC left as it was
    wrong_count = bytearray(good)
    k = [name for name, _ in _LAYOUT].index("ids")
    struct.pack_into("<Q", wrong_count, 20 + 16 * k + 8, sizes[2 * k + 1] + 1)
    section_count = bytearray(good)
    struct.pack_into("<I", section_count, 16, 3)
    offsets_end = bytearray(good)  # the last term-set offset past the flat ids' end
    at = _start(good, "terms.off") + sizes[2 * [n for n, _ in _LAYOUT].index("terms.off")] - 4
    struct.pack_into("<I", offsets_end, at, struct.unpack_from("<I", good, at)[0] + 1)
    strings = bytearray(good)  # a string's start moved: the table no longer ends at the blob's
    at = _start(good, "names.at") + sizes[2 * [n for n, _ in _LAYOUT].index("names.at")] - 4
    struct.pack_into("<I", strings, at, struct.unpack_from("<I", good, at)[0] - 1)
    return {
        "empty": b"",
        "garbage": b"\x00not a cache" * 50,
        "magic only": _MAGIC + b"\x04\x00",
        "truncated": good[: len(good) // 2],
        "sealed truncated": _sealed(good[: len(good) // 2]),
        "trailing bytes": _sealed(good + b"\x00" * 8),
        "byte flipped": bytes(flipped),
        "section count": _sealed(section_count),
        "item count": _sealed(wrong_count),
        "offsets end": _sealed(offsets_end),
        "string table": _sealed(strings),
    }


def test_damaged_caches_are_rejected(shop_store: tuple[Path, Store]) -> None:
    _, store = shop_store
    good = _dump(build(store))
    assert _load(good, store.generation) is not None
    for name, data in _damaged(good).items():
        with pytest.raises(_Corrupt):
            _load(data, store.generation)
            pytest.fail(name)


def test_a_forged_id_fails_its_read_and_reads_nothing_else(
        shop_store: tuple[Path, Store]) -> None:
    """A file whose CRC was made to match forged ids is trusted as the database beside it is,
    and every read of an id is bounds-checked: an edge to a symbol past the last one is an
    IndexError where it is followed, never another symbol's data."""
    _, store = shop_store
    good = bytearray(_dump(build(store)))
    struct.pack_into("<I", good, _start(bytes(good), "out.to"), 10**6)
    g = _load(_sealed(good), store.generation)
    assert g is not None
    first = next(i for i in range(len(g.ids)) if g.out[i])
    target = g.out[first][0][0]
    assert target == 10**6
    with pytest.raises(IndexError):
        g.names[target]


def test_a_damaged_cache_file_is_set_aside_and_rebuilt(
        shop_store: tuple[Path, Store], capsys: pytest.CaptureFixture[str]) -> None:
    root, store = shop_store
    cache = index_dir(root) / CACHE_NAME
    load_graph(store, root)
    good = cache.read_bytes()
    want = _observable(build(store))
    for name in ("garbage", "truncated", "byte flipped", "offsets end"):
        cache.write_bytes(_damaged(good)[name])
        g = load_graph(store, root)
        assert _observable(g) == want, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "graph cache unreadable" in err, (name, err)
        assert (cache.parent / err.strip().rsplit(" ", 1)[-1]).exists()
        assert cache.read_bytes()[:4] == _MAGIC
        assert _observable(load_graph(store, root)) == want
        assert capsys.readouterr().err == ""
    for aside in cache.parent.glob(f"{CACHE_NAME}.broken-*"):
        aside.unlink()


def test_the_crc_is_read_once_per_cache_file(
        shop_store: tuple[Path, Store], capsys: pytest.CaptureFixture[str]) -> None:
    """`graph.checked` names the file whose CRC a load verified; a later load of that same file
    (size, modification time, inode) skips the CRC, and any rewrite is verified again."""
    root, store = shop_store
    cache = index_dir(root) / CACHE_NAME
    stamp = cache.with_name("graph.checked")
    cache.unlink(missing_ok=True)
    stamp.unlink(missing_ok=True)
    want = _observable(load_graph(store, root))  # built and written
    assert not stamp.exists()
    assert _observable(load_graph(store, root)) == want  # read and verified
    st = cache.stat()
    crc = struct.unpack_from("<I", cache.read_bytes(), 12)[0]
    assert stamp.read_text() == f"{st.st_size} {st.st_mtime_ns} {st.st_ino} {crc}\n"
    flipped = bytearray(cache.read_bytes())
    flipped[_start(bytes(flipped), "out.to")] ^= 0x40
    with open(cache, "r+b") as f:  # in place: same size and inode
        f.write(flipped)
    os.utime(cache, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(IndexError):  # the stamp stood for the CRC: the bad offset fails where read
        _observable(load_graph(store, root))
    assert capsys.readouterr().err == ""
    os.utime(cache, ns=(st.st_atime_ns, st.st_mtime_ns + 1))  # any write moves the time
    assert _observable(load_graph(store, root)) == want
    assert "checksum mismatch" in capsys.readouterr().err
    for aside in cache.parent.glob(f"{CACHE_NAME}.broken-*"):
        aside.unlink()


@pytest.mark.parametrize("old", ["graph.bin.zst", "graph.bin"])
def test_an_older_versions_cache_is_rebuilt_with_one_line_and_loses_nothing(
        shop_store: tuple[Path, Store], capsys: pytest.CaptureFixture[str], old: str) -> None:
    """Format 3 was one zstd frame in graph.bin.zst; a graph.bin of another format is another
    version's too. Either is replaced by a graph equal to a fresh build, and removed."""
    root, store = shop_store
    cache = index_dir(root) / CACHE_NAME
    cache.unlink(missing_ok=True)
    header = _MAGIC + struct.pack("<II", 3, store.generation)  # then a zstd frame, once
    (cache.parent / old).write_bytes(header + b"\x28\xb5\x2f\xfd" + b"\x00" * 64)
    want = _observable(build(store))
    assert _observable(load_graph(store, root)) == want
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "graph cache" in err and "rebuilding it" in err, err
    assert "graphiq-ci" in err and ("older" in err or "format 3" in err), err
    assert sorted(p.name for p in cache.parent.glob("graph.bin*")) == [CACHE_NAME]
    assert _observable(load_graph(store, root)) == want
    assert capsys.readouterr().err == ""


def test_an_index_rebuilt_for_a_new_schema_never_takes_the_old_graph_cache(
        make_repo: Callable[..., Path]) -> None:
    """An upgrade rebuilds the index from generation 1 unless it continues the old count; a
    cache left at the old generation 1 would then answer for the new index."""
    import sqlite3

    from graphiq_ci.search import search

    repo = make_repo({"app.py": "def checkout_cart():\n    return 1\n"})
    assert [h.name for h in search(repo, "checkout_cart").hits] == ["checkout_cart"]
    db = sqlite3.connect(index_dir(repo) / "graphiq.db")
    with db:
        db.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    db.close()
    (repo / "app.py").write_text("def refund_order():\n    return 2\n")
    hits = search(repo, "refund_order").hits  # rebuilds the index, then reads the graph
    assert [h.name for h in hits] == ["refund_order"]
