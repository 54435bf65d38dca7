"""Shared pieces of the TUI tests: docs on disk, running the app, waiting."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from siftui.core.doc import Doc, OutlineItem
from siftui.core.docjson import doc_to_json
from siftui.core.render import Options
from siftui.core.unreadable import Extraction
from siftui.core.word.render import DocxOptions
from siftui.tui.app import SiftApp

Scenario = Callable[[SiftApp, Pilot[int]], Awaitable[None]]


def long_doc() -> Doc:
    """A 60-page doc with CJK, an outline and a control character: a map at 100k."""
    pages = []
    for number in range(1, 61):
        body = "\n".join(f"Line {line} of page {number}: the budget decides." for line in range(40))
        if number == 7:
            body += "\n中文页面：预算决定代理看到什么。\nEmoji 🙂 here"
        if number == 9:
            body += "\nESC here \x1b]52;c;aGk=\x07 and a bell \x07"
        pages.append(body + "\n" + "x" * 1000)
    outline = (
        OutlineItem(1, "Start", 1),
        OutlineItem(2, "Budget", 3),
        OutlineItem(1, "中文", 7),
        OutlineItem(1, "End", 60),
    )
    return Doc("A  Long  Test", 64, tuple(pages), outline)


def uneven_doc() -> Doc:
    """Page 2 far over an OutCap of 3,000, page 4 a little over, page 3 a single huge line."""
    words = "\n".join(f"line {n} of the long page" for n in range(400))
    rows = "\n".join(f"row {n}" for n in range(500))
    return Doc("Uneven", 5, ("a short first page", words, "y" * 4_000, rows, "the end"), ())


def book_doc() -> Doc:
    """Eight short pages: at an OutCap of 1,200 the map shows page 1, a range four pages."""
    return Doc(
        "Book",
        8,
        tuple(
            "\n".join(f"Page {page} line {line}: the quick brown fox jumps" for line in range(6))
            for page in range(1, 9)
        ),
        (),
    )


# A careless agent (as in tests/reports/test_logreport.py) at OutCap 1,200 on book_doc():
# the map, a range cut with a note it never follows, a re-read then the same call again
# (a loop), a bad pattern fixed at once by one with no match, a page out of range.
CARELESS: tuple[tuple[str, str], ...] = (
    ("", ""),
    ("2-8", ""),
    ("2-3", ""),
    ("2-3", ""),
    ("", "fox ("),
    ("", "fox \\("),
    ("", "line 5"),
    ("99", ""),
)


def careless_log(doc: Doc, path: str, folder: Path, out_cap: int = 1200) -> Path:
    """A call log of CARELESS on ``doc`` (stored at ``path``, as the log names it), then
    a call of another tool, which names no document. Errors hold render's messages."""
    from dataclasses import replace

    from siftui.core.render import BadGrep, BadPages, Options, render
    from siftui.sources.filehash import file_sha256
    from siftui.sources.log.calllog import LogEntry, entry_to_line

    sha = file_sha256(path)
    name = Path(path).name
    lines = []
    for number, (pages, grep) in enumerate(CARELESS, 1):
        time = f"2026-01-01T10:00:{number:02d}Z"
        try:
            answer = render(doc, Options(pages=pages, grep=grep, out_cap=out_cap))
        except (BadGrep, BadPages) as error:
            entry = LogEntry(time, name, path, sha, pages, grep, out_cap, 1.0, None, str(error))
        else:
            entry = LogEntry(time, name, path, sha, pages, grep, out_cap, 1.0, answer)
        lines.append(entry_to_line(entry))
    other = LogEntry("2026-01-01T10:01:00Z", "", "", None, "", "", out_cap, 0.1, None)
    other = replace(other, tool="list_files", message="unknown tool: list_files")
    lines.append(entry_to_line(other))
    log = folder / "calls.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    return log


def write_doc(doc: Doc, folder: Path, name: str = "doc.json") -> Path:
    path = folder / name
    path.write_text(doc_to_json(doc), encoding="utf-8")
    return path


def run(app: SiftApp, scenario: Scenario, size: tuple[int, int] = (100, 32)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(app, pilot)

    asyncio.run(main())


async def wait_until(
    pilot: Pilot[Any], condition: Callable[[], object], seconds: float = 20
) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.05)


async def idle(app: App[Any], pilot: Pilot[Any], seconds: float = 30) -> None:
    """Wait until no worker runs. (wait_for_complete raises for a worker that an
    exclusive newer one cancelled, which is the app working as meant.)"""
    await wait_until(pilot, lambda: not any(w.is_running for w in app.workers), seconds)
    await pilot.pause()


async def settle(app: SiftApp, pilot: Pilot[int]) -> None:
    """Wait until the workers are done and the view shows the current request."""
    await wait_until(pilot, lambda: app.answer is not None)
    await idle(app, pilot)


class RecordingApp(SiftApp):
    """The app, keeping every notification's text in ``seen`` (public API only)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[str] = []

    def notify(self, message: str, *args: Any, **kwargs: Any) -> None:
        self.seen.append(str(message))
        super().notify(message, *args, **kwargs)


@contextlib.contextmanager
def gate_extraction(seconds: float = 20) -> Iterator[threading.Event]:
    """The TUI's loader (the ``load_doc_report`` its ``load_any`` calls) waits for the
    event: a load as slow as the test wants. Set on exit, so no thread stays blocked."""
    from siftui.sources import load as loader
    from siftui.sources.load import load_doc_report as real

    event = threading.Event()

    def gated(*args: Any, **kwargs: Any) -> Extraction:
        event.wait(seconds)
        return real(*args, **kwargs)

    loader.load_doc_report = gated
    try:
        yield event
    finally:
        event.set()
        loader.load_doc_report = real


def pdf_options(app: SiftApp) -> Options:
    """The app's request options, which a PDF's test expects to be a PDF's."""
    options = app.request.options
    assert isinstance(options, Options), options
    return options


def pdf_doc(app: SiftApp) -> Doc | None:
    """The document open, which a PDF's test expects to be a PDF's (None: none open)."""
    doc = app.doc
    assert doc is None or isinstance(doc, Doc), type(doc)
    return doc


def word_options(options: object) -> DocxOptions:
    """Options a Word document's test expects to be a Word document's."""
    assert isinstance(options, DocxOptions), options
    return options


async def open_with_o(app: SiftApp, pilot: Pilot[int], path: Path) -> None:
    """Open ``path`` as a user does: `o` in the view, the path typed, Enter."""
    from textual.widgets import Input

    from siftui.tui.screens import PathScreen
    from siftui.tui.widgets.view import ContentView

    app.query_one(ContentView).focus()
    await pilot.press("o")
    await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
    app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(app.screen, PathScreen))
