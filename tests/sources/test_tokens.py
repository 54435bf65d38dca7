"""siftui.sources.tokens: exact o200k_base / cl100k_base counts, offline."""

from __future__ import annotations

import hashlib
import lzma
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tiktoken.load
import tiktoken_ext.openai_public as openai_public  # type: ignore[import-untyped]

from siftui.core.doc import Doc
from siftui.sources import tokens
from siftui.sources.tokens import (
    ENCODINGS,
    VocabularyError,
    count_pages,
    count_tokens,
    encoding_from_bytes,
    load_encoding,
    parse_ranks,
    token_counts,
)

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"

# Computed once with tiktoken 0.14.0 (tiktoken.get_encoding fed the same files
# gave identical token lists), then hard-coded: (text, o200k_base, cl100k_base).
KNOWN = [
    ("hello world", 2, 2),
    ("", 0, 0),
    ("The quick brown fox jumps over the lazy dog.\n", 10, 10),
    ("我们使用中文写作，这是一个测试句子。", 11, 15),
    ("LaTeX 排版：\\documentclass{ctexart} 中文文档。", 18, 20),
    ("👋🌍🎉🧪👩\u200d👩\u200d👧\u200d👦", 20, 30),
    # special-token text is counted as ordinary text
    ("<|endoftext|>", 7, 7),
    ("page one <|endoftext|> page two <|fim_prefix|>", 17, 16),
]


@pytest.fixture
def fresh() -> Iterator[None]:
    """No loaded encoding and no cached page count, before and after the test."""
    tokens.clear_caches()
    yield
    tokens.clear_caches()


@pytest.mark.parametrize(("text", "o200k", "cl100k"), KNOWN)
def test_known_counts(text: str, o200k: int, cl100k: int) -> None:
    assert count_tokens(text, "o200k_base") == o200k
    assert count_tokens(text, "cl100k_base") == cl100k


def test_known_token_ids() -> None:
    """The ids tiktoken's own documentation and tests show for "hello world"."""
    assert load_encoding("o200k_base").encode_ordinary("hello world") == [24912, 2375]
    assert load_encoding("cl100k_base").encode_ordinary("hello world") == [15339, 1917]


def test_vocabulary_sizes() -> None:
    o200k = load_encoding("o200k_base")
    cl100k = load_encoding("cl100k_base")
    assert (o200k.name, o200k.n_vocab) == ("o200k_base", 200019)
    assert (cl100k.name, cl100k.n_vocab) == ("cl100k_base", 100277)


def test_load_encoding_is_cached() -> None:
    assert load_encoding("o200k_base") is load_encoding("o200k_base")


def test_unknown_encoding() -> None:
    with pytest.raises(ValueError, match="unknown encoding 'p50k_base'"):
        count_tokens("x", "p50k_base")
    with pytest.raises(ValueError, match="unknown encoding"):
        count_pages(Doc(title="", page_count=1, pages=("x",)), "gpt2")


@pytest.mark.parametrize("name", ENCODINGS)
def test_constants_match_installed_tiktoken(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """pat_str, special tokens and expected_hash are those of tiktoken_ext/openai_public.py."""
    asked: dict[str, Any] = {}

    def fake_load(path: str, expected_hash: str | None = None) -> dict[bytes, int]:
        asked.update(path=path, expected_hash=expected_hash)
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", fake_load)
    theirs = openai_public.ENCODING_CONSTRUCTORS[name]()
    ours = tokens._SPECS[name]
    assert theirs["name"] == name
    assert theirs["pat_str"] == ours.pat_str
    assert theirs["special_tokens"] == ours.special_tokens
    assert asked["expected_hash"] == ours.sha256
    assert "explicit_n_vocab" not in theirs


@pytest.mark.parametrize("name", ENCODINGS)
def test_shipped_file_hashes_to_tiktokens_value(name: str) -> None:
    data = lzma.decompress((tokens._resource(name)).read_bytes())
    assert hashlib.sha256(data).hexdigest() == tokens._SPECS[name].sha256


def test_corrupted_bytes_are_refused() -> None:
    data = bytearray(tokens._read_shipped("cl100k_base"))
    data[100] ^= 1
    with pytest.raises(VocabularyError, match=r"^cl100k_base: vocabulary could not be loaded: "):
        encoding_from_bytes("cl100k_base", bytes(data))
    with pytest.raises(VocabularyError, match="sha256"):
        encoding_from_bytes("cl100k_base", b"")


def noting_parses(monkeypatch: pytest.MonkeyPatch, steps: list[str]) -> None:
    """tokens.parse_ranks as it is, noting "parse" in ``steps`` each time it runs."""
    real = tokens.parse_ranks

    def parse(data: bytes) -> dict[bytes, int]:
        steps.append("parse")
        return real(data)

    monkeypatch.setattr(tokens, "parse_ranks", parse)


def test_building_an_encoding_pauses_before_its_two_long_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Work that can wait gives way before parsing the ranks and before building the
    encoding (which holds the interpreter without a break); a built one never pauses."""
    steps: list[str] = []
    noting_parses(monkeypatch, steps)
    data = tokens._read_shipped("cl100k_base")
    built = encoding_from_bytes("cl100k_base", data, lambda: steps.append("pause"))
    assert steps == ["pause", "parse", "pause"]
    assert built.encode_ordinary("hello world") == [15339, 1917]
    load_encoding("cl100k_base")
    load_encoding("cl100k_base", lambda: steps.append("again"))
    assert "again" not in steps


def test_counting_pages_gives_way_while_the_encoding_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The strip's page counts hand their pause to the build of the vocabulary too, not
    only to each page: the build is the long part."""
    steps: list[str] = []
    noting_parses(monkeypatch, steps)
    monkeypatch.setattr(tokens, "_ENCODINGS", {})  # not built yet in this process
    monkeypatch.setattr(tokens, "_PAGE_CACHE", type(tokens._PAGE_CACHE)())
    doc = Doc(title="t", page_count=2, pages=("first page", "second page"))
    counts = count_pages(doc, "cl100k_base", lambda: steps.append("pause"))
    assert steps == ["pause", "parse", "pause", "pause", "pause"]  # build, then each page
    assert counts == (2, 2)


def test_parse_ranks() -> None:
    assert parse_ranks(b"IQ== 0\nIg== 1\n\n") == {b"!": 0, b'"': 1}
    with pytest.raises(VocabularyError, match="line 2"):
        parse_ranks(b"IQ== 0\nnot base64! 1\n")
    with pytest.raises(VocabularyError, match="line 1"):
        parse_ranks(b"IQ==\n")


def _corrupt_xz(path: Path, name: str) -> None:
    data = bytearray(tokens._read_shipped(name))
    data[-10] ^= 1  # a valid xz file whose content is off by one bit
    path.write_bytes(lzma.compress(bytes(data), preset=0))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_corrupt_xz, "sha256 .* is not the expected"),
        (lambda path, name: path.write_bytes(b"not xz"), "not a valid xz file"),
        (lambda path, name: None, "No such file"),
    ],
)
@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_bad_shipped_file(
    make: Any, message: str, fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "o200k_base.tiktoken.xz"
    make(path, "o200k_base")
    real_resource = tokens._resource

    def resource(name: str) -> Any:
        return path if name == "o200k_base" else real_resource(name)

    monkeypatch.setattr(tokens, "_resource", resource)
    with pytest.raises(VocabularyError, match=message) as raised:
        load_encoding("o200k_base")
    assert "\n" not in str(raised.value)
    # Callers get runes / 4 and a reason instead of an exception.
    counts = token_counts("hello world, hello world")
    assert counts.runes == 24 and counts.estimate == 6
    assert [name for name, _ in counts.errors] == ["o200k_base"]
    assert "vocabulary could not be loaded" in dict(counts.errors)["o200k_base"]
    assert counts.tokens == (("cl100k_base", 5),)  # the other vocabulary still counts
    # The failure is not cached: with the real file back, it loads.
    monkeypatch.undo()
    assert count_tokens("hello world", "o200k_base") == 2


def test_token_counts() -> None:
    counts = token_counts("我们使用中文写作，这是一个测试句子。")
    assert counts.runes == 18
    assert counts.estimate == 4
    assert counts.tokens == (("o200k_base", 11), ("cl100k_base", 15))
    assert counts.errors == ()
    assert token_counts("abc", ("cl100k_base",)).tokens == (("cl100k_base", 1),)


def test_never_touches_the_network(
    fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Empty tiktoken cache, sockets refused, tiktoken's downloader refused: still counts."""
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(cache))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(tiktoken.load, "read_file", refuse)
    monkeypatch.setattr(tiktoken.load, "read_file_cached", refuse)
    for text, o200k, cl100k in KNOWN:
        assert count_tokens(text, "o200k_base") == o200k
        assert count_tokens(text, "cl100k_base") == cl100k
    assert token_counts("hello world").errors == ()
    assert list(cache.iterdir()) == []


def test_count_pages_counts_each_page_and_caches(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = ("hello world", "我们使用中文写作，这是一个测试句子。", "", "hello world")
    doc = Doc(title="t", page_count=5, pages=pages)
    first = count_pages(doc, "o200k_base")
    assert first == (2, 11, 0, 2)
    assert first == tuple(count_tokens(page, "o200k_base") for page in pages)
    assert tokens.page_cache_size() == 3  # keyed by page text: the repeated page once

    asked: list[list[str]] = []
    real = tokens._encode_many

    def spy(texts: list[str], encoding: str, pause: Callable[[], None] | None = None) -> list[int]:
        asked.append(list(texts))
        return real(texts, encoding, pause)

    monkeypatch.setattr(tokens, "_encode_many", spy)
    assert count_pages(doc, "o200k_base") == first
    assert asked == []  # all from the cache
    # Another Doc sharing page texts encodes only its new page; encodings are kept apart.
    other = Doc(title="u", page_count=2, pages=("hello world", "<|endoftext|>"))
    assert count_pages(other, "o200k_base") == (2, 7)
    assert asked == [["<|endoftext|>"]]
    assert count_pages(other, "cl100k_base") == (2, 7)
    assert asked[-1] == ["hello world", "<|endoftext|>"]
    assert count_pages(Doc(title="", page_count=3, pages=()), "o200k_base") == ()


def test_count_pages_cache_is_bounded(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_PAGE_CACHE_SIZE", 3)
    doc = Doc(title="", page_count=5, pages=tuple(f"page {n}" for n in range(5)))
    assert count_pages(doc, "cl100k_base") == (3, 3, 3, 3, 3)  # "page", " ", "0"
    assert tokens.page_cache_size() == 3


needs_zh = pytest.mark.skipif(
    not (CORPUS / "lshort-zh-cn.pdf").is_file(), reason=f"corpus missing: {CORPUS}"
)


@needs_zh
def test_runes_over_four_misleads_for_chinese() -> None:
    """lshort-zh-cn.pdf: measured 170,302 runes (42,575 by runes/4), 88,089 o200k_base
    tokens (2.07x) and 101,638 cl100k_base tokens (2.39x), with PyMuPDF 1.26."""
    from siftui.core.render import full
    from siftui.sources.extract import extract

    text = full(extract(CORPUS / "lshort-zh-cn.pdf"))
    counts = token_counts(text)
    assert counts.errors == ()
    real = dict(counts.tokens)
    o200k, cl100k = real["o200k_base"], real["cl100k_base"]
    assert counts.runes > 150_000
    assert o200k > 1.7 * counts.estimate
    assert cl100k > 2.0 * counts.estimate
    assert cl100k > o200k  # o200k_base has far more CJK tokens


@pytest.mark.skipif(
    not (CORPUS / "beameruserguide.pdf").is_file(), reason=f"corpus missing: {CORPUS}"
)
def test_runes_over_four_is_close_for_english() -> None:
    """beameruserguide.pdf: 669,504 runes, 167,376 by runes/4; 169,399 o200k_base (1.01x),
    165,287 cl100k_base (0.99x)."""
    from siftui.core.render import full
    from siftui.sources.extract import extract

    counts = token_counts(full(extract(CORPUS / "beameruserguide.pdf")))
    assert [name for name, _ in counts.tokens] == list(ENCODINGS)
    for _, real in counts.tokens:
        assert 0.85 * counts.estimate < real < 1.15 * counts.estimate
