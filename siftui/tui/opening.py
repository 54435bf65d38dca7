"""Opening a document: a fresh request, and what happens when it opens or fails.

While a file opens, the app's request names no document (``source`` None), so
no answer of the document shown before can answer it: copy, save and the rest
say "still opening …" instead of acting on the old one. Keys that change the
request (pages, grep, OutCap) are kept and act on the new document once it is
there. If the open fails, the app goes back to the document shown before.

:class:`OpenFlow` remembers the open under way; each step returns the
:class:`~siftui.tui.state.Change` the app makes (the app starts and stops the
loader, and shows the notices).
"""

from __future__ import annotations

from pathlib import Path

from siftui.tui.kinds import AnyOptions
from siftui.tui.state import KEEP, Answer, Change, Opened, Request, opening_options
from siftui.tui.widgets.loader import Loader

__all__ = ["OpenFlow", "Opened"]


class OpenFlow:
    def __init__(self) -> None:
        self.path: Path | None = None
        self._before: tuple[Request, Answer | None] | None = None
        self._keep_answer = False

    def start(
        self,
        path: Path,
        held: tuple[Request, Answer | None],
        *,
        options: AnyOptions | None = None,
        keep_answer: bool = False,
    ) -> Change:
        """A fresh request on ``path``: pages, range and grep cleared (an agent's first
        call), OutCap kept (``options`` instead, for a replayed call or the OCR toggle).
        ``held``: the app's request and answer now. The request bar shows the controls
        of the file's kind (a Word document's or a PDF's) while it opens, so what is
        typed meanwhile asks the right kind."""
        request = held[0]
        if self.path is None:
            self._before = held
        self.path = path
        self._keep_answer = keep_answer
        kept = opening_options(request.options, path)
        return Change(
            Request(None, options if options is not None else kept),
            error="",
            answer=KEEP if keep_answer else None,
            sub_title=f"opening {path.name} …",
        )

    def cancel(self) -> None:
        """Stop waiting for the open running now (a replayed call took over; the app
        stops its loader)."""
        self.path, self._before = None, None

    def loaded(self, event: Loader.Loaded, request: Request) -> Change:
        """The document opened: it is the one open, and ``request`` now names it."""
        self.path, self._before = None, None
        opened = Opened(event.source, event.doc, event.password, event.unreadable)
        request = Request(event.source, request.options)
        return Change(request, sync=False, opened=opened, problem="")

    def failed(self, message: str, opened: Opened | None) -> Change:
        """Back to the document shown before the open that failed (if there was one;
        else the note says why nothing is open)."""
        self.path = None
        before, self._before = self._before, None
        if before is not None and opened is not None:
            request, answer = before
            return Change(request, answer=answer, sub_title=opened.source.name, render=True)
        return Change(answer=KEEP if self._keep_answer else None, sub_title="", problem=message)

    def password_given(self, path: Path, password: str | None) -> Loader.LoadFailed | None:
        """The password dialog closed: None to open ``path`` with ``password``; no password
        given, the open failed (the message the loader would post)."""
        if password is None:
            return Loader.LoadFailed(path, f"{path}: not opened (it needs a password)")
        return None
