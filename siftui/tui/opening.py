"""Opening a document: a fresh request, and what happens when it opens or fails.

While a file opens, the app's request names no document (``source`` None), so
no answer of the document shown before can answer it: copy, save and the rest
say "still opening …" instead of acting on the old one. Keys that change the
request (pages, grep, OutCap) are kept and act on the new document once it is
there. If the open fails, the app goes back to the document shown before.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from siftui.core.unreadable import UnreadablePage
from siftui.sources.kinds import kind_of_file
from siftui.tui.kinds import AnyDoc, AnyOptions, first_call
from siftui.tui.screens import PasswordScreen
from siftui.tui.state import Answer, Request, Source
from siftui.tui.widgets.lines import NoteLine
from siftui.tui.widgets.loader import Loader

if TYPE_CHECKING:
    from siftui.tui.app import SiftApp


@dataclass(frozen=True)
class Opened:
    """The document open now: its identity, its model (a PDF's Doc or a Word document's
    DocxDoc), how it was opened, and the pages that could not be read (their text is empty)."""

    source: Source
    doc: AnyDoc
    password: str | None
    unreadable: tuple[UnreadablePage, ...] = ()


class OpenFlow:
    def __init__(self, app: SiftApp) -> None:
        self.app = app
        self.path: Path | None = None
        self._before: tuple[Request, Answer | None] | None = None
        self._keep_answer = False

    def start(
        self,
        path: Path,
        password: str | None = None,
        *,
        options: AnyOptions | None = None,
        keep_answer: bool = False,
    ) -> None:
        """A fresh request on ``path``: pages, range and grep cleared (an agent's first
        call), OutCap kept (``options`` instead, for a replayed call or the OCR toggle).
        The request bar shows the controls of the file's kind (a Word document's or a
        PDF's) while it opens, so what is typed meanwhile asks the right kind."""
        app = self.app
        if self.path is None:
            self._before = (app.request, app.answer)
        self.path = path
        self._keep_answer = keep_answer
        kept = first_call(app.request.options, kind=kind_of_file(path))
        app.request = Request(None, options if options is not None else kept)
        app.sync_controls(app.request.options)
        app.set_error("")
        app.sub_title = f"opening {path.name} …"
        if not keep_answer:
            app.answer = None
        app.query_one(Loader).open(path, password, ocr=app.ocr)

    def cancel(self) -> None:
        """Stop waiting for the open running now (a replayed call took over)."""
        self.path, self._before = None, None
        self.app.query_one(Loader).stop()

    def loaded(self, event: Loader.Loaded) -> None:
        app = self.app
        self.path, self._before = None, None
        app.opened = Opened(event.source, event.doc, event.password, event.unreadable)
        app.query_one(NoteLine).problem = ""
        app.request = Request(event.source, app.request.options)
        app.new_document()

    def failed(self, message: str) -> None:
        """Back to the document shown before the open that failed (if there was one)."""
        app = self.app
        app.notify(message, title="Cannot open", severity="error", timeout=8)
        self.path = None
        before, self._before = self._before, None
        if before is not None and app.opened is not None:
            app.request = before[0]
            app.sync_controls(app.request.options)
            app.answer = before[1]
            app.sub_title = app.opened.source.name
            app.render_request()
            return
        app.sub_title = ""
        app.query_one(NoteLine).problem = message
        if not self._keep_answer:
            app.answer = None

    def needs_password(self, path: Path, error: str) -> None:
        def answered(password: str | None) -> None:
            if password is None:
                self.failed(f"{path}: not opened (it needs a password)")
            else:
                self.app.query_one(Loader).open(path, password, ocr=self.app.ocr)

        self.app.push_screen(PasswordScreen(path.name, error), answered)
