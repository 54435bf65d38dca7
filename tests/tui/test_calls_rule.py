"""Which answers are calls: one the user asks for (Enter, n, b / f, a strip click, a
slider step or release, the unit), never one the user only passes while typing or
dragging, however long it stands."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.tui_support import long_doc, run, settle, write_doc
from textual.pilot import Pilot
from textual.widgets import Static

from siftui.core.render import Options, render
from siftui.tui.app import SiftApp
from siftui.tui.widgets.outcap import OutCapControl, OutCapSlider
from siftui.tui.widgets.view import ContentView

DOC = long_doc()


@pytest.fixture
def doc_path(tmp_path: Path) -> Path:
    return write_doc(DOC, tmp_path)


def calls_line(app: SiftApp) -> str:
    return str(app.query_one("#calls-line", Static).render())


def made(app: SiftApp) -> list[Options]:
    return [call.request.options for call in app.history.calls]  # type: ignore[misc]


def test_typing_with_pauses_makes_no_call_and_enter_makes_one(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert made(app) == [Options()]  # opening the document is the first call
        await pilot.press("slash")
        for letter in "node":
            await pilot.press(letter)
            await pilot.pause(1.2)  # longer than any "let it stand" rule would wait
        await settle(app, pilot)
        assert app.answer is not None and app.answer.options == Options(grep="node")
        assert made(app) == [Options()]
        assert calls_line(app).startswith("not a call yet (Enter asks for it) · ")
        await pilot.press("enter")
        await settle(app, pilot)
        assert made(app) == [Options(), Options(grep="node")]
        assert calls_line(app).startswith("call 2 of 2 · ")

    run(SiftApp(doc_path), scenario)


def test_a_drag_is_a_call_when_let_go_and_a_key_step_at_once(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        slider = app.query_one(OutCapSlider)
        await pilot.mouse_down(slider, offset=(3, 0))
        await pilot.hover(slider, offset=(12, 0))
        await pilot.pause(1.2)
        await settle(app, pilot)
        passing = app.request.options
        assert passing.out_cap != 100_000 and made(app) == [Options()]  # still dragging
        await pilot.mouse_up(slider, offset=(20, 0))
        await settle(app, pilot)
        released = app.request.options
        assert released.out_cap != passing.out_cap
        assert made(app) == [Options(), released]
        app.query_one(ContentView).focus()
        await pilot.press("right_square_bracket")
        await settle(app, pilot)
        assert len(made(app)) == 3 and made(app)[2] == app.request.options
        assert calls_line(app).startswith("call 3 of 3 · ")

    run(SiftApp(doc_path), scenario)


def test_the_outcap_entry_asks_with_enter_not_by_leaving_it(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        entry = app.query_one(OutCapControl).input
        entry.focus()
        entry.value = "20k"
        app.query_one(ContentView).focus()  # leaving the entry sets it, as typed
        await settle(app, pilot)
        assert app.request.options.out_cap == 20_000 and made(app) == [Options()]
        entry.focus()
        entry.value = "30k"
        await pilot.press("enter")
        await settle(app, pilot)
        assert made(app) == [Options(), Options(out_cap=30_000)]

    run(SiftApp(doc_path), scenario)


def test_n_b_f_and_the_strip_are_calls_as_asked(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("n")  # the call the map names
        await settle(app, pilot)
        assert len(made(app)) == 2 and made(app)[1].pages
        await pilot.press("b")
        await settle(app, pilot)
        assert app.history.position == 0 and len(made(app)) == 2  # back: no new call
        assert calls_line(app).startswith("call 1 of 2 · ")
        await pilot.press("f")
        await settle(app, pilot)
        assert calls_line(app).startswith("call 2 of 2 · ")
        await pilot.click("#strip", offset=(0, 0))  # the first cell: page 1
        await settle(app, pilot)
        assert len(made(app)) == 3 and made(app)[2].pages.startswith("1")
        assert app.answer is not None
        assert app.answer.rendered == render(DOC, app.answer.options)  # type: ignore[arg-type]

    run(SiftApp(doc_path), scenario)


def test_a_refused_request_does_not_offer_enter_for_the_answer_shown(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("p")
        await pilot.press("2")
        await settle(app, pilot)
        assert app.answer is not None and app.answer.options == Options(pages="2")
        assert calls_line(app).startswith("not a call yet (Enter asks for it) · ")
        for key in ("0", "0", "0", "enter"):
            await pilot.press(key)
        await settle(app, pilot)
        # Enter asked for pages 2000, refused: the newest that renders stands in for it.
        assert app.refused.startswith("pages out of range")
        assert app.answer is not None and app.answer.options == Options(pages="20")
        line = calls_line(app)
        assert line.startswith("not a call: the request is refused, this is the last that renders")
        assert "Enter asks" not in line
        assert made(app) == [Options()]
        await pilot.press("p", "end")
        for _ in range(3):
            await pilot.press("backspace")
        await settle(app, pilot)
        assert app.refused == ""
        assert calls_line(app).startswith("not a call yet (Enter asks for it) · ")

    run(SiftApp(doc_path), scenario)
