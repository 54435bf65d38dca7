"""The loader's progress bar exists only for an open that has to wait: a warm start
(the preload finished) never imports nor mounts it; a slow open shows it, with the
progress the extraction reports, and hides it when the document is open."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf
from support.tui_support import run, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import ProgressBar

from siftui.core.unreadable import Extraction
from siftui.sources import load as loader
from siftui.tui import preload
from siftui.tui.app import SiftApp
from siftui.tui.widgets.loader import Loader

PAGES = [f"Page {n}: what the agent reads." for n in range(1, 5)]


def test_a_warm_start_mounts_no_progress_bar(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "warm.pdf", PAGES, title="Warm")
    preload.start(pdf, None)
    found = preload._pending
    assert found is not None
    deadline = time.monotonic() + 60
    while not found.finished:
        assert time.monotonic() < deadline
        time.sleep(0.01)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        assert not app.query(ProgressBar)

    run(SiftApp(pdf), scenario)


def test_a_slow_open_shows_its_progress_then_hides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = make_pdf(tmp_path / "slow.pdf", PAGES, title="Slow")
    release = threading.Event()
    real = loader.load_doc_report

    def slow(*args: Any, progress: Any = None, **kwargs: Any) -> Extraction:
        if progress is not None:
            progress(1, 4)  # what the extraction says after its first page
        release.wait(30)
        return real(*args, progress=progress, **kwargs)

    monkeypatch.setattr(loader, "load_doc_report", slow)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        try:
            await wait_until(pilot, lambda: bool(app.query(ProgressBar)))
            bar = app.query_one(ProgressBar)
            await wait_until(pilot, lambda: bar.total == 4 and bar.progress == 1)
            await wait_until(pilot, lambda: bar.region.height == 1)  # on screen
            assert app.query_one(Loader).busy
        finally:
            release.set()
        await settle(app, pilot)
        assert app.answer is not None and not app.query_one(Loader).busy
        assert app.query_one(Loader).region.height == 0

    run(SiftApp(pdf), scenario)
