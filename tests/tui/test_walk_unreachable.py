"""The walk screen lists the pages with text no pages= call shows, and where that ends."""

from __future__ import annotations

from pathlib import Path

from support.tui_support import run, settle, uneven_doc, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from siftui.core.docindex import index_of
from siftui.core.render import Options, render
from siftui.core.unreachable import unreachable
from siftui.tui.app import SiftApp
from siftui.tui.screens import WalkScreen
from siftui.tui.widgets.outcap import OutCapControl

OUT_CAP = 3_000


def label_text(app: SiftApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_walk_screen_lists_unreachable_pages_and_asks_for_one(tmp_path: Path) -> None:
    doc = uneven_doc()
    path = write_doc(doc, tmp_path)
    found = unreachable(doc, OUT_CAP)
    blocks = [len(block) for block in index_of(doc).blocks]
    # The brute-force figures: the runes of each block past the OutCap.
    expected = [(page, size - OUT_CAP) for page, size in enumerate(blocks, 1) if size > OUT_CAP]
    assert [(p.page, p.runes) for p in found.pages] == expected
    assert [page for page, _ in expected] == [2, 3, 4]

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = OUT_CAP
        await settle(app, pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        table = app.screen.query_one("#unreachable-table", DataTable)
        assert table.display
        rows = [table.get_row_at(row) for row in range(table.row_count)]
        assert [(row[0], row[1], row[2]) for row in rows] == [
            (str(p), f"{r:,}", f"{blocks[p - 1]:,}") for p, r in expected
        ]
        assert [row[4] for row in rows] == [f"{p.grep_reachable_runes:,}" for p in found.pages]
        total = sum(r for _, r in expected)
        title = label_text(app, "#unreachable-title")
        assert title.startswith(f"At this OutCap {total:,} runes (")
        assert "on 3 pages are unreachable by pages=" in title
        assert f"a grep can show {found.grep_reachable_runes:,} of those runes" in title
        largest = max(blocks)
        assert label_text(app, "#smallest-outcap") == (
            f"Nothing is unreachable from OutCap {largest:,} up: "
            f"the largest page block (page {blocks.index(largest) + 1})."
        )
        await pilot.press("tab")
        assert app.screen.focused is table
        await pilot.press("down", "enter")  # the second listed page: 3
        await wait_until(pilot, lambda: not isinstance(app.screen, WalkScreen))
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.options == Options(pages="3", out_cap=OUT_CAP)
        assert app.answer.rendered == render(doc, Options(pages="3", out_cap=OUT_CAP))
        assert app.history.calls[-1].request.options == Options(pages="3", out_cap=OUT_CAP)

    run(SiftApp(path), scenario, size=(120, 40))


def test_walk_screen_says_when_nothing_is_unreachable(tmp_path: Path) -> None:
    doc = uneven_doc()
    path = write_doc(doc, tmp_path)
    largest = max(len(block) for block in index_of(doc).blocks)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = largest
        await settle(app, pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        assert not app.screen.query_one("#unreachable-table", DataTable).display
        assert label_text(app, "#unreachable-title") == (
            f"Nothing is unreachable by pages= at OutCap {largest:,}."
        )
        assert label_text(app, "#smallest-outcap").startswith(
            f"Nothing is unreachable from OutCap {largest:,} up: the largest page block"
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, WalkScreen))

    run(SiftApp(path), scenario, size=(120, 40))
