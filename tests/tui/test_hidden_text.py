"""Hidden text in the TUI: the strip, the view and the counter show hidden text; `h` lists it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support.hidden_pdfs import (
    CLIPPED_AWAY,
    CLIPPED_READ,
    HIDDEN,
    make_clipped_pdf,
    make_hidden_pdf,
    make_visible_pdf,
)
from support.tui_support import RecordingApp, idle, pdf_options, run, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label

from siftui.core.doc import Doc
from siftui.core.findings import Finding, Inspection, counter_line
from siftui.core.layout import layout_of
from siftui.core.render import Options, render
from siftui.sources.load import load_doc_report
from siftui.tui.app import SiftApp
from siftui.tui.hidden_marks import hidden_marks
from siftui.tui.screens.findings import FindingsScreen
from siftui.tui.strip_model import HIDDEN_GLYPH
from siftui.tui.widgets.counter import CounterLine
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.view import ContentView

ALARM_PAGES = sorted(page for page, hidden in HIDDEN.items() if hidden[0][0] != "ocr_layer")


@pytest.fixture(scope="module")
def hidden_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_hidden_pdf(tmp_path_factory.mktemp("hidden") / "injection.pdf")


async def _inspected(app: SiftApp, pilot: Pilot[int]) -> Inspection:
    await settle(app, pilot)
    await wait_until(
        pilot,
        lambda: (
            app.answer is not None
            and app.answer.facts is not None
            and app.answer.facts.hidden is not None
        ),
        60,
    )
    await idle(app, pilot)
    found = app.extras.inspection
    assert found is not None
    return found


def _text_of(counter: CounterLine) -> str:
    return str(counter.render())


def test_marks_map_page_text_to_the_lines_of_page_blocks() -> None:
    doc = Doc("t", 2, ("  intro\nsay HIDDEN now\nend  ", "x"), ())
    found = Finding(1, "invisible", "HIDDEN now\nend", (0, 0, 1, 1))
    options = Options(pages="1-2")
    answer = render(doc, options)
    layout = layout_of(answer, options, doc)
    marks = hidden_marks(layout, doc, [found])
    lines = layout.lines
    # --- page 1 ---, "", intro, say HIDDEN now, end
    assert lines[3] == "say HIDDEN now" and lines[4] == "end"
    assert [(m.start, m.end) for m in marks.lines[3]] == [(4, 14)]
    assert [(m.start, m.end) for m in marks.lines[4]] == [(0, 3)]
    assert marks.shown == (found,)
    assert marks.kind_at(3, 4) == "invisible" and marks.kind_at(3, 3) == ""
    # A page range without the page shows none of it; an OCR layer is no alarm.
    assert (
        hidden_marks(
            layout_of(render(doc, Options(pages="2")), Options(pages="2"), doc), doc, [found]
        ).shown
        == ()
    )
    ocr = Finding(1, "ocr_layer", "intro", (0, 0, 1, 1))
    assert hidden_marks(layout, doc, [ocr]).shown == ()


def test_the_strip_view_and_counter_show_hidden_text(hidden_pdf: Path) -> None:
    app = RecordingApp(hidden_pdf)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        found = await _inspected(app, pilot)
        strip = app.query_one(PageStrip)
        glyphs = [cell.glyph for cell in strip.current_cells()]
        assert [page for page, glyph in enumerate(glyphs, 1) if glyph == HIDDEN_GLYPH] == (
            ALARM_PAGES
        )
        assert f"{HIDDEN_GLYPH} hidden text" in strip.render().plain.split("\n")[1]
        assert "hidden text: 1 span" in strip.tip(strip.current_cells()[0])
        view = app.query_one(ContentView)
        answer = app.answer
        assert answer is not None
        # Display only: the view's lines are the content, unchanged.
        assert "\n".join(view.lines) == answer.rendered.content
        assert answer.rendered == render(load_doc_report(hidden_pdf).doc, Options())
        injected = HIDDEN[1][0][1]
        line = next(n for n, text in enumerate(view.lines) if injected in text)
        column = view.lines[line].index(injected)
        assert view.hidden is not None
        assert view.hidden.kind_at(line, column) == "invisible"
        assert view.hidden.kind_at(line, column + len(injected)) == ""
        visible = next(n for n, text in enumerate(view.lines) if "Visible control text" in text)
        assert view.hidden.lines.get(visible, ()) == ()
        # The highlight is its own style.
        hidden_style = next(seg.style for seg in view._line_strip(line) if seg.text == injected)
        plain_style = next(seg.style for seg in view._line_strip(visible) if seg.text.strip())
        assert hidden_style is not None and plain_style is not None
        assert hidden_style.bgcolor != plain_style.bgcolor
        assert answer.facts is not None
        assert counter_line(found.alarms) in _text_of(app.query_one(CounterLine))
        assert len(found.alarms) == len(ALARM_PAGES)
        assert isinstance(app, RecordingApp)
        assert any("h lists them" in seen for seen in app.seen)
        # One page: the counter counts what this answer shows.
        app.query_one("#pages", Input).value = "4"
        await pilot.press("enter")
        await settle(app, pilot)
        counter = _text_of(app.query_one(CounterLine))
        runes = len(HIDDEN[4][0][1])
        assert f"hidden text: 1 span on 1 page ({runes} runes) in this answer" in counter
        app.query_one("#pages", Input).value = "10"
        await pilot.press("enter")
        await settle(app, pilot)
        assert "hidden text" not in _text_of(app.query_one(CounterLine))

    run(app, scenario, size=(120, 40))


def test_grep_lines_mark_hidden_text(hidden_pdf: Path) -> None:
    app = SiftApp(hidden_pdf)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await _inspected(app, pilot)
        app.query_one("#grep", Input).value = "previous instructions"
        await pilot.press("enter")
        await settle(app, pilot)
        view = app.query_one(ContentView)
        line = next(n for n, text in enumerate(view.lines) if text.startswith("p. 1: "))
        column = view.lines[line].index("Ignore")
        assert view.hidden is not None
        assert view.hidden.kind_at(line, column) == "invisible"
        assert "hidden text: 1 span on 1 page" in _text_of(app.query_one(CounterLine))

    run(app, scenario, size=(120, 40))


def test_h_lists_every_finding_and_enter_asks_for_its_page(hidden_pdf: Path) -> None:
    app = SiftApp(hidden_pdf)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        found = await _inspected(app, pilot)
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FindingsScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == len(found.findings)
        rows = [table.get_row_at(n) for n in range(table.row_count)]
        assert [row[1] for row in rows] == [f.kind for f in found.findings]
        assert "ocr_layer" in [row[1] for row in rows]  # every finding, alarms or not
        target = next(n for n, f in enumerate(found.findings) if f.page == 7)
        for _ in range(target):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, FindingsScreen)
        assert pdf_options(app).pages == "7"
        assert app.answer is not None and app.answer.rendered.first == 7

    run(app, scenario, size=(120, 40))


def test_h_lists_text_not_extracted_apart_and_the_counter_counts_as_it(tmp_path: Path) -> None:
    app = SiftApp(make_clipped_pdf(tmp_path / "clipped.pdf"))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        found = await _inspected(app, pilot)
        assert [f.text for f in found.alarms] == [CLIPPED_READ]
        assert [f.text for f in found.unextracted] == [CLIPPED_AWAY]
        assert "hidden text: 1 span on 1 page" in _text_of(app.query_one(CounterLine))
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FindingsScreen)
        table = screen.query_one(DataTable)
        rows = [table.get_row_at(n) for n in range(table.row_count)]
        assert [(row[1], str(row[2])) for row in rows] == [
            ("low_contrast", CLIPPED_READ),
            ("low_contrast, not extracted", CLIPPED_AWAY),
        ]
        title = str(screen.query_one(".dialog-title", Label).render())
        assert "hidden text: 1 span on 1 page" in title
        assert "1 more hidden but not extracted" in title

    run(app, scenario, size=(120, 40))


def test_a_document_without_hidden_text_shows_no_mark(tmp_path: Path) -> None:
    app = RecordingApp(make_visible_pdf(tmp_path / "visible.pdf"))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        found = await _inspected(app, pilot)
        assert found.alarms == ()
        strip = app.query_one(PageStrip)
        assert HIDDEN_GLYPH not in strip.render().plain
        assert "hidden text" not in _text_of(app.query_one(CounterLine))
        await pilot.press("h")
        await pilot.pause()
        assert not isinstance(app.screen, FindingsScreen)
        assert isinstance(app, RecordingApp)
        assert any(seen.startswith("No hidden text in visible.pdf") for seen in app.seen)

    run(app, scenario)


def test_quitting_stops_a_running_inspection(
    hidden_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped = threading.Event()

    def slow(path: Path, options: Any = None, *, progress: Any = None) -> Inspection:
        for page in range(600):  # a minute at most
            time.sleep(0.1)
            try:
                progress(page, 600)
            except BaseException:
                stopped.set()
                raise
        raise AssertionError("the inspection was never stopped")

    monkeypatch.setattr("siftui.sources.hidden.cache.cached_inspect", slow)
    app = SiftApp(hidden_pdf)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: app.answer is not None)
        await wait_until(pilot, lambda: "still looking" in app.extras.hidden_note)
        assert not stopped.is_set()

    started = time.monotonic()
    run(app, scenario)
    assert stopped.wait(10)
    assert time.monotonic() - started < 30
