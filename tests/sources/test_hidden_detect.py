"""Hidden text is found with the right kind, and visible text is not."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support.hidden_pdfs import (
    CONTROLS,
    HIDDEN,
    VISIBLE,
    make_hidden_pdf,
    make_scan_pdf,
    make_visible_pdf,
)
from support.same_bytes import save_pdf

from siftui.core.findings import Finding, locate
from siftui.sources.extract import extract
from siftui.sources.hidden.document import inspect_document
from siftui.sources.load_options import LoadOptions


@pytest.fixture(scope="module")
def hidden_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_hidden_pdf(tmp_path_factory.mktemp("hidden") / "hidden.pdf")


def test_every_hidden_span_is_found_with_its_kind(hidden_pdf: Path) -> None:
    inspection = inspect_document(hidden_pdf)
    found = {(f.page, f.kind, f.text) for f in inspection.findings}
    expected = {(page, kind, text) for page, items in HIDDEN.items() for kind, text in items}
    assert found == expected
    assert inspection.page_count == inspection.pages_inspected == 11


def test_visible_text_on_the_same_pages_is_not_flagged(hidden_pdf: Path) -> None:
    inspection = inspect_document(hidden_pdf)
    for finding in inspection.findings:
        assert "visible" not in finding.text.lower()
        assert VISIBLE.format(page=finding.page) not in finding.text
    assert not inspection.on_page(10)


def test_findings_are_text_the_agent_reads(hidden_pdf: Path) -> None:
    doc = extract(hidden_pdf)
    for finding in inspect_document(hidden_pdf).findings:
        where = locate(doc.pages[finding.page - 1], finding.text)
        assert where is not None, finding
        assert doc.pages[finding.page - 1][where[0] : where[1]] == finding.text


def test_boxes_are_where_the_text_is_drawn(hidden_pdf: Path) -> None:
    with pymupdf.open(hidden_pdf) as document:
        for finding in inspect_document(hidden_pdf).findings:
            x0, y0, x1, y1 = finding.bbox
            assert x0 < x1 and y0 <= y1
            if finding.kind != "off_page":
                page = document[finding.page - 1]
                width = page.rect.height if page.rotation % 180 else page.rect.width
                assert x0 >= 0 and x1 <= width


def test_text_that_only_looks_like_hiding_is_not_flagged(tmp_path: Path) -> None:
    path = make_visible_pdf(tmp_path / "visible.pdf")
    assert inspect_document(path).findings == ()
    text = extract(path).pages[0]
    assert all(line in text for line in CONTROLS)  # the controls are really there


def test_an_ocr_layer_is_its_own_kind_and_not_an_alarm(tmp_path: Path) -> None:
    inspection = inspect_document(make_scan_pdf(tmp_path / "scan.pdf"))
    assert [f.kind for f in inspection.findings] == ["ocr_layer"]
    assert inspection.findings[0].text == "A scanned letter\nDear reader, this is a scan."
    assert inspection.alarms == ()


def test_helper_processes_give_the_same_findings(tmp_path: Path, hidden_pdf: Path) -> None:
    """40+ pages in helper processes and in this one alone: the same, in page order."""
    many = tmp_path / "many.pdf"
    with pymupdf.open() as document:
        for _ in range(4):
            with pymupdf.open(hidden_pdf) as part:
                document.insert_pdf(part)
        save_pdf(document, many)
    serial = inspect_document(many, LoadOptions(workers=1))
    parallel = inspect_document(many, LoadOptions(workers=3, parallel_min_pages=1))
    assert parallel == serial
    assert len(serial.findings) == 4 * len(inspect_document(hidden_pdf).findings)
    assert [f.page for f in serial.findings] == sorted(f.page for f in serial.findings)


def test_max_pages_inspects_the_first_pages(hidden_pdf: Path) -> None:
    inspection = inspect_document(hidden_pdf, LoadOptions(max_pages=3))
    assert (inspection.page_count, inspection.pages_inspected) == (11, 3)
    assert [f.page for f in inspection.findings] == [1, 2, 3]


def test_a_hidden_bracket_or_letter_alone_is_no_finding(tmp_path: Path) -> None:
    path = tmp_path / "bracket.pdf"
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "Seen ) here", fontsize=11)
        page.insert_text((72, 120), ")", fontsize=11, color=(1, 1, 1))
        page.insert_text((72, 140), "Seen again", fontsize=11)
        page.insert_text((72, 160), "k", fontsize=11, color=(1, 1, 1))
        page.insert_text((72, 180), "Seen a third time", fontsize=11)
        page.insert_text((72, 200), "Word", fontsize=11, color=(1, 1, 1))
        save_pdf(document, path)
    assert [(f.kind, f.text) for f in inspect_document(path).findings] == [("low_contrast", "Word")]


def test_findings_are_plain_values() -> None:
    one = Finding(page=1, kind="invisible", text="x", bbox=(0.0, 0.0, 1.0, 1.0))
    assert one == Finding(1, "invisible", "x", (0.0, 0.0, 1.0, 1.0))
    assert hash(one) == hash(Finding(1, "invisible", "x", (0.0, 0.0, 1.0, 1.0)))
    assert one.alarm and not Finding(1, "ocr_layer", "x", (0, 0, 1, 1)).alarm


def test_the_garbage_collector_is_left_as_it_was(hidden_pdf: Path) -> None:
    import gc

    assert gc.isenabled()
    inspect_document(hidden_pdf, LoadOptions(max_pages=2))
    assert gc.isenabled()
    gc.disable()
    try:
        inspect_document(hidden_pdf, LoadOptions(max_pages=2))
        assert not gc.isenabled()
    finally:
        gc.enable()
