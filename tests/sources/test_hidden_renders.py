# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""What an inspection costs, counted (not timed): renders of a page, characters read.

A scanned page with its text drawn under the picture needs every line checked
in a sharper render; each render runs the page's display list again, which for
a scan means decoding and scaling its picture again. They share one render.
An OCR layer, which is no alarm, is found without reading the extraction's
characters one by one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.hidden_pdfs import _image, make_scan_pdf
from support.same_bytes import save_pdf

import siftui.sources.hidden.detect
from siftui.sources.hidden.document import inspect_document

LINES = [f"Line {number} of the text drawn under the picture" for number in range(12)]


def _text_under_a_picture(path: Path) -> Path:
    document = pymupdf.open()
    page = document.new_page()
    for number, line in enumerate(LINES):
        page.insert_text((72, 100 + 20 * number), line, fontsize=11)
    page.insert_image(page.rect, pixmap=_image(60, 80, (245, 245, 240)))
    save_pdf(document, path)
    document.close()
    return path


def test_lines_under_a_picture_share_one_sharper_render(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders: list[Any] = []
    original = pymupdf.DisplayList.get_pixmap

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        renders.append(kwargs.get("matrix"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pymupdf.DisplayList, "get_pixmap", counted)
    inspection = inspect_document(_text_under_a_picture(tmp_path / "under.pdf"))
    # neighbouring lines of one kind make one finding
    assert [(f.kind, f.text) for f in inspection.findings] == [("covered", "\n".join(LINES))]
    assert len(renders) == 2  # the 36-dpi one and one sharper one, not one per line


def test_an_ocr_layer_is_found_without_reading_each_character(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(page: Any) -> None:
        raise AssertionError("the extraction's characters were read")

    monkeypatch.setattr(siftui.sources.hidden.detect, "Extracted", refused)
    inspection = inspect_document(make_scan_pdf(tmp_path / "scan.pdf"))
    assert [f.kind for f in inspection.findings] == ["ocr_layer"]
    text = pymupdf.open(tmp_path / "scan.pdf")[0].get_text()
    assert all(f.text in text for f in inspection.findings)
