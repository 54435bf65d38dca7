"""Damaged and unusual documents: findings or one clear error, never a crash."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support.hidden_pdfs import make_hidden_pdf
from support.hostile import mutations, zero_page_pdf
from support.pdfs import make_cbz

from siftui.sources.hidden.document import inspect_document
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import ExtractError, NoPages


def test_a_document_that_is_not_a_pdf(tmp_path: Path) -> None:
    inspection = inspect_document(make_cbz(tmp_path / "comic.cbz", 3))
    assert (inspection.page_count, inspection.findings) == (3, ())


def test_no_pages(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(zero_page_pdf())
    with pytest.raises(NoPages):
        inspect_document(path)


def test_mutated_files_give_findings_or_one_line_errors(tmp_path: Path) -> None:
    data = make_hidden_pdf(tmp_path / "source.pdf").read_bytes()
    rng = random.Random(13)
    for number, (_, mutated) in enumerate(mutations(data, rng.randrange(1 << 30))):
        if number >= 12:
            break
        path = tmp_path / f"mutated-{number}.pdf"
        path.write_bytes(mutated)
        try:
            inspection = inspect_document(path, LoadOptions(timeout=60))
        except ExtractError as error:
            assert "\n" not in str(error) and str(error)
        else:
            assert inspection.pages_inspected == inspection.page_count
