# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""extract(): the Doc of the contract, from documents the tests make and from the corpus."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pymupdf
import pytest
from support.pdfs import (
    CJK_TEXT,
    CORPUS,
    CORPUS_MANIFEST,
    OWNER_PASSWORD,
    RICH_TOC,
    USER_PASSWORD,
    CorpusDocs,
    make_cbz,
    make_encrypted_pdf,
    make_pdf,
    make_rich_pdf,
    make_zero_page_pdf,
    needs_corpus,
)
from support.same_bytes import save_pdf

from siftui.core.doc import Doc, OutlineItem
from siftui.sources.extract import extract
from siftui.sources.pdf_open import (
    ExtractError,
    NeedsPassword,
    NoPages,
    NotAFile,
    NotFound,
    NotReadable,
    WrongPassword,
)

# --------------------------------------------------------------------------
# Documents made here


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    return make_rich_pdf(tmp_path / "rich.pdf")


def test_rich_document(rich: Path) -> None:
    doc = extract(rich)
    assert doc.title == "  A  Rich\tTitle "  # as stored: render collapses it, not extract
    assert doc.page_count == 5
    assert len(doc.pages) == 5
    assert doc.outline == tuple(OutlineItem(*item) for item in RICH_TOC)
    assert doc.outline[3].page < 1  # the unresolved target
    assert doc.pages[0] == "Latin page 1\nsecond line 1\n"
    assert doc.pages[2].strip() == CJK_TEXT
    assert doc.pages[3] == ""  # the empty page is kept, as an empty string
    assert isinstance(doc, Doc)


def test_pages_are_pymupdf_get_text_unchanged(rich: Path) -> None:
    with pymupdf.open(rich) as document:
        expected = tuple(page.get_text() for page in document)
    assert extract(rich).pages == expected
    assert extract(str(rich)).pages == expected  # a str path works as well as a Path


def test_cjk_html_box(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page()
    page.insert_htmlbox(pymupdf.Rect(50, 50, 500, 300), f"<p>{CJK_TEXT}</p>")
    save_pdf(document, tmp_path / "html.pdf")
    document.close()
    doc = extract(tmp_path / "html.pdf")
    assert doc.pages[0].strip() == CJK_TEXT


def test_no_title_no_outline(tmp_path: Path) -> None:
    doc = extract(make_pdf(tmp_path / "plain.pdf", ["one", "two"]))
    assert doc == Doc(title="", page_count=2, pages=("one\n", "two\n"), outline=())


@pytest.mark.parametrize("max_pages", [0, 1, 3, 5, 99])
def test_max_pages(rich: Path, max_pages: int) -> None:
    whole = extract(rich)
    doc = extract(rich, max_pages=max_pages)
    extracted = min(5, max_pages)
    assert doc.page_count == 5
    assert doc.pages == whole.pages[:extracted]
    assert len(doc.pages) == extracted
    assert doc.title == whole.title
    assert doc.outline == whole.outline  # the whole outline, even past E


def test_max_pages_negative(rich: Path) -> None:
    with pytest.raises(ValueError, match="max_pages"):
        extract(rich, max_pages=-1)


@pytest.mark.parametrize("max_pages", [None, 2, 0])
def test_progress_per_page_in_order(rich: Path, max_pages: int | None) -> None:
    calls: list[tuple[int, int]] = []
    extract(rich, max_pages=max_pages, progress=lambda done, total: calls.append((done, total)))
    total = 5 if max_pages is None else max_pages
    assert calls == [(done, total) for done in range(1, total + 1)]


def test_progress_exception_propagates(rich: Path) -> None:
    """A progress callback may cancel the extraction by raising."""

    class Cancelled(Exception):
        pass

    def cancel(done: int, total: int) -> None:
        if done == 2:
            raise Cancelled

    with pytest.raises(Cancelled):
        extract(rich, progress=cancel)


def test_password(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "locked.pdf", "secret text")
    with pytest.raises(NeedsPassword) as needs:
        extract(path)
    assert str(needs.value) == f"{path}: needs a password (use --password)"
    with pytest.raises(WrongPassword) as wrong:
        extract(path, password="nope")
    assert str(wrong.value) == f"{path}: wrong password"
    with pytest.raises(WrongPassword):
        extract(path, password="")
    assert extract(path, password=USER_PASSWORD).pages == ("secret text\n",)
    assert extract(path, password=OWNER_PASSWORD).pages == ("secret text\n",)


def test_password_ignored_when_not_needed(rich: Path) -> None:
    assert extract(rich, password="whatever") == extract(rich)


def test_cbz_goes_through_the_same_path(tmp_path: Path) -> None:
    doc = extract(make_cbz(tmp_path / "comic.cbz", 3))
    assert doc.page_count == 3
    assert doc.pages == ("", "", "")  # images only: no text layer
    assert doc.outline == ()


def test_text_file_is_a_document(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("first line\nsecond line\n", encoding="utf-8")
    doc = extract(path)
    assert doc.page_count == 1
    assert doc.pages[0].split() == ["first", "line", "second", "line"]


# --------------------------------------------------------------------------
# Errors: one family, one line each


def _one_line_error(path: Path, kind: type[ExtractError]) -> str:
    with pytest.raises(kind) as caught:
        extract(path)
    message = str(caught.value)
    assert "\n" not in message
    assert isinstance(caught.value, ExtractError)
    assert message.startswith(f"{path}: ")
    return message


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nothere.pdf"
    assert _one_line_error(path, NotFound) == f"{path}: no such file"


def test_missing_parent_is_not_found(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "dir.pdf"
    assert _one_line_error(path, NotFound) == f"{path}: no such file"


def test_control_characters_in_the_name_stay_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "two\nlines\tand\x1b.pdf"
    with pytest.raises(NotFound) as caught:
        extract(path)
    assert str(caught.value) == f"{tmp_path}/two\\nlines\\tand\\x1b.pdf: no such file"
    path.write_bytes(b"not a pdf at all")
    with pytest.raises(NotReadable) as unreadable:
        extract(path)
    assert "\n" not in str(unreadable.value)


def test_directory(tmp_path: Path) -> None:
    assert _one_line_error(tmp_path, NotAFile) == f"{tmp_path}: is a directory, not a file"


def test_fifo_is_not_opened(tmp_path: Path) -> None:
    """Opening a FIFO would block for ever; it is refused before any open()."""
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    assert _one_line_error(fifo, NotAFile) == f"{fifo}: not a regular file"


def test_no_read_permission(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "private.pdf", ["hidden"])
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("this user (root?) can read a file with mode 000")
        assert _one_line_error(path, NotReadable) == f"{path}: permission denied"
    finally:
        path.chmod(0o600)


def test_no_read_permission_as_seen_by_access(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same check as above, reachable as root: os.access() says no."""
    path = make_pdf(tmp_path / "private.pdf", ["hidden"])
    monkeypatch.setattr("siftui.sources.extract.os.access", lambda *args, **kwargs: False)
    assert _one_line_error(path, NotReadable) == f"{path}: permission denied"


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert _one_line_error(path, NotReadable) == f"{path}: empty file, not a document"


def test_text_named_pdf(tmp_path: Path) -> None:
    path = tmp_path / "letter.pdf"
    path.write_text("Dear reader,\nthis is not a PDF.\n", encoding="utf-8")
    message = _one_line_error(path, NotReadable)
    assert message.startswith(f"{path}: not a document siftui can read (")


def test_random_bytes_behind_a_pdf_header(tmp_path: Path) -> None:
    path = tmp_path / "noise.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes((i * 7919 + 13) % 256 for i in range(20_000)))
    message = _one_line_error(path, NotReadable)
    assert "not a document siftui can read" in message


def test_truncated_pdf(tmp_path: Path) -> None:
    whole = make_pdf(tmp_path / "whole.pdf", ["some text"]).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(whole[:40])
    _one_line_error(path, NotReadable)


def test_zero_pages(tmp_path: Path) -> None:
    path = make_zero_page_pdf(tmp_path / "zero.pdf")
    assert _one_line_error(path, NoPages) == f"{path}: the document has no pages"


def test_broken_zip_as_cbz(tmp_path: Path) -> None:
    path = tmp_path / "broken.cbz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "no images in here")
    with pytest.raises((NotReadable, NoPages)) as caught:
        extract(path)
    assert "\n" not in str(caught.value)


def test_errors_form_one_family() -> None:
    for kind in (NotFound, NotAFile, NotReadable, NeedsPassword, WrongPassword, NoPages):
        assert issubclass(kind, ExtractError)
    assert not issubclass(ExtractError, OSError)


def test_no_stderr_chatter(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """MuPDF's own warnings stay quiet; siftui reports problems itself."""
    path = tmp_path / "noise.pdf"
    path.write_bytes(b"%PDF-1.4\n1 0 obj <</Type/Catalog>> endobj\ntrailer <<>>\n")
    with pytest.raises(ExtractError):
        extract(path)
    captured = capfd.readouterr()
    assert captured.err == ""
    assert captured.out == ""


# --------------------------------------------------------------------------
# The corpus


@needs_corpus
def test_manifest_lists_every_corpus_file() -> None:
    listed = {row["file"] for row in CORPUS_MANIFEST}
    present = {path.name for path in CORPUS.iterdir() if path.name != "MANIFEST.tsv"}
    assert listed == present


@needs_corpus
@pytest.mark.parametrize("row", CORPUS_MANIFEST, ids=[row["file"] for row in CORPUS_MANIFEST])
def test_corpus_file(corpus: CorpusDocs, row: dict[str, str]) -> None:
    doc = corpus[row["file"]]
    assert doc.page_count == int(row["pages"])
    assert len(doc.pages) == doc.page_count
    assert len(doc.outline) == int(row["toc_entries"])
    assert all(item.level >= 1 for item in doc.outline)
    # MANIFEST.tsv's text_runes: the length of the page texts, give or take a separator
    runes = sum(len(page) for page in doc.pages)
    expected = int(row["text_runes"])
    assert abs(runes - expected) <= max(10, expected // 100), (runes, expected)


@needs_corpus
def test_corpus_password() -> None:
    path = CORPUS / "libreoffice-writer-password.pdf"
    with pytest.raises(NeedsPassword):
        extract(path)
    with pytest.raises(WrongPassword):
        extract(path, password="permission")
    doc = extract(path, password="openpassword")
    assert doc.page_count == 1
    assert doc.pages[0].strip()


@needs_corpus
def test_corpus_image_only_page(corpus: CorpusDocs) -> None:
    doc = corpus["c03-29.pdf"]
    assert doc.page_count == 1
    assert doc.pages == ("",)


@needs_corpus
def test_corpus_chinese(corpus: CorpusDocs) -> None:
    doc = corpus["lshort-zh-cn.pdf"]
    text = "".join(doc.pages)
    assert sum("\u4e00" <= char <= "\u9fff" for char in text) > 10_000


@needs_corpus
def test_corpus_pages_equal_pymupdf(corpus: CorpusDocs) -> None:
    doc = corpus["ksp-thesis.pdf"]
    with pymupdf.open(CORPUS / "ksp-thesis.pdf") as document:
        assert doc.pages == tuple(page.get_text() for page in document)
        assert doc.title == document.metadata["title"]
        assert [(i.level, i.title, i.page) for i in doc.outline] == [
            tuple(entry[:3]) for entry in document.get_toc()
        ]
