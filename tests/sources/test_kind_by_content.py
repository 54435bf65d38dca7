"""A document's kind is what its bytes are, whatever its name says: a PDF named .docx
is read as a PDF, a Word package named .pdf as a Word document."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.docx_build import p, t, write_docx
from support.pdfs import make_pdf

from siftui.core.kinds import PDF, WORD
from siftui.sources.kinds import kind_of_bytes, kind_of_file, load_any
from siftui.sources.load_options import LoadOptions
from siftui.sources.word.kind import is_docx, is_pdf_head


def test_a_pdf_named_docx_is_a_pdf(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "report.docx", ["the first page"])
    assert not is_docx(str(pdf))
    assert kind_of_file(pdf) is PDF
    assert kind_of_bytes(pdf.name, pdf.read_bytes()) is PDF
    doc = load_any(pdf, LoadOptions(use_cache=False)).doc
    assert "the first page" in PDF.expect(doc).pages[0]


def test_a_word_package_named_pdf_is_a_word_document(tmp_path: Path) -> None:
    docx = write_docx(tmp_path / "letter.pdf", p(t("Dear reader")))
    assert kind_of_file(docx) is WORD
    assert kind_of_bytes(docx.name, docx.read_bytes()) is WORD


@pytest.mark.parametrize(
    ("head", "pdf"),
    [
        (b"%PDF-1.7\n", True),
        (b"\x00" * 500 + b"%PDF-1.4\n", True),  # after other bytes
        (b" " * 1100 + b"%PDF-1.4\n", True),  # past the first KB: MuPDF's PDF all the same
        (b"\x00" * 4096 + b"%PDF-1.4\n", True),  # the last start MuPDF's recognizer takes
        (b"\x00" * 4097 + b"%PDF-1.4\n", False),
        (b"PK\x03\x04" + b"%PDF-1.4", False),  # a ZIP package's first entry may hold it
        (b"other words\n", False),
    ],
    ids=["at-0", "at-500", "at-1100", "at-4096", "at-4097", "zip", "words"],
)
def test_where_a_pdf_header_counts(head: bytes, pdf: bool) -> None:
    assert is_pdf_head(head) is pdf


def test_a_fifo_named_docx_is_not_opened_to_look(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.docx"
    os.mkfifo(fifo)
    assert is_docx(str(fifo))  # its name decides: reading it would block
