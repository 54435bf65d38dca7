"""Inspections cached on disk beside the Docs: hits, misses, keys, eviction."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from support.hidden_pdfs import make_hidden_pdf

from siftui.core.findings import Inspection
from siftui.sources.cache import DocCache
from siftui.sources.hidden import cache as hidden_cache
from siftui.sources.hidden.cache import cached_inspect
from siftui.sources.hidden.document import inspect_document
from siftui.sources.load_options import LoadOptions


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return make_hidden_pdf(tmp_path / "hidden.pdf")


def entries(cache: DocCache) -> list[Path]:
    return sorted(cache.directory.glob("*.hidden"))


def test_a_second_inspection_is_read_from_the_cache(
    tmp_path: Path, pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = DocCache(tmp_path / "cache")
    first = cached_inspect(pdf, cache=cache)
    assert first == inspect_document(pdf)
    assert len(entries(cache)) == 1

    def fail(*args: object, **kwargs: object) -> Inspection:
        raise AssertionError("inspected again")

    monkeypatch.setattr(hidden_cache, "inspect_document", fail)
    done: list[tuple[int, int]] = []
    assert cached_inspect(pdf, cache=cache, progress=lambda a, b: done.append((a, b))) == first
    assert done == [(11, 11)]


def test_options_and_bytes_are_in_the_key(tmp_path: Path, pdf: Path) -> None:
    cache = DocCache(tmp_path / "cache")
    whole = cached_inspect(pdf, cache=cache)
    first_two = cached_inspect(pdf, LoadOptions(max_pages=2), cache=cache)
    assert first_two.pages_inspected == 2 and whole.pages_inspected == 11
    assert len(entries(cache)) == 2
    pdf.write_bytes(pdf.read_bytes() + b"\n% changed\n")
    cached_inspect(pdf, cache=cache)
    assert len(entries(cache)) == 3


def test_a_bad_entry_is_a_miss(tmp_path: Path, pdf: Path) -> None:
    cache = DocCache(tmp_path / "cache")
    first = cached_inspect(pdf, cache=cache)
    (entry,) = entries(cache)
    deep = hidden_cache.MAGIC + zlib.compress(b"[" * 100_000 + b"]" * 100_000)
    for junk in (b"", b"junk", hidden_cache.MAGIC + b"not zlib", entry.read_bytes()[:-5], deep):
        entry.write_bytes(junk)
        assert cached_inspect(pdf, cache=cache) == first
        assert entry.read_bytes() != junk  # written again


def test_never_with_a_password_or_without_the_cache(tmp_path: Path, pdf: Path) -> None:
    cache = DocCache(tmp_path / "cache")
    cached_inspect(pdf, LoadOptions(password="x"), cache=cache)  # an unencrypted file takes any
    cached_inspect(pdf, LoadOptions(use_cache=False), cache=cache)
    assert not cache.directory.exists()


def test_hidden_entries_count_in_the_cache_size(tmp_path: Path, pdf: Path) -> None:
    cache = DocCache(tmp_path / "cache")
    cached_inspect(pdf, cache=cache)
    assert entries(cache)
    DocCache(cache.directory, max_bytes=1).evict()
    assert entries(cache) == []
