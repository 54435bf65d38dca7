# mypy: disallow-untyped-calls=False
"""A first page range reads only the pages its answer needs, and answers exactly
what the whole extraction's Doc answers (siftui.sources.lazy, siftui.core.rangeread)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.damaged import page_tree_pdf
from support.pdfs import CORPUS_MANIFEST, CORPUS_PASSWORDS, CorpusDocs, make_pdf, needs_corpus

from siftui.core.budget import check_unit
from siftui.core.docindex import SEPARATOR, page_block
from siftui.core.render import Options, Rendered, render
from siftui.core.textless import answer_textless
from siftui.core.unreadable import Extraction
from siftui.sources import pdf_open as pdf_open_module
from siftui.sources.extract import extract_report
from siftui.sources.lazy import read_range
from siftui.sources.load import load_doc_report
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import ExtractError

WORDS = ("alpha", "beta gamma", "  delta  ", "epsilon zeta eta", "x", "theta iota kappa lambda")


def answer_of(found: Extraction, options: Options) -> Rendered | str:
    """The answer, or the error's message: both must be the same."""
    try:
        return render(found.doc, options)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"


def same_answers(path: Path, options: Options, max_pages: int | None = None) -> None:
    """The cold range against the whole extraction: the answer (or R3's error), the
    answer's pages without text, the damaged pages among those read."""
    try:
        whole = extract_report(path, LoadOptions(max_pages=max_pages, workers=1))
    except ExtractError as error:
        with pytest.raises(type(error)) as raised:
            read_range(path, options, LoadOptions(max_pages=max_pages))
        assert str(raised.value) == str(error)
        return
    cold = read_range(path, options, LoadOptions(max_pages=max_pages))
    expected, got = answer_of(whole, options), answer_of(cold.found, options)
    assert got == expected
    assert cold.found.doc.page_count == whole.doc.page_count
    assert cold.found.doc.extracted == whole.doc.extracted
    if isinstance(expected, Rendered) and isinstance(got, Rendered):
        assert answer_textless(cold.found.doc, got) == answer_textless(whole.doc, expected)
    read = [item for item in whole.unreadable if item.page in cold.read]
    assert list(cold.found.unreadable) == read


page_texts = st.lists(
    st.lists(st.sampled_from(WORDS), max_size=6).map("\n".join), min_size=1, max_size=9
)
ranges = st.one_of(
    st.integers(0, 12).map(str),
    st.tuples(st.integers(0, 12), st.integers(0, 14)).map(lambda ab: f"{ab[0]}-{ab[1]}"),
    st.integers(0, 12).map(lambda a: f"{a}-"),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=page_texts,
    pages=ranges,
    out_cap=st.integers(1, 400),
    unit=st.sampled_from(["chars", "bytes"]),
    max_pages=st.one_of(st.none(), st.integers(0, 10)),
)
def test_a_cold_range_answers_what_the_whole_extraction_answers(
    texts: list[str], pages: str, out_cap: int, unit: str, max_pages: int | None
) -> None:
    with tempfile.TemporaryDirectory() as where:
        path = make_pdf(Path(where) / "doc.pdf", texts)
        same_answers(path, Options(pages=pages, out_cap=out_cap, unit=unit), max_pages)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=page_texts,
    first=st.integers(1, 9),
    shown=st.integers(0, 4),
    slack=st.integers(-3, 3),
    unit=st.sampled_from(["chars", "bytes"]),
)
def test_a_cold_range_at_the_edge_of_its_budget(
    texts: list[str], first: int, shown: int, slack: int, unit: str
) -> None:
    """OutCap just around where one more page (or its marker alone) fits."""
    with tempfile.TemporaryDirectory() as where:
        path = make_pdf(Path(where) / "doc.pdf", [*texts, "", "tail"])
        pages = extract_report(path).doc.pages
        first = min(first, len(pages))
        shown = min(shown, len(pages) - first)
        size = check_unit(unit).size
        blocks = [page_block(p, pages[p - 1]) for p in range(first, first + shown + 1)]
        joined = size(SEPARATOR.join(blocks))
        edge = joined + size(SEPARATOR) + size(page_block(first + shown + 1, ""))
        for out_cap in (joined + slack, edge + slack):
            options = Options(pages=f"{first}-", out_cap=max(1, out_cap), unit=unit)
            same_answers(path, options)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(1, 8),
    damaged=st.sets(st.integers(1, 8), max_size=8),
    pages=ranges,
    out_cap=st.integers(1, 200),
)
def test_a_cold_range_over_damaged_pages_answers_the_same(
    count: int, damaged: set[int], pages: str, out_cap: int
) -> None:
    with tempfile.TemporaryDirectory() as where:
        path = Path(where) / "damaged.pdf"
        path.write_bytes(page_tree_pdf(count, {page for page in damaged if page <= count}))
        same_answers(path, Options(pages=pages, out_cap=out_cap))


@pytest.mark.parametrize(
    "pages", ["1", "1-", "1-5", "2", "0", "3-1", "40", "x"], ids=lambda p: f"pages={p}"
)
def test_a_one_page_pdf(tmp_path: Path, pages: str) -> None:
    path = make_pdf(tmp_path / "one.pdf", ["the only page\nof this file"])
    same_answers(path, Options(pages=pages, out_cap=30))
    same_answers(path, Options(pages=pages, out_cap=1000))


def test_the_last_page_and_past_it(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "six.pdf", [f"page {n} text" for n in range(1, 7)])
    for pages in ("6", "6-", "6-9", "7", "5-6", "7-9"):
        same_answers(path, Options(pages=pages, out_cap=1000))
    same_answers(path, Options(pages="5-", out_cap=1000), max_pages=4)


def test_a_damaged_page_inside_the_range(tmp_path: Path) -> None:
    path = tmp_path / "cycle.pdf"
    path.write_bytes(page_tree_pdf(6, {3}))
    same_answers(path, Options(pages="2-4", out_cap=1000))
    cold = read_range(path, Options(pages="2-4", out_cap=1000))
    assert [item.page for item in cold.found.unreadable] == [3]


def test_every_page_damaged_is_refused_as_the_whole_extraction_refuses(tmp_path: Path) -> None:
    path = tmp_path / "all.pdf"
    path.write_bytes(page_tree_pdf(3, {1, 2, 3}))
    same_answers(path, Options(pages="2", out_cap=1000))
    same_answers(path, Options(pages="9", out_cap=1000))


def test_only_the_pages_the_answer_needs_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [f"page {n}\n" + "words " * 40 for n in range(1, 301)]
    path = make_pdf(tmp_path / "big.pdf", texts)
    read: list[int] = []
    real = pdf_open_module.read_page

    def counted(document: object, number: int) -> tuple[str, str | None]:
        read.append(number + 1)
        return real(document, number)

    monkeypatch.setattr("siftui.sources.lazy.read_page", counted)
    block = len(render(extract_report(path).doc, Options(pages="10", out_cap=10**6)).content)
    whole = extract_report(path).doc
    # Three pages fit; a fourth would fit only if it had no text: it is read to know.
    options = Options(pages="10-200", out_cap=3 * block + 40)
    found = load_doc_report(path, answering=options)
    assert read == [10, 11, 12, 13]
    assert render(found.doc, options) == render(whole, options)
    read.clear()
    # Three pages fit, and not even page 13's marker beside them: it is not read.
    options = Options(pages="10-200", out_cap=3 * block + 10)
    found = load_doc_report(path, answering=options)
    assert read == [10, 11, 12]
    assert render(found.doc, options) == render(whole, options)
    read.clear()
    found = load_doc_report(path, answering=Options(pages="250-", out_cap=10**9))
    assert read == list(range(250, 301))
    read.clear()
    with pytest.raises(ValueError, match=r"pages out of range \(1-300\)"):
        render(load_doc_report(path, answering=Options(pages="301")).doc, Options(pages="301"))
    assert read == [1]  # one readable page: the document is not refused


def test_a_cached_document_is_answered_from_the_cache(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "doc.pdf", ["one", "two", "three"])
    whole = load_doc_report(path)  # extracts it into the cache
    options = Options(pages="2", out_cap=1000)
    assert load_doc_report(path, answering=options) == whole
    assert load_doc_report(path, answering=Options(grep="t")) == whole


CORPUS_RANGES = ("1", "2-4", "10-12", "3-", "5-5000", "9999")


@needs_corpus
@pytest.mark.parametrize(
    "name",
    [row["file"] for row in CORPUS_MANIFEST if row["file"].endswith(".pdf")],
)
@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_corpus_cold_ranges(name: str, corpus: CorpusDocs) -> None:
    """Real files: the cold range's answer is the whole extraction's, for a few ranges
    and OutCaps (the one password-protected file with its password)."""
    whole = corpus[name]
    password = CORPUS_PASSWORDS.get(name)
    for pages in CORPUS_RANGES:
        for out_cap in (500, 100_000):
            options = Options(pages=pages, out_cap=out_cap)
            cold = read_range(corpus.path(name), options, LoadOptions(password=password))
            expected = answer_of(Extraction(whole), options)
            assert answer_of(cold.found, options) == expected, (name, pages, out_cap)
