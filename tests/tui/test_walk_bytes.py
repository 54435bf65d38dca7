"""The walk screen in bytes lists what no call shows at an OutCap counted in bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.tui_support import run, settle, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, Static

from siftui.core.budget import BYTES
from siftui.core.doc import Doc
from siftui.core.kinds import PDF, WORD
from siftui.core.render import Options
from siftui.core.word.docjson import docx_to_json
from siftui.core.word.model import DocxDoc, Para, Story
from siftui.tui.app import SiftApp
from siftui.tui.extras import Extras
from siftui.tui.screens import WalkScreen
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.view import ContentView

# 900 characters of 3 bytes: the paragraph fits 1,000 code points, not 1,000 bytes.
DOC = DocxDoc("T", {"body": Story((Para("中" * 900), Para("short")))})


def test_a_word_walk_in_bytes_lists_the_paragraph_no_call_shows(tmp_path: Path) -> None:
    path = tmp_path / "zh.json"
    path.write_text(docx_to_json(DOC), encoding="utf-8")
    found = WORD.unreachable(DOC, 1_000, "body", BYTES)
    assert [(reach.page, reach.runes) for reach in found.pages] == [(1, 575)]

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 1_000
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.options.unit == "bytes"
        )
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        table = app.screen.query_one("#unreachable-table", DataTable)
        assert table.display
        rows = [table.get_row_at(row) for row in range(table.row_count)]
        assert [(str(row[0]), row[1]) for row in rows] == [("P1", "575")]
        title = str(app.screen.query_one("#unreachable-title", Static).render())
        assert "on 1 paragraph are unreachable by range= or anchor=" in title
        smallest = str(app.screen.query_one("#smallest-outcap", Static).render())
        assert smallest.startswith("Nothing is unreachable from OutCap 2,725 bytes up")

    run(SiftApp(path), scenario, size=(120, 40))


def test_a_pdf_walk_in_bytes_does_not_wait_for_the_counters_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the counter's worker never run, the walk screen works the tail out itself."""
    doc = Doc("尾", 2, ("预" * 1_200, "end"), ())
    monkeypatch.setattr(Extras, "_reach_next", lambda self, key, doc: None)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 2_000
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.options.unit == "bytes"
        )
        assert app.answer is not None and app.answer.unreachable is None
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        table = app.screen.query_one("#unreachable-table", DataTable)
        rows = [table.get_row_at(row) for row in range(table.row_count)]
        assert [(row[0], row[1]) for row in rows] == [("1", "539")]
        assert PDF.unreachable(doc, 2_000, unit=BYTES).runes == 539
        # The heading names the unit and counts it; each call's size in it too.
        calls = PDF.walk(doc, Options(out_cap=2_000, unit="bytes"))
        sizes = [BYTES.size(call.answer.content) for call in calls]
        heading = str(app.screen.query_one(".dialog-title", Label).render())
        assert heading.startswith("Reading the whole document at OutCap 2,000 bytes: ")
        assert f", {sum(sizes):,} bytes, " in heading
        walk = app.screen.query_one("#walk-table", DataTable)
        assert [str(column.label) for column in walk.columns.values()][4:6] == ["runes", "bytes"]
        assert [walk.get_row_at(row)[5] for row in range(walk.row_count)] == [
            f"{size:,}" for size in sizes
        ]
        # A page chosen from the list is asked for in bytes, as the walk counted.
        table.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: getattr(app.request.options, "pages", "") == "1")
        assert app.request.options == Options(pages="1", out_cap=2_000, unit="bytes")

    run(SiftApp(write_doc(doc, tmp_path)), scenario, size=(120, 40))
