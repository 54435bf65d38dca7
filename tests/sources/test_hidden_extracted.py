# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Findings are text the extraction holds; hidden text it leaves out is listed apart.

On generated pages (white words on the white page, some clipped away so that
MuPDF's extraction drops them) and on pgfmanual.pdf's clipped mind maps. Also:
one count, whoever counts (the counter of a ``pages=P`` answer, ``h``'s list,
``siftui inspect``'s summary).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hidden_pdfs import (
    CLIPPED_AWAY,
    CLIPPED_READ,
    MASKED,
    make_clipped_pdf,
    make_far_apart_pdf,
    make_masked_pdf,
)
from support.pdfs import CORPUS
from support.same_bytes import save_pdf

from siftui.core.doc import Doc
from siftui.core.findings import Inspection, summary_line
from siftui.core.layout import layout_of
from siftui.core.render import Options, render
from siftui.sources.hidden.detect import inspect_page
from siftui.sources.hidden.document import inspect_document
from siftui.tui.hidden_marks import hidden_marks

PGF = CORPUS / "pgfmanual.pdf"


def test_clipped_white_words_are_apart_and_no_alarm(tmp_path: Path) -> None:
    path = make_clipped_pdf(tmp_path / "clipped.pdf")
    inspection = inspect_document(path)
    text = pymupdf.open(path)[0].get_text()
    assert CLIPPED_AWAY not in text  # MuPDF's extraction drops it: no agent reads it
    assert [(f.kind, f.text) for f in inspection.findings] == [("low_contrast", CLIPPED_READ)]
    assert [(f.kind, f.text) for f in inspection.unextracted] == [("low_contrast", CLIPPED_AWAY)]
    assert all(f.text in text for f in inspection.findings)
    assert "1 more hidden but not extracted" in summary_line(inspection)


_WORDS = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC", min_size=2, max_size=8),
    min_size=1,
    max_size=4,
).map(" ".join)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(_WORDS, st.booleans()), min_size=1, max_size=5))
def test_findings_are_always_extracted_text(tmp_path: Path, lines: list[tuple[str, bool]]) -> None:
    path = make_clipped_pdf(tmp_path / "lines.pdf", lines)
    inspection = inspect_document(path)
    text = pymupdf.open(path)[0].get_text()
    # Each line is on its own line of the page, white on white: hidden. The ones
    # the extraction holds are findings, spelt as its text; the rest are apart.
    read = [words for words, clipped in lines if not clipped]
    away = [words for words, clipped in lines if clipped]
    assert all(f.text in text for f in inspection.findings)
    assert [f.text for f in inspection.findings] == read
    assert [f.text for f in inspection.unextracted] == away
    assert all(f.alarm for f in inspection.findings)


def test_neighbours_in_the_text_a_page_apart_are_two_findings(tmp_path: Path) -> None:
    inspection = inspect_document(make_far_apart_pdf(tmp_path / "far.pdf"))
    assert [f.text for f in inspection.findings] == [
        "Invisible words at the foot",
        "Invisible words at the head",
    ]
    for finding in inspection.findings:
        assert finding.bbox[3] - finding.bbox[1] < 20  # one line each, not the page


def _pgf_pages(numbers: list[int]) -> tuple[Doc, Inspection]:
    """pgfmanual's pages ``numbers``, inspected one by one, in a Doc whose other pages are empty."""
    if not PGF.is_file():
        pytest.skip(f"{PGF} is not here")
    findings = []
    unextracted = []
    with pymupdf.open(PGF) as document:
        texts = [""] * document.page_count
        for number in numbers:
            page = document[number - 1]
            texts[number - 1] = page.get_text()
            read, apart = inspect_page(page, number)
            findings.extend(read)
            unextracted.extend(apart)
        count = document.page_count
    doc = Doc(title="pgfmanual", page_count=count, pages=tuple(texts))
    return doc, Inspection(count, len(numbers), tuple(findings), tuple(unextracted))


def test_pgfmanual_mind_maps_clipped_away_are_not_alarms() -> None:
    doc, inspection = _pgf_pages([85, 88, 396])
    for finding in inspection.findings:
        assert finding.text in doc.pages[finding.page - 1]
    apart = {(f.page, f.text) for f in inspection.unextracted}
    assert {(88, "OracleMachines"), (88, "Circuits")} <= apart
    # an animation's first frame, clipped away; its "ff" is one glyph
    assert (396, "Effect") in apart
    assert not any(f.page == 85 for f in inspection.alarms)  # all of p. 85's is clipped away
    assert any(f.page == 85 for f in inspection.unextracted)


def test_one_count_the_counter_the_list_and_the_summary() -> None:
    pages = [85, 88, 387, 391, 1255]
    doc, inspection = _pgf_pages(pages)
    for finding in inspection.findings:
        assert finding.text in doc.pages[finding.page - 1]
    for page in pages:
        options = Options(pages=str(page))
        answer = render(doc, options)
        shown = hidden_marks(layout_of(answer, options, doc), doc, inspection.findings).shown
        assert list(shown) == [f for f in inspection.alarms if f.page == page]
    # The summary counts the alarms as the counter does, page by page.
    total = len(inspection.alarms)
    assert summary_line(inspection).startswith(f"hidden text: {total} spans on ")


def test_a_finding_s_box_is_in_the_page_s_own_coordinates(tmp_path: Path) -> None:
    """A crop box that does not start at 0,0: the box is where MuPDF's text is."""
    path = tmp_path / "cropped.pdf"
    with pymupdf.open() as document:
        page = document.new_page(width=1190, height=1684)
        page.insert_text((250, 300), "Visible words for every reader.", fontsize=11)
        page.insert_text((250, 340), "White words on the white page", fontsize=11, color=(1, 1, 1))
        page.set_cropbox(pymupdf.Rect(173, 247, 1014, 1437))
        save_pdf(document, path)
    with pymupdf.open(path) as document:
        page = document[0]
        words = [w for w in page.get_text("words") if w[4] in {"White", "page"}]
        findings, apart = inspect_page(page, 1)
    assert [f.text for f in findings] == ["White words on the white page"]
    assert apart == []
    x0, y0, x1, y1 = findings[0].bbox
    assert abs(x0 - words[0][0]) < 1 and abs(x1 - words[-1][2]) < 1
    assert y0 < words[0][3] and words[0][1] < y1


def test_words_shaping_a_soft_mask_are_seen_in_what_is_painted_through_it(
    tmp_path: Path,
) -> None:
    red = inspect_document(make_masked_pdf(tmp_path / "red.pdf"))
    assert red.findings == ()
    white = inspect_document(make_masked_pdf(tmp_path / "white.pdf", paint="1 1 1"))
    assert [(f.kind, f.text) for f in white.findings] == [("low_contrast", MASKED)]
