"""Hidden text a person's eye misses is found, the true
alarms of third-party files stay (a FreeText box, a picture stamp over text,
render mode 3 under a field's value), and legible text drawn in the looks that
raised false alarms is not (item 12): generated PDFs, written as raw content
streams (tests/support/hidden_tricks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.hidden_tricks import (
    CONTROL,
    LEGIBLE_PAGES,
    OUTLINED,
    SHOWN,
    TRICKS,
    make_legible_pdf,
    make_tricks_pdf,
)

from siftui.core.findings import ALARMS, KINDS, Inspection
from siftui.sources.extract import extract
from siftui.sources.hidden.document import inspect_document


@pytest.fixture(scope="module")
def tricks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Inspection]:
    path = make_tricks_pdf(tmp_path_factory.mktemp("tricks") / "tricks.pdf")
    return path, inspect_document(path)


@pytest.fixture(scope="module")
def legible(tmp_path_factory: pytest.TempPathFactory) -> Inspection:
    return inspect_document(make_legible_pdf(tmp_path_factory.mktemp("legible") / "legible.pdf"))


@pytest.mark.parametrize("page", sorted(TRICKS))
def test_each_trick_is_found_with_its_kind(tricks: tuple[Path, Inspection], page: int) -> None:
    kind, text = TRICKS[page]
    found = [(f.kind, f.text) for f in tricks[1].on_page(page)]
    if page == 10:
        # white words after white words on a black box: only those on the page
        text = text[text.index("IGNORE") :]
    assert found == [(kind, text)]
    assert kind in ALARMS


def test_the_tricks_hide_what_the_agent_reads(tricks: tuple[Path, Inspection]) -> None:
    path, inspection = tricks
    doc = extract(path)
    for finding in inspection.findings:
        assert finding.text in doc.pages[finding.page - 1]
        assert CONTROL not in finding.text
    # the remapped page reads other words than it shows
    assert SHOWN not in doc.pages[4]


def test_a_remapped_kind_is_a_known_alarm() -> None:
    assert "remapped" in KINDS and "remapped" in ALARMS


@pytest.mark.parametrize("page", range(1, LEGIBLE_PAGES + 1))
def test_legible_looks_raise_no_alarm(legible: Inspection, page: int) -> None:
    """1 white labels on swatches (one span, calibrated colours), 2 outlined
    digits as paths under the same text at opacity 0, 3 a scan under its text
    at opacity 0, 4 grey text on white, 5 a Type 3 font of size 0.12 drawn
    13 pt high."""
    assert legible.pages_inspected == LEGIBLE_PAGES
    assert [f for f in legible.on_page(page) if f.alarm] == []


def test_text_over_a_picture_of_it_is_an_ocr_layer(legible: Inspection) -> None:
    """Opacity 0 over paths drawing its own glyphs (a browser's print of a web
    font), and over a scan: listed as the picture's text, no alarm."""
    found = {(f.page, f.kind, f.text) for f in legible.findings}
    assert (2, "ocr_layer", OUTLINED) in found
    assert (3, "ocr_layer", "Scanned words with opacity zero") in found
    assert {f.kind for f in legible.findings} == {"ocr_layer"}
