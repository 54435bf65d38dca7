# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""The one run of a page hidden-text detection makes (siftui.sources.hidden.paint), and
text on a plain rectangle decided without drawing the page (siftui.sources.hidden.plain)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support.hidden_pdfs import make_hidden_pdf, make_scan_pdf, make_visible_pdf
from support.pdfs import CORPUS
from support.same_bytes import save_pdf

import siftui.sources.hidden.detect
from siftui.sources.hidden.detect import inspect_page
from siftui.sources.hidden.document import inspect_document
from siftui.sources.hidden.paint import PAINTS, paint_log

PGF = CORPUS / "pgfmanual.pdf"


def _same_as_pymupdf(path: Path, pages: range | None = None) -> int:
    """Check paint_log against get_texttrace() and get_bboxlog(); the pages checked."""
    checked = 0
    with pymupdf.open(path) as document:
        for number in pages if pages is not None else range(document.page_count):
            page = document[number]
            painted = paint_log(page)
            assert painted.spans == page.get_texttrace()
            log = page.get_bboxlog()
            assert len(painted.log) == len(log)
            for mine, theirs in zip(painted.log, log, strict=True):
                if theirs[0] in PAINTS:
                    assert mine == theirs
                else:
                    assert mine is None  # text and strokes: counted only
            checked += 1
    return checked


def test_one_run_gives_the_text_trace_and_the_box_log(tmp_path: Path) -> None:
    for make in (make_hidden_pdf, make_visible_pdf, make_scan_pdf):
        assert _same_as_pymupdf(make(tmp_path / f"{make.__name__}.pdf"))


@pytest.mark.skipif(not PGF.is_file(), reason="no corpus")
def test_one_run_matches_pymupdf_on_pgfmanual_pages() -> None:
    # Listings on boxes, TikZ pictures with clips, shadings and text over them.
    assert _same_as_pymupdf(PGF, range(30, 1321, 97)) == 14


def _listing_pdf(path: Path, *, text: tuple[float, float, float], box: tuple[float, ...]) -> Path:
    with pymupdf.open() as document:
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(60, 90, 420, 160), color=None, fill=box)
        for line in range(4):
            page.insert_text((72, 110 + 12 * line), f"Listing line {line} here", color=text)
        save_pdf(document, path)
    return path


def test_text_on_a_plain_box_far_from_its_colour_needs_no_render(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _listing_pdf(tmp_path / "listing.pdf", text=(0, 0, 0), box=(0.9, 0.9, 1.0))

    def no_render(*_: object) -> None:
        raise AssertionError("the page was drawn")

    monkeypatch.setattr(siftui.sources.hidden.detect, "render_check", no_render)
    with pymupdf.open(path) as document:
        assert inspect_page(document[0], 1) == ([], [])


def test_text_on_a_box_of_its_own_colour_is_still_drawn_and_found(tmp_path: Path) -> None:
    path = _listing_pdf(tmp_path / "dark.pdf", text=(0, 0, 0), box=(0, 0, 0))
    found = inspect_document(path).findings
    assert [(f.kind, f.text.split("\n")) for f in found] == [
        ("low_contrast", [f"Listing line {line} here" for line in range(4)])
    ]


def test_a_thick_line_over_text_on_a_box_sends_it_to_the_render(tmp_path: Path) -> None:
    path = _listing_pdf(tmp_path / "struck.pdf", text=(0, 0, 0), box=(0.9, 0.9, 1.0))
    with pymupdf.open(path) as document:
        page = document[0]
        page.draw_line((60, 130), (420, 130), color=(0, 0, 0), width=30)  # over line 2
        save_pdf(document, tmp_path / "struck2.pdf")
    found = inspect_document(tmp_path / "struck2.pdf").findings
    assert [(f.kind, f.text) for f in found] == [("low_contrast", "Listing line 2 here")]


def test_text_whose_box_is_empty_is_still_traced(tmp_path: Path) -> None:
    # Drawn at zero horizontal scale: its box is empty, so a display list would
    # drop it, but extraction hands it to the agent.
    path = tmp_path / "zero.pdf"
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "Visible words", fontsize=11)
        xref = page.get_contents()[0]
        stream = (
            document.xref_stream(xref)
            + b"\nBT /helv 11 Tf 3 Tr 0 Tz 72 140 Td (Zero scale words) Tj ET\n"
        )
        document.update_stream(xref, stream)
        save_pdf(document, path)
    assert _same_as_pymupdf(path) == 1
    assert [f.kind for f in inspect_document(path).findings] == ["invisible"]


def test_ctrl_c_inside_the_device_waits_for_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C that lands while MuPDF runs the page through siftui's device: PyMuPDF's
    bindings caught the KeyboardInterrupt inside the callback, printed their traceback
    ("Director exception handler") and raised a MuPDF error instead, which `siftui
    inspect` reported as a page that cannot be inspected (exit 1). Now the page is
    painted whole and the KeyboardInterrupt comes after, as Python's own."""
    import os
    import signal

    from siftui.sources.hidden import paint

    device = paint._device_class()
    sent: list[bool] = []

    class Interrupting(device):  # type: ignore[misc, valid-type]
        def _note_fonts(self, text: object) -> None:
            if not sent:
                sent.append(True)
                os.kill(os.getpid(), signal.SIGINT)  # handled at the next instruction
            super()._note_fonts(text)

    monkeypatch.setattr(paint, "_DEVICE", Interrupting)
    with pymupdf.open(make_visible_pdf(tmp_path / "visible.pdf")) as document:
        before = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            paint_log(document[0])
        assert sent and signal.getsignal(signal.SIGINT) is before
        monkeypatch.setattr(paint, "_DEVICE", device)
        assert paint_log(document[0]).spans  # the next page as ever
    assert "Director" not in capfd.readouterr().err
