"""Opening a document off the UI thread: a progress line and three messages.

The loader uses :func:`siftui.tui.preload.load_any`, the CLI's own loaders (for a
PDF the disk cache and the parallel extraction), which also says which pages could not
be read (their text is empty; the strip marks them), and posts :class:`Loader.Loaded`,
:class:`Loader.LoadFailed` or :class:`Loader.NeedsPassword`. Only the newest
open counts: an older one finishing late posts nothing.

The file `siftui FILE` names was loaded before the app started (siftui.tui.preload):
if that load has finished when the app opens the file, the loader posts its result at
once, with the first call's answer the preload made (no worker, no progress bar), so a
warm cache's document is on screen in the app's first frame.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.worker import get_current_worker

from siftui.core.messages import quoted
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.core.unreadable import UnreadablePage
from siftui.sources.errors import report_unexpected
from siftui.sources.filehash import file_sha256
from siftui.sources.load import LoadError
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import NeedsPassword, WrongPassword
from siftui.tui import preload
from siftui.tui.kinds import AnyDoc
from siftui.tui.preload import Preload, load_any
from siftui.tui.state import Outcome, Source

BAR_WIDTH = 30


@dataclass(frozen=True)
class OpenAsked:
    """An open the app asks of the loader: the file, its password, and whether pages
    without text are read with OCR."""

    path: Path
    password: str | None = field(default=None, repr=False)  # never shown
    ocr: bool = False


class OpenCancelled(Exception):
    """The open's worker was cancelled (the app quits, or a newer open took over): it
    stops waiting and reading at the next page, so quitting never waits for a load."""


class Loader(Widget):
    """One line while a document opens (its name, the pages read, a bar); hidden
    otherwise. It draws itself: one widget whose page count repaints this line only
    (Textual's ProgressBar is four, imported and mounted for the first open that
    waits, and never said which file or how many pages)."""

    DEFAULT_CSS = """
    Loader { height: 1; display: none; }
    Loader.-busy { display: block; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"loader--read", "loader--unread"}

    opening: reactive[str] = reactive("")
    """The name of the file being opened."""
    progress: reactive[tuple[int, int]] = reactive((0, 0))
    """(pages read, pages to read) of the open running now; (0, 0) until it says."""
    open_asked: reactive[OpenAsked | None] = reactive(None, init=False)
    """The open the app asks for (the app's, bound): each one set starts it; None after
    one stops the open running (None before any: nothing to stop)."""

    class Loaded(Message):
        def __init__(
            self,
            source: Source,
            doc: AnyDoc,
            password: str | None,
            unreadable: tuple[UnreadablePage, ...] = (),
            first: Outcome | None = None,
        ) -> None:
            super().__init__()
            self.source = source
            self.doc = doc
            self.password = password
            self.unreadable = unreadable  # the pages that could not be read
            self.first = first  # the first call's answer, when the preload made it

    class LoadFailed(Message):
        def __init__(self, path: Path, message: str) -> None:
            super().__init__()
            self.path = path
            self.message = message

    class Progress(Message):
        def __init__(self, serial: int, done: int, total: int) -> None:
            super().__init__()
            self.serial, self.done, self.total = serial, done, total

    class NeedsPassword(Message):
        def __init__(self, path: Path, error: str) -> None:
            super().__init__()
            self.path = path
            self.error = error

    def __init__(self, *, id: str | None = None, ocr_language: str = DEFAULT_OCR_LANGUAGE) -> None:
        super().__init__(id=id)
        self._serial = 0
        self._ocr_language = ocr_language  # what an open with OCR reads (Tesseract's codes)

    def render(self) -> Text:
        return progress_line(
            self.opening,
            *self.progress,
            self.size.width,
            self.get_component_rich_style("loader--read", partial=True),
            self.get_component_rich_style("loader--unread", partial=True),
        )

    @property
    def busy(self) -> bool:
        return self.has_class("-busy")

    def watch_open_asked(self, old: OpenAsked | None, asked: OpenAsked | None) -> None:
        if asked is not None:
            self.open(asked.path, asked.password, ocr=asked.ocr)
        elif old is not None:
            self.stop()

    def open(self, path: Path, password: str | None = None, *, ocr: bool = False) -> None:
        """Start opening ``path``; any open still running no longer counts."""
        self._serial += 1
        started = preload.take(path, password, ocr)  # begun before Textual started
        if started is not None and started.finished:
            self._post(self._serial, self._outcome(path, password, ocr, started))
            return
        self.opening, self.progress = path.name, (0, 0)
        self.add_class("-busy")
        self._load(path, password, ocr, self._serial, started)

    def stop(self) -> None:
        """Forget the open running now (its result is dropped, its reading stopped)."""
        self._serial += 1
        self.workers.cancel_group(self, "load")
        self.remove_class("-busy")

    def _post(self, serial: int, message: Message) -> None:
        # To the app, whose handlers take it: bubbling up from here would wait for each
        # ancestor's queue, after the first frame (50 ms at start).
        if serial == self._serial:
            self.remove_class("-busy")
            self.app.post_message(message)

    def on_loader_progress(self, event: Loader.Progress) -> None:
        event.stop()
        if event.serial == self._serial:
            self.progress = (event.done, event.total)

    @work(thread=True, group="load", exclusive=True, description="open a document")
    def _load(
        self, path: Path, password: str | None, ocr: bool, serial: int, started: Preload | None
    ) -> None:
        worker = get_current_worker()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise OpenCancelled
            if total <= 0:
                return
            # A repaint per page would cost more than the page itself: 5 updates a second.
            now = time.monotonic()
            if now - last[0] < 0.2 and done < total:
                return
            last[0] = now
            # Posted, not called: the extraction never waits for the screen.
            self.post_message(Loader.Progress(serial, done, total))

        try:
            message = self._outcome(path, password, ocr, started, progress)
        except OpenCancelled:
            return
        self.app.call_from_thread(self._post, serial, message)

    def _outcome(
        self,
        path: Path,
        password: str | None,
        ocr: bool,
        started: Preload | None,
        progress: Callable[[int, int], None] = lambda done, total: None,
    ) -> Message:
        """What opening ``path`` comes to (waiting for ``started``, the preload, if any;
        ``ocr``: reading pages without text in the loader's OCR languages)."""
        try:
            first = None
            if started is not None:
                digest, found = started.wait(progress)
                first = started.first
            else:
                digest = file_sha256(path) if path.is_file() else ""
                found = load_any(
                    path,
                    LoadOptions(password=password, ocr=ocr, ocr_language=self._ocr_language),
                    progress=progress,
                )
            source = Source(path, digest, ocr)
            return Loader.Loaded(source, found.doc, password, found.unreadable, first)
        except LoadError as error:
            if error.reason is NeedsPassword:
                return Loader.NeedsPassword(path, "")
            if error.reason is WrongPassword:
                return Loader.NeedsPassword(path, "Wrong password, try again.")
            return Loader.LoadFailed(path, str(error))
        except OSError as error:
            return Loader.LoadFailed(path, f"{quoted(path)}: {error.strerror or error}")
        except OpenCancelled:
            raise
        except Exception as error:  # PyMuPDF failed outside its usual types: one line, go on
            return Loader.LoadFailed(path, report_unexpected(error, f"opening {quoted(path)}"))


def progress_line(name: str, done: int, total: int, width: int, read: Style, unread: Style) -> Text:
    """ "opening NAME · page DONE of TOTAL", then a bar of the pages read and the share,
    in ``width`` cells (the bar, then the share, left out when they do not fit)."""
    line = Text(f"opening {name}", no_wrap=True, overflow="ellipsis")
    if total <= 0:
        line.append(" …")
        return line
    line.append(f" · page {min(done, total):,} of {total:,}")
    share = min(done, total) / total
    bar = max(0, min(BAR_WIDTH, width - line.cell_len - 7))
    if bar >= 5:
        filled = round(bar * share)
        line.append("  ")
        line.append("━" * filled, read)
        line.append("━" * (bar - filled), unread)
        line.append(f" {int(share * 100):3d}%")
    return line
