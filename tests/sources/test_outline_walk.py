"""The outline walked without recursion gives what PyMuPDF's get_toc gives."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support.hostile import deep_outline_pdf
from support.pdfs import CORPUS, CORPUS_PASSWORDS, make_rich_pdf

from siftui.sources.extract import extract
from siftui.sources.pdf_outline import walk_outline


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("*.pdf")) or ["missing"])
def test_walk_equals_get_toc_on_the_corpus(name: str) -> None:
    if not (CORPUS / name).is_file():
        pytest.skip(f"corpus not found at {CORPUS}")
    with pymupdf.open(CORPUS / name) as document:
        if document.needs_pass:
            document.authenticate(CORPUS_PASSWORDS[name])
        expected = [tuple(item) for item in document.get_toc(simple=True)]
        assert walk_outline(document) == expected


def test_walk_equals_get_toc_with_nesting_and_unknown_targets(tmp_path: Path) -> None:
    path = make_rich_pdf(tmp_path / "rich.pdf")
    with pymupdf.open(path) as document:
        assert walk_outline(document) == [tuple(i) for i in document.get_toc(simple=True)]


def test_a_thousands_deep_outline_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdf"
    path.write_bytes(deep_outline_pdf(3000))
    doc = extract(path)
    assert len(doc.outline) == 3000
    assert [item.level for item in doc.outline] == list(range(1, 3001))
    assert doc.pages
