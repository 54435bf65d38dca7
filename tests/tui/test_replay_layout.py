"""The replay's and the follow's layout: the call table between the
header and the footer, the result keeping most columns at 80x24, and an evidence call
shown without read_pdf's request, OutCap, counter and strip.

Snapshot pictures at 80x24 and 120x40 (pytest-textual-snapshot; update with
`pytest tests/tui/test_replay_layout.py --snapshot-update` after checking them by eye),
and the same facts as regions, which hold on any terminal of those sizes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.evidence_log import log_session
from support.tui_support import book_doc, careless_log, idle, run, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import Header

from siftui.cli.evidence_preview import rerun_factory
from siftui.sources.log.reading import read_log
from siftui.sources.sample import sample_path
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.widgets.call_list import CallList
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.replay import ReplayStatus
from siftui.tui.widgets.request_bar import RequestBar
from siftui.tui.widgets.view import ContentView

SnapCompare = Callable[..., bool]
SIZES = ((80, 24), (120, 40))
IDS = ["80x24", "120x40"]


def evidence_log(folder: Path) -> Path:
    """The evidence session of support.evidence_log on the sample, its times fixed (the
    table shows them) and its file named by a relative path (no temporary folder)."""
    pdf = folder / "notes.pdf"
    shutil.copyfile(sample_path(), pdf)
    log = folder / "calls.jsonl"
    log_session(pdf, log)
    lines = []
    for number, line in enumerate(log.read_text("utf-8").splitlines(), 1):
        entry = json.loads(line)
        entry["time"] = f"2026-01-01T10:00:{number:02d}Z"
        entry["duration_ms"] = 1.0
        entry["process"] = 1
        lines.append(json.dumps(entry, ensure_ascii=False) + "\n")
    log.write_text("".join(lines), "utf-8")
    return log


async def rerun_said(app: SiftApp, pilot: Pilot[Any], number: int) -> None:
    """Call ``number`` chosen, its session's re-run verdict said, every worker done."""
    app.query_one(CallList).show_call(number)
    status = app.query_one(ReplayStatus)
    await wait_until(
        pilot,
        lambda: status.message.startswith(f"call {number}:") and "re-run gives" in status.message,
        120,
    )
    await idle(app, pilot)
    app.clear_notifications()
    await pilot.pause(0.3)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_an_evidence_call_in_the_replay(
    snap_compare: SnapCompare, here: Path, size: tuple[int, int]
) -> None:
    entries = read_log(evidence_log(here))

    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SiftApp)
        await rerun_said(app, pilot, 3)

    app = create_log_app(entries, rerun=rerun_factory)
    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_read_pdf_call_in_the_replay(
    snap_compare: SnapCompare, here: Path, size: tuple[int, int]
) -> None:
    write_doc(book_doc(), here, "book.json")
    entries = read_log(careless_log(book_doc(), "book.json", here))

    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SiftApp)
        app.query_one(CallList).show_call(2)
        status = app.query_one(ReplayStatus)
        await wait_until(pilot, lambda: "same bytes" in status.message, 60)
        await idle(app, pilot)
        app.clear_notifications()
        await pilot.pause(0.3)

    assert snap_compare(create_log_app(entries), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_table_leaves_the_header_and_the_result_their_room(
    here: Path, size: tuple[int, int]
) -> None:
    entries = read_log(evidence_log(here))
    width, _ = size

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await rerun_said(app, pilot, 3)
        table = app.query_one(CallList).region
        header = app.query_one(Header)
        if header.display:  # a tall terminal: the table starts under it
            assert not table.overlaps(header.region)
        view = app.query_one(ContentView).region
        assert view.width >= 48  # 80x24: the table took 62 of 80 columns, 14 were left
        assert not table.overlaps(view)
        # An evidence call: none of read_pdf's controls, which say nothing of it.
        for widget in (RequestBar, OutCapControl):
            assert not app.query_one(widget).display or app.query_one(widget).region.height == 0
        assert "pdf_keyword_search result" in str(app.query_one(ContentView).border_title)
        await rerun_said(app, pilot, 2)  # pdf_page_read: an evidence call too
        assert not app.query_one(RequestBar).region.height
        assert view.width + table.width <= width

    run(create_log_app(entries, rerun=rerun_factory), scenario, size=size)


def test_a_read_pdf_call_keeps_its_controls(here: Path) -> None:
    write_doc(book_doc(), here, "book.json")
    entries = read_log(careless_log(book_doc(), "book.json", here))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        app.query_one(CallList).show_call(2)
        await wait_until(pilot, lambda: "same bytes" in app.query_one(ReplayStatus).message, 60)
        await idle(app, pilot)
        assert app.query_one(RequestBar).region.height > 0
        assert app.query_one(OutCapControl).region.height > 0
        assert "-tool-call" not in app.screen.classes

    run(create_log_app(entries), scenario, size=(80, 24))
