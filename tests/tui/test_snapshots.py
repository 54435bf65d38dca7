"""Snapshot tests of the main views (pytest-textual-snapshot).

Docs are written as Doc JSON so that the pictures do not depend on the
PyMuPDF version. Update with `pytest tests/test_snapshots.py --snapshot-update`
after checking the new pictures by eye.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.docx_build import p, write_docx
from support.pdfs import make_encrypted_pdf
from support.tui_support import (
    book_doc,
    careless_log,
    idle,
    long_doc,
    uneven_doc,
    wait_until,
    write_doc,
)
from textual.pilot import Pilot
from textual.widgets import Input

from siftui.sources.log.reading import read_log
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.screens import HelpScreen, LogReportScreen, PasswordScreen, WalkScreen
from siftui.tui.widgets.outcap import OutCapControl

SnapCompare = Callable[..., bool]
SIZE = (110, 34)


@pytest.fixture
def doc_path(tmp_path: Path) -> Path:
    return write_doc(long_doc(), tmp_path)


async def _settled(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SiftApp)
    await wait_until(pilot, lambda: app.answer is not None)
    await idle(app, pilot)
    await pilot.pause()


def _request(pages: str = "", grep: str = "", out_cap: int | None = None) -> Any:
    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SiftApp)
        await _settled(pilot)
        if out_cap is not None:
            app.query_one(OutCapControl).value = out_cap
        app.query_one("#pages", Input).value = pages
        app.query_one("#grep", Input).value = grep
        await pilot.pause()
        app.query_one("#pages", Input).focus()
        await pilot.press("enter")  # a call now (not after standing 1 s): one picture
        await pilot.pause()
        await idle(app, pilot)
        app.action_focus_view()
        await pilot.pause()

    return before


def test_map_view(snap_compare: SnapCompare, doc_path: Path) -> None:
    assert snap_compare(SiftApp(doc_path), terminal_size=SIZE, run_before=_request())


def test_page_range_with_a_cut_note(snap_compare: SnapCompare, doc_path: Path) -> None:
    before = _request(pages="5-40", out_cap=5_000)
    assert snap_compare(SiftApp(doc_path), terminal_size=SIZE, run_before=before)


def test_grep_results(snap_compare: SnapCompare, doc_path: Path) -> None:
    before = _request(grep="page 7:|中文", pages="6-8")
    assert snap_compare(SiftApp(doc_path), terminal_size=SIZE, run_before=before)


def test_bad_grep_keeps_the_last_view(snap_compare: SnapCompare, doc_path: Path) -> None:
    before = _request(grep="(unclosed")
    assert snap_compare(SiftApp(doc_path), terminal_size=SIZE, run_before=before)


def test_password_prompt(snap_compare: SnapCompare, tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "locked.pdf", "secret")

    async def before(pilot: Pilot[Any]) -> None:
        await wait_until(
            pilot,
            lambda: isinstance(pilot.app.screen, PasswordScreen) and pilot.app.screen.query(Input),
        )
        # A blinking cursor would make the picture depend on the moment it is taken.
        pilot.app.screen.query_one(Input).cursor_blink = False
        await idle(pilot.app, pilot)
        # The dialog's auto height settles over a frame or two after it is mounted.
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.3)

    assert snap_compare(SiftApp(path), terminal_size=SIZE, run_before=before)


def test_tiny_terminal(snap_compare: SnapCompare, doc_path: Path) -> None:
    assert snap_compare(SiftApp(doc_path), terminal_size=(40, 12), run_before=_request())


def test_help_at_80x24(snap_compare: SnapCompare, doc_path: Path) -> None:
    async def before(pilot: Pilot[Any]) -> None:
        await _settled(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause(0.3)

    assert snap_compare(SiftApp(doc_path), terminal_size=(80, 24), run_before=before)


def test_walk_lists_unreachable_pages(snap_compare: SnapCompare, tmp_path: Path) -> None:
    path = write_doc(uneven_doc(), tmp_path)

    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SiftApp)
        await _settled(pilot)
        entry = app.query_one(OutCapControl).input
        entry.value = "3000"
        entry.focus()
        await pilot.press("enter")  # asked for: the answer is a call
        await idle(app, pilot)
        await wait_until(pilot, lambda: app.calls.position == 1)
        app.action_focus_view()
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        await idle(app, pilot)  # the counter's workers too: a loaded machine is slower
        await pilot.pause(0.3)

    assert snap_compare(SiftApp(path), terminal_size=SIZE, run_before=before)


def test_log_report_screen(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the log names book.json relatively: one picture anywhere
    write_doc(book_doc(), tmp_path, "book.json")
    entries = read_log(careless_log(book_doc(), "book.json", tmp_path))

    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        await wait_until(pilot, lambda: app.query_one("#replay").display)
        await idle(app, pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, LogReportScreen))
        await pilot.pause(0.3)

    assert snap_compare(create_log_app(entries), terminal_size=SIZE, run_before=before)


def test_map_view_at_80x24(snap_compare: SnapCompare, doc_path: Path) -> None:
    """The counter folded into two lines, no header: the view keeps 13 lines."""
    assert snap_compare(SiftApp(doc_path), terminal_size=(80, 24), run_before=_request())


def test_word_document_at_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    clauses = "".join(p(f"Clause {n}: the parties agree on item {n}.") for n in range(1, 41))
    path = write_docx(tmp_path / "contract.docx", p("Agreement", style="Heading1") + clauses)

    async def before(pilot: Pilot[Any]) -> None:
        await _settled(pilot)
        await pilot.pause(0.3)

    assert snap_compare(SiftApp(path), terminal_size=(80, 24), run_before=before)
