"""The disk cache of extracted Docs: keys, atomic writes, corruption, eviction, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support.cli_support import siftui
from support.pdfs import USER_PASSWORD, make_encrypted_pdf, make_pdf

import siftui.sources.cache as cache_module
from siftui.core.doc import Doc, OutlineItem
from siftui.core.unreadable import Extraction
from siftui.sources.cache import (
    DEFAULT_MAX_BYTES,
    MAGIC,
    DocCache,
    cache_dir,
    cache_key,
    cached_extract_report,
    decode,
    encode,
    max_bytes_from_env,
)
from siftui.sources.extract import extract, extract_report
from siftui.sources.filehash import file_sha256
from siftui.sources.load import load_doc_report
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import ExtractError, NeedsPassword, pymupdf_version


@pytest.fixture(autouse=True)
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("SIFTUI_CACHE_MAX_BYTES", raising=False)
    return home / "siftui"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every real extraction cached_extract_report makes."""
    made: list[Path] = []

    def counting(path: Path, *args: Any, **keywords: Any) -> Extraction:
        made.append(Path(path))
        return extract_report(path, *args, **keywords)

    monkeypatch.setattr(cache_module, "extract_report", counting)
    return made


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return make_pdf(
        tmp_path / "doc.pdf",
        ["first page", "второй", "中文 page three", ""],
        title="Cached",
        toc=[(1, "One", 1), (2, "Two", 2)],
    )


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.doc")) if directory.is_dir() else []


def test_miss_then_hit(pdf: Path, cache_home: Path, calls: list[Path]) -> None:
    first = cached_extract_report(pdf).doc
    assert first == extract(pdf)
    assert len(entries(cache_home)) == 1
    progress: list[tuple[int, int]] = []
    second = cached_extract_report(
        pdf, progress=lambda done, total: progress.append((done, total))
    ).doc
    assert second == first
    assert calls == [pdf]  # extracted once
    assert progress == [(4, 4)]
    assert oct(entries(cache_home)[0].stat().st_mode & 0o777) == "0o600"


def test_roundtrip_of_awkward_text() -> None:
    doc = Doc(
        title="t\ud800 \x00",
        page_count=5,
        pages=("", "a\udfff", "中文\n", "\U0001f600"),
        outline=(OutlineItem(1, "x\ud800", -1), OutlineItem(3, "", 2)),
    )
    assert decode(encode(doc, "k"), "k") == doc


def test_key_changes_with_options_versions_and_content(
    pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = file_sha256(pdf)
    base = cache_key(digest, None, name=pdf)
    assert cache_key(digest, None, name=pdf) == base
    assert cache_key(digest, 3, name=pdf) != base
    assert cache_key(digest, 0, name=pdf) != cache_key(digest, 3, name=pdf)
    assert cache_key("0" * 64, None, name=pdf) != base
    monkeypatch.setattr(cache_module, "__version__", "99.0")
    assert cache_key(digest, None, name=pdf) != base
    monkeypatch.undo()
    # the name's suffix tells MuPDF what the bytes are: the same bytes as a.txt are a
    # text document, as a.pdf none at all (.PDF is .pdf)
    assert cache_key(digest, None, name="other/A.PDF") == base
    assert cache_key(digest, None, name="a.txt") != base
    assert cache_key(digest, None, name="a") not in (base, cache_key(digest, None, name="a.txt"))
    monkeypatch.setattr(cache_module, "pymupdf_version", lambda: "0.0.1")
    assert cache_key(digest, None, name=pdf) != base


def test_pymupdf_version_without_importing_it() -> None:
    """The cache key's version is PyMuPDF's own, read without loading PyMuPDF (0.2-0.7 s)."""
    import pymupdf

    probe = (
        "import sys\n"
        "from siftui.sources.pdf_open import pymupdf_version\n"
        "print(pymupdf_version(), 'pymupdf' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == [pymupdf.VersionBind, "False"]
    assert vars(cache_module)["pymupdf_version"] is pymupdf_version  # the one the key uses


def test_changed_file_never_gets_a_stale_doc(tmp_path: Path, calls: list[Path]) -> None:
    path = make_pdf(tmp_path / "a.pdf", ["old text"])
    assert cached_extract_report(path).doc.pages == ("old text\n",)
    make_pdf(path, ["new text"])
    assert cached_extract_report(path).doc.pages == ("new text\n",)
    assert cached_extract_report(path).doc.pages == ("new text\n",)
    assert len(calls) == 2


def test_max_pages(pdf: Path, calls: list[Path]) -> None:
    assert cached_extract_report(pdf, LoadOptions(max_pages=2)).doc == extract(pdf, max_pages=2)
    assert cached_extract_report(pdf, LoadOptions(max_pages=2)).doc.pages == extract(pdf).pages[:2]
    assert len(calls) == 1
    cached_extract_report(pdf)  # the whole document serves any max_pages from now on
    assert cached_extract_report(pdf, LoadOptions(max_pages=3)).doc == extract(pdf, max_pages=3)
    assert cached_extract_report(pdf, LoadOptions(max_pages=0)).doc == extract(pdf, max_pages=0)
    assert len(calls) == 2
    with pytest.raises(ValueError):
        cached_extract_report(pdf, LoadOptions(max_pages=-1))


def test_a_leftover_temporary_file_is_ignored_and_cleaned(
    pdf: Path, cache_home: Path, calls: list[Path]
) -> None:
    """A crash mid-write leaves a temporary file, never a partial entry."""
    cache_home.mkdir(parents=True)
    doc = cached_extract_report(pdf).doc
    entry = entries(cache_home)[0]
    leftover = cache_home / ".tmp-crashed.doc"
    leftover.write_bytes(entry.read_bytes()[:20])
    assert cached_extract_report(pdf).doc == doc
    assert leftover.exists()  # recent: it may belong to a writer still running
    old = time.time() - 2 * cache_module.TEMP_MAX_AGE
    os.utime(leftover, (old, old))
    DocCache(cache_home).evict()
    assert not leftover.exists()
    assert entries(cache_home) == [entry]
    assert len(calls) == 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: b"",
        lambda data: b"garbage" * 10,
        lambda data: data[:-8] + b"\x00" * 8,  # bad checksum
        lambda data: MAGIC + b"not zlib",
        lambda data: data[: len(MAGIC)] + bytes([data[len(MAGIC)] ^ 0xFF]) + data[len(MAGIC) + 1 :],
    ],
)
def test_corrupt_entry_is_rebuilt(
    pdf: Path, cache_home: Path, calls: list[Path], damage: object
) -> None:
    doc = cached_extract_report(pdf).doc
    entry = entries(cache_home)[0]
    entry.write_bytes(damage(entry.read_bytes()))  # type: ignore[operator]
    assert cached_extract_report(pdf).doc == doc
    assert len(calls) == 2
    assert decode(entry.read_bytes(), entry.stem) == doc  # rewritten whole
    assert cached_extract_report(pdf).doc == doc
    assert len(calls) == 2


def test_entry_of_another_key_is_a_miss(pdf: Path, cache_home: Path) -> None:
    doc = cached_extract_report(pdf).doc
    entry = entries(cache_home)[0]
    with pytest.raises(ValueError):
        decode(entry.read_bytes(), "another key")
    other = DocCache(cache_home)
    other.entry("0" * 64).write_bytes(entry.read_bytes())
    assert other.get("0" * 64) is None
    assert other.get(entry.stem) == doc


def test_bad_headers_are_misses() -> None:
    import json
    import zlib

    def entry(header: object, body: bytes = b"") -> bytes:
        return MAGIC + zlib.compress(json.dumps(header).encode() + b"\n" + body)

    good: dict[str, object] = {"key": "k", "title": "", "page_count": 1}
    good |= {"outline": [], "sizes": [1]}
    assert decode(entry(good, b"x"), "k") == Doc("", 1, ("x",))
    changes: list[dict[str, object]] = [
        {"title": 3},
        {"page_count": "1"},
        {"page_count": 0},
        {"sizes": [2]},
        {"sizes": [-1, 2]},
        {"sizes": "1"},
        {"outline": [[1, "a"]]},
        {"outline": [["1", "a", 1]]},
        {"outline": [[True, "a", 1]]},
        {"outline": [[1, "a", 1.0]]},
        {"outline": {}},
    ]
    for change in changes:
        with pytest.raises(ValueError):
            decode(entry({**good, **change}, b"x"), "k")
    with pytest.raises(ValueError):
        decode(entry([good], b"x"), "k")
    with pytest.raises(ValueError):
        decode(MAGIC + zlib.compress(b"no newline"), "k")
    with pytest.raises(ValueError):  # deeper than the parser goes: a RecursionError before
        decode(MAGIC + zlib.compress(b"[" * 100_000 + b"]" * 100_000 + b"\n"), "k")
    with pytest.raises(ValueError):
        decode(entry(good, b"\xff"), "k")


def test_size_bound_evicts_the_least_recently_used(tmp_path: Path) -> None:
    directory = tmp_path / "c"
    doc = Doc("t", 1, ("x" * 20_000,))
    size = len(encode(doc, "a" * 64))
    store = DocCache(directory, max_bytes=3 * size + 10)
    for number, key in enumerate(("a", "b", "c")):
        store.put(key * 64, doc)
        old = time.time() - 1000 + number  # a oldest
        os.utime(store.entry(key * 64), (old, old))
    assert store.get("a" * 64) == doc  # a hit makes "a" the most recent
    store.put("d" * 64, doc)
    assert sorted(p.name[0] for p in entries(directory)) == ["a", "c", "d"]
    assert store.get("b" * 64) is None
    assert sum(p.stat().st_size for p in entries(directory)) <= store.max_bytes


def test_entry_larger_than_the_bound_is_not_written(tmp_path: Path) -> None:
    store = DocCache(tmp_path / "c", max_bytes=10)
    store.put("k", Doc("t", 1, ("text",)))
    assert entries(tmp_path / "c") == []
    store = DocCache(tmp_path / "c", max_bytes=0)
    store.put("k", Doc("t", 1, ("text",)))
    assert not (tmp_path / "c").exists() or entries(tmp_path / "c") == []


def test_size_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert max_bytes_from_env() == DEFAULT_MAX_BYTES == 512 * 1024 * 1024
    monkeypatch.setenv("SIFTUI_CACHE_MAX_BYTES", "1000")
    assert max_bytes_from_env() == 1000
    assert DocCache.default().max_bytes == 1000
    monkeypatch.setenv("SIFTUI_CACHE_MAX_BYTES", "lots")
    assert max_bytes_from_env() == DEFAULT_MAX_BYTES
    monkeypatch.setenv("SIFTUI_CACHE_MAX_BYTES", "-5")
    assert max_bytes_from_env() == 0


def test_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pdf: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    assert cache_dir() == tmp_path / "elsewhere" / "siftui"
    cached_extract_report(pdf)
    assert len(entries(tmp_path / "elsewhere" / "siftui")) == 1
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in ("", "relative/dir"):  # not absolute: the XDG default
        monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert cache_dir() == tmp_path / "home" / ".cache" / "siftui"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == tmp_path / "home" / ".cache" / "siftui"


def test_password_documents_are_never_cached(
    tmp_path: Path, cache_home: Path, calls: list[Path]
) -> None:
    locked = make_encrypted_pdf(tmp_path / "locked.pdf", "decrypted words")
    for _ in range(2):
        assert cached_extract_report(locked, LoadOptions(password=USER_PASSWORD)).doc.pages[
            0
        ].strip() == ("decrypted words")
    with pytest.raises(NeedsPassword):
        cached_extract_report(locked)
    assert entries(cache_home) == []
    assert len(calls) == 3


def test_use_cache_false(pdf: Path, cache_home: Path, calls: list[Path]) -> None:
    cached_extract_report(pdf, LoadOptions(use_cache=False))
    assert not cache_home.exists()
    assert load_doc_report(pdf, LoadOptions(use_cache=False)).doc == extract(pdf)
    assert not cache_home.exists()
    assert load_doc_report(pdf).doc == extract(pdf)
    assert len(entries(cache_home)) == 1


def test_an_unusable_cache_directory_never_stops_a_read(
    pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert cached_extract_report(pdf).doc == extract(pdf)
    assert cached_extract_report(pdf).doc == extract(pdf)


def test_cli_no_cache(pdf: Path, cache_home: Path, tmp_path: Path) -> None:
    plain = siftui("render", pdf, "--no-cache")
    assert plain.returncode == 0
    assert siftui("walk", pdf, "--no-cache").returncode == 0
    assert siftui("extract", pdf, "--no-cache").returncode == 0
    assert not cache_home.exists()
    assert siftui("render", pdf).stdout == plain.stdout
    assert len(entries(cache_home)) == 1
    assert siftui("render", pdf).stdout == plain.stdout  # from the cache
    extracted = siftui("extract", pdf)
    assert extracted.returncode == 0 and b'"pages"' in extracted.stdout
    assert len(entries(cache_home)) == 1


WRITER = """
import sys
from pathlib import Path
from siftui.sources.cache import DocCache
from siftui.core.doc import Doc
store = DocCache(Path(sys.argv[1]))
doc = Doc(sys.argv[2], 2, ("x" * 300_000, "y" * 300_000))
for _ in range(int(sys.argv[3])):
    store.put("k" * 64, doc)
"""


def test_concurrent_writers_leave_a_valid_entry(tmp_path: Path) -> None:
    directory = tmp_path / "shared"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(directory), name, "15"])
        for name in ("one", "two")
    ]
    store = DocCache(directory)
    seen = 0
    while any(writer.poll() is None for writer in writers):
        doc = store.get("k" * 64)  # never a partial entry, while they write
        if doc is not None:
            assert doc.title in ("one", "two") and len(doc.pages[1]) == 300_000
            seen += 1
    assert [writer.wait(60) for writer in writers] == [0, 0]
    final = store.get("k" * 64)
    assert final is not None and final.title in ("one", "two")
    assert [p.name for p in directory.iterdir()] == [f"{'k' * 64}.doc"]


def test_the_same_bytes_under_another_suffix_are_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read as a text document once (a.txt), the same bytes named a.pdf are still no
    document: the answer never depends on what was opened before."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    text = tmp_path / "a.txt"
    text.write_bytes(b"other words\n")
    assert "other words" in cached_extract_report(text).doc.pages[0]
    named_pdf = tmp_path / "a.pdf"
    named_pdf.write_bytes(text.read_bytes())
    with pytest.raises(ExtractError):
        cached_extract_report(named_pdf)


def test_each_page_is_decoded_on_its_own_bytes() -> None:
    import json
    import zlib

    pages = ("a\u00e9", "", "\u6f22\u5b57 \U0001f600", "lone \ud800 surrogate", "z")
    doc = Doc("t", 6, pages)
    assert decode(encode(doc, "k"), "k") == doc

    def entry(sizes: list[object], body: bytes) -> bytes:
        header = {"key": "k", "title": "", "page_count": 2, "outline": [], "sizes": sizes}
        return MAGIC + zlib.compress(json.dumps(header).encode() + b"\n" + body)

    assert decode(entry([2, 1], "\u00e9x".encode()), "k").pages == ("\u00e9", "x")
    with pytest.raises(ValueError):  # a page that ends inside a character
        decode(entry([1, 2], "\u00e9x".encode()), "k")
    with pytest.raises(ValueError):  # JSON's true is no size
        decode(entry([True], b"x"), "k")
