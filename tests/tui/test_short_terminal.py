"""An 80x24 terminal: the counter folds into two lines, the view keeps at least 12 lines,
the token line fits, notifications stay off the view's first lines, `d` shows the
counter in full, and `p` is named for the document's field (Pages, or Range)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rich.text import Text
from support.docx_build import p, write_docx
from support.tui_support import long_doc, run, settle, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast

from siftui.tui.app import SiftApp
from siftui.tui.screens import DetailsScreen
from siftui.tui.widgets.counter import CounterLine
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.view import ContentView

SHORT = (80, 24)


@pytest.fixture
def doc_path(tmp_path: Path) -> Path:
    return write_doc(long_doc(), tmp_path)


def contract(folder: Path) -> Path:
    clauses = "".join(p(f"Clause {n}: the parties agree on item {n}.") for n in range(1, 41))
    return write_docx(folder / "contract.docx", p("Agreement", style="Heading1") + clauses)


def view_lines(app: SiftApp) -> int:
    return app.query_one(ContentView).content_region.height


def shown(app: SiftApp, selector: str) -> str:
    widget = app.query_one(selector, Static)
    assert widget.display and widget.region.height == 1, selector
    return str(widget.render())


def footer_words(app: SiftApp) -> list[str]:
    return [key.description for key in app.screen.query(FooterKey)]


def test_at_80x24_the_view_keeps_12_lines_and_the_counter_folds(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.answer is not None and app.answer.agents is not None)
        assert view_lines(app) >= 12
        assert not app.query_one(CounterLine).display
        summary = shown(app, "#summary")
        assert app.answer is not None
        assert summary.startswith(f"{len(app.answer.rendered.content):,} / 100,000 runes ")
        assert "map · pages 1-9 shown" in summary
        alerts = shown(app, "#alerts")
        assert alerts.startswith("doc.json (d: details) · agents: ✗ Codex CLI shell output")
        # The token line fits whole: the short form, no ellipsis.
        await wait_until(pilot, lambda: "o200k_base" in str(app.query_one("#tokens").render()))
        tokens = app.query_one("#tokens", Static)
        line = str(tokens.render())
        assert "cl100k_base" in line and "…" not in line
        assert Text(line).cell_len <= tokens.content_region.width
        # A cut answer's note takes a line: the view still keeps 12.
        app.query_one(OutCapControl).value = 5_000
        app.query_one("#pages", Input).value = "5-40"
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered.note and app.query_one("#note").has_class("visible")
        assert view_lines(app) >= 12

    run(SiftApp(doc_path), scenario, size=SHORT)


def test_a_word_document_at_80x24_keeps_12_lines_and_says_range(tmp_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert view_lines(app) >= 12
        assert shown(app, "#alerts").startswith("contract.docx (d: details) · ")
        words = footer_words(app)
        assert "Range" in words and "Pages" not in words

    run(SiftApp(contract(tmp_path)), scenario, size=SHORT)


def test_a_pdf_footer_says_pages(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        words = footer_words(app)
        assert "Pages" in words and "Range" not in words

    run(SiftApp(doc_path), scenario, size=(110, 34))


def test_a_tall_terminal_shows_the_counter_whole(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.query_one(CounterLine).display
        assert not app.query_one("#summary").display and not app.query_one("#alerts").display

    run(SiftApp(doc_path), scenario, size=(110, 34))


def test_d_shows_the_counter_in_full(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.answer is not None and app.answer.agents is not None)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailsScreen))
        details = str(app.screen.query_one("#details-text", Static).render())
        assert "doc: 64 pages (60 extracted)" in details
        assert "OpenCode read tool (lines)" in details  # every agent, not only those over
        assert "tokens: ~" in details
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, DetailsScreen))

    run(SiftApp(doc_path), scenario, size=SHORT)


def test_notifications_never_cover_the_views_first_lines(doc_path: Path) -> None:
    async def main() -> None:
        app = SiftApp(doc_path)
        async with app.run_test(size=SHORT, notifications=True) as pilot:
            await settle(app, pilot)
            for number in range(4):
                app.notify(
                    f"Copied doc.json (pages 12-30), 11,006 runes, to the system clipboard "
                    f"(checked), message {number}",
                    title="Copy",
                )
            await pilot.pause(0.5)
            toasts = list(app.screen.query(Toast))
            assert len(toasts) == 1  # the newest replaced the others
            assert "message 3" in str(toasts[0].render())
            first = app.query_one(ContentView).content_region.y
            assert toasts[0].region.y >= first + 6

    asyncio.run(main())


@pytest.mark.parametrize("size", [(40, 10), (80, 24), (120, 40)])
def test_the_palette_key_covers_the_footers_last_column(
    doc_path: Path, size: tuple[int, int]
) -> None:
    """Keys that do not fit lie under the palette's key, docked right: the last column
    showed a letter of one of them (`^p paletteE`)."""

    async def main() -> None:
        app = SiftApp(doc_path)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            width, height = size
            widget, _ = app.screen.get_widget_at(width - 1, height - 1)
            assert "-command-palette" in widget.classes

    asyncio.run(main())
