"""Snapshot tests of the evidence preview (exact JSON, reading layout, a page image) and of
a live follow (pytest-textual-snapshot).

Files are made with the same bytes on every run and opened by relative names from
the test's folder, so no temporary path and no date appear in a picture. Update with
`pytest tests/tui/test_snapshots_evidence.py --snapshot-update` after checking the
new pictures by eye.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf, make_square_pdf
from support.tui_support import book_doc, careless_log, idle, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from siftui.cli.evidence_preview import preview_factory
from siftui.sources.log.follow import LogTail
from siftui.tui.app import SiftApp
from siftui.tui.evidence.screen import EvidenceScreen
from siftui.tui.factory import create_app, create_log_app
from siftui.tui.widgets.call_list import CallList

SnapCompare = Callable[..., bool]
SIZE = (110, 34)

PAGES = [
    "Field notes on entropy\nThe first measurements of entropy were taken at dawn.\n"
    "Entropy rose through the morning.",
    "Second page\nA later reading: entropy was flat.",
    "Third page\nNothing about it here.",
]
TOC = [(1, "Field notes", 1), (2, "Morning", 1), (2, "Later", 2)]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def calls(*typed: str, reading: bool = False) -> Any:
    """Open the preview (``e``), make the ``typed`` calls, and ``v`` when ``reading``."""

    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SiftApp)
        await wait_until(pilot, lambda: app.answer is not None, 60)
        await idle(app, pilot)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen))
        screen = app.screen
        assert isinstance(screen, EvidenceScreen)
        for count, text in enumerate(("", *typed), 1):
            if text:
                await pilot.press("colon")
                screen.query_one("#ev-call", Input).value = text
                await pilot.press("enter")
            await wait_until(
                pilot,
                lambda: len(screen.session.made) == count and not screen.busy,  # noqa: B023
                60,
            )
        if reading:
            await pilot.press("v")
        # A blinking cursor would make the picture depend on the moment it is taken.
        screen.query_one("#ev-view", TextArea).cursor_blink = False
        app.clear_notifications()  # toasts come and go with the machine's speed
        await idle(app, pilot)
        await pilot.pause(0.3)

    return before


def test_evidence_result_exactly(snap_compare: SnapCompare, here: Path) -> None:
    make_pdf(here / "notes.pdf", PAGES, title="Field notes", toc=TOC, stable=True)
    before = calls(
        'pdf_page_read {"documentId": "doc-1", "page": 1, "lastPage": 2, "maxChars": 90}'
    )
    assert snap_compare(
        create_app("notes.pdf", evidence=preview_factory), terminal_size=SIZE, run_before=before
    )


def test_evidence_search_in_the_reading_layout(snap_compare: SnapCompare, here: Path) -> None:
    make_pdf(here / "notes.pdf", PAGES, title="Field notes", toc=TOC, stable=True)
    before = calls(
        'pdf_keyword_search {"documentId": "doc-1", "query": "entropy", "maxResults": 3}',
        reading=True,
    )
    assert snap_compare(
        create_app("notes.pdf", evidence=preview_factory), terminal_size=SIZE, run_before=before
    )


def test_evidence_page_image(snap_compare: SnapCompare, here: Path) -> None:
    make_square_pdf(here / "square.pdf")
    before = calls('pdf_page_render {"documentId": "doc-1", "page": 1, "dpi": 72}', reading=True)
    assert snap_compare(
        create_app("square.pdf", evidence=preview_factory), terminal_size=SIZE, run_before=before
    )


def test_live_follow(snap_compare: SnapCompare, here: Path) -> None:
    write_doc(book_doc(), here, "book.json")
    log = careless_log(book_doc(), "book.json", here)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:3]))
    tail = LogTail(log)
    entries, _ = tail.read()

    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        table = app.query_one(CallList)
        await idle(app, pilot)
        with log.open("ab") as handle:
            handle.write(b"".join(lines[3:6]))
        await wait_until(pilot, lambda: table.row_count == 6 and table.cursor_row == 5)
        await wait_until(pilot, lambda: "same bytes" in str(app.query_one("#replay").render()))
        await idle(app, pilot)
        app.clear_notifications()
        await pilot.pause(0.3)

    app = create_log_app(entries, tail, follow=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=before)
