"""Damaged pages in the TUI: a damaged page is read as empty, and the strip says so."""

from __future__ import annotations

from pathlib import Path

from support.damaged import page_text, page_tree_pdf
from support.tui_support import RecordingApp, pdf_options, run, settle, wait_until
from textual.pilot import Pilot

from siftui.tui.app import SiftApp
from siftui.tui.strip_model import UNREADABLE_GLYPH, Kind
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.view import ContentView


def _cyclic(folder: Path) -> Path:
    path = folder / "cycle.pdf"
    path.write_bytes(page_tree_pdf(3, {2}))
    return path


def test_a_page_tree_cycle_opens_the_document_and_marks_the_damaged_page(tmp_path: Path) -> None:
    app = RecordingApp(_cyclic(tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.opened is not None
        assert [item.page for item in app.opened.unreadable] == [2]
        view = app.query_one(ContentView)
        text = "\n".join(view.lines)
        assert page_text(1).strip() in text and page_text(3).strip() in text
        strip = app.query_one(PageStrip)
        drawn = strip.current_cells()
        assert [cell.glyph for cell in drawn][1] == UNREADABLE_GLYPH
        assert drawn[0].glyph != UNREADABLE_GLYPH and drawn[2].glyph != UNREADABLE_GLYPH
        # Like a page with no text (no runes but its marker), with its own tooltip.
        assert drawn[1].empty
        tip = strip.tip(drawn[1])
        assert tip.startswith("p. 2 · ") and " no text · " in tip
        assert "p. 2 could not be read: cycle in page tree; its text is left empty" in tip
        assert "could not be read" not in strip.tip(drawn[0])
        legend = strip.render().plain.split("\n")[1]
        assert f"{UNREADABLE_GLYPH} unreadable" in legend
        assert isinstance(app, RecordingApp)
        assert any("page 2 is damaged" in seen for seen in app.seen)

    run(app, scenario)


def test_the_damaged_page_keeps_its_mark_when_the_answer_holds_it(tmp_path: Path) -> None:
    app = SiftApp(_cyclic(tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        strip = app.query_one(PageStrip)
        strip.focus()
        await pilot.press("right", "enter")  # ask for page 2 from the strip
        await settle(app, pilot)
        assert pdf_options(app).pages == "2"
        assert app.query_one(ContentView).lines == ("--- page 2 ---", "", "")
        assert strip.kinds[1] is Kind.WHOLE
        assert strip.current_cells()[1].glyph == UNREADABLE_GLYPH

    run(app, scenario)


def test_a_readable_document_shows_no_unreadable_mark(tmp_path: Path) -> None:
    path = tmp_path / "fine.pdf"
    path.write_bytes(page_tree_pdf(2, ()))
    app = SiftApp(path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        strip = app.query_one(PageStrip)
        assert UNREADABLE_GLYPH not in strip.render().plain

    run(app, scenario)


def test_h_says_why_a_damaged_document_was_not_inspected(tmp_path: Path) -> None:
    app = RecordingApp(_cyclic(tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(pilot, lambda: "not inspected" in app.extras.hidden_note)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app, RecordingApp)
        assert any(
            seen.startswith("hidden text was not inspected: ") and "page 2" in seen
            for seen in app.seen
        )

    run(app, scenario)
