"""The loader's line shows only while an open has to wait: a warm start (the preload
finished) never shows it; a slow open shows the file, the pages read and a bar, drawn
by the loader alone (a page read repaints one line, never the layout), and hides it
when the document is open."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from support.pdfs import make_pdf
from support.tui_support import open_with_o, run, settle, wait_until
from textual.pilot import Pilot

from siftui.core.doc import Doc
from siftui.core.unreadable import Extraction
from siftui.sources import load as loader
from siftui.sources.extract_process import ExtractionProcess
from siftui.tui import preload
from siftui.tui.app import SiftApp
from siftui.tui.widgets.loader import BAR_WIDTH, Loader, progress_line

PAGES = [f"Page {n}: what the agent reads." for n in range(1, 5)]


def test_a_warm_start_never_shows_the_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = make_pdf(tmp_path / "warm.pdf", PAGES, title="Warm")
    preload.start(pdf, None)
    found = preload._pending
    assert found is not None
    deadline = time.monotonic() + 60
    while not found.finished:
        assert time.monotonic() < deadline
        time.sleep(0.01)

    shown: list[bool] = []
    real_open = Loader.open

    def open_and_look(loader: Loader, *args: Any, **kwargs: Any) -> None:
        real_open(loader, *args, **kwargs)
        shown.append(loader.busy)

    monkeypatch.setattr(Loader, "open", open_and_look)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        assert shown == [False]  # the open posted its result at once: no line, no worker
        assert not [worker for worker in app.workers if worker.group == "load"]

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
        loader = app.query_one(Loader)
        try:
            await wait_until(pilot, lambda: loader.progress == (1, 4))
            await wait_until(pilot, lambda: loader.region.height == 1)  # on screen
            assert loader.busy
            line = loader.render().plain
            assert line.startswith("opening slow.pdf · page 1 of 4  ━")
            assert line.endswith("25%") and len(line) <= loader.size.width
        finally:
            release.set()
        await settle(app, pilot)
        assert app.answer is not None and not app.query_one(Loader).busy
        assert app.query_one(Loader).region.height == 0

    run(SiftApp(pdf), scenario)


READ, UNREAD = Style(color="blue"), Style(color="grey50")


def test_the_line_names_the_file_then_the_pages_then_the_bar() -> None:
    assert progress_line("a.pdf", 0, 0, 80, READ, UNREAD).plain == "opening a.pdf …"
    line = progress_line("a.pdf", 1, 4, 80, READ, UNREAD)
    head = "opening a.pdf · page 1 of 4  "
    assert line.plain == head + "━" * BAR_WIDTH + "  25%"
    read = [span for span in line.spans if span.style == READ]
    unread = [span for span in line.spans if span.style == UNREAD]
    assert [(span.start, span.end) for span in read] == [(len(head), len(head) + 8)]
    assert [(span.start, span.end) for span in unread] == [(len(head) + 8, len(head) + BAR_WIDTH)]
    whole = progress_line("a.pdf", 1_321, 1_321, 80, READ, UNREAD).plain
    assert whole.endswith("━" * BAR_WIDTH + " 100%") and "page 1,321 of 1,321" in whole


def test_a_narrow_line_drops_the_bar_before_the_pages() -> None:
    assert progress_line("a.pdf", 3, 9, 30, READ, UNREAD).plain == "opening a.pdf · page 3 of 9"
    narrow = progress_line("a.pdf", 3, 9, 45, READ, UNREAD).plain
    assert narrow.startswith("opening a.pdf · page 3 of 9  ━") and len(narrow) <= 45
    assert progress_line("a.pdf", 9, 4, 80, READ, UNREAD).plain.startswith(
        "opening a.pdf · page 4 of 4"
    )  # never more pages read than there are


class EndlessLoad:
    """A load that reads "page" after page for up to a minute, telling its progress, and
    notes whether it was stopped (its progress raised) before its end."""

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.stopped = threading.Event()
        self.ended = threading.Event()

    def __call__(self, *args: Any, progress: Any = None, **kwargs: Any) -> Extraction:
        try:
            for page in range(6_000):
                progress(page + 1, 6_000)
                self.reading.set()
                time.sleep(0.01)
        except Exception:
            self.stopped.set()
            raise
        finally:
            self.ended.set()
        raise AssertionError("read to the end")


def test_quitting_during_an_open_stops_its_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`q` while a long document opens quits at once: the loader's worker gives up at
    the next page instead of holding the app's exit until the last one."""
    pdf = make_pdf(tmp_path / "long.pdf", PAGES, title="Long")
    endless = EndlessLoad()
    monkeypatch.setattr(loader, "load_doc_report", endless)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, endless.reading.is_set)
        await pilot.press("q")

    run(SiftApp(pdf), scenario)
    assert endless.ended.wait(30) and endless.stopped.is_set()


def test_a_newer_open_stops_the_older_ones_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = make_pdf(tmp_path / "first.pdf", PAGES, title="First")
    second = make_pdf(tmp_path / "second.pdf", PAGES, title="Second")
    endless = EndlessLoad()
    real = loader.load_doc_report

    def either(path: Path, *args: Any, **kwargs: Any) -> Extraction:
        load = endless if Path(path) == first else real
        return load(path, *args, **kwargs)

    monkeypatch.setattr(loader, "load_doc_report", either)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, endless.reading.is_set)
        await open_with_o(app, pilot, second)
        await settle(app, pilot)
        assert endless.ended.wait(30) and endless.stopped.is_set()
        assert app.answer is not None and app.answer.request.source is not None
        assert app.answer.request.source.path == second

    run(SiftApp(first), scenario)


def test_waiting_for_the_preload_stops_when_asked_and_the_load_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader waits for the preload through its progress; an exception from it ends
    the wait (the app quits), not the load, which another open of the file may take."""
    pdf = make_pdf(tmp_path / "held.pdf", PAGES, title="Held")
    release = threading.Event()
    real = preload.load_any

    def held(*args: Any, **kwargs: Any) -> object:
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(preload, "load_any", held)
    monkeypatch.setattr(ExtractionProcess, "start", lambda path, password: None)
    found = preload.Preload(pdf, None)

    def give_up(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        found.wait(give_up)
    assert not found.finished
    release.set()
    digest, loaded = found.wait(lambda done, total: None)
    assert isinstance(loaded.doc, Doc) and loaded.doc.pages[0].startswith("Page 1")
    assert digest and found.first is not None


def test_an_open_asked_for_never_shows_its_password() -> None:
    from siftui.tui.widgets.loader import OpenAsked

    asked = OpenAsked(Path("a.pdf"), "s3cret-pass", ocr=True)
    assert "s3cret-pass" not in repr(asked)
    assert asked.password == "s3cret-pass"
    assert asked == OpenAsked(Path("a.pdf"), "s3cret-pass", ocr=True)
