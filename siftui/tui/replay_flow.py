"""Replaying a logged call: show what the agent received, then make the call again.

Choosing a call makes its request the app's request and shows the logged
answer at once. When the file is unchanged, the same call is made on the live
document (opening it first if needed); when today's siftui gives the same
bytes the live answer stays, so OutCap can be moved from there; otherwise the
logged answer stays, flagged.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from siftui.serve.calllog import LogEntry
from siftui.tui.state import Answer, Request, Source, logged_answer
from siftui.tui.widgets.replay import ReplayStatus
from siftui.walk import describe_options

if TYPE_CHECKING:
    from siftui.tui.app import SiftApp


class ReplayFlow:
    def __init__(self, app: SiftApp) -> None:
        self.app = app
        self.entry: LogEntry | None = None
        self._where = ""

    def status(self, message: str, *, warning: bool = False) -> None:
        widget = self.app.query_one(ReplayStatus)
        widget.message = message
        widget.warning = warning

    def chosen(self, entry: LogEntry, number: int) -> None:
        self.entry = entry
        self._where = (
            f"call {number}: {describe_options(entry.options)} at OutCap {entry.out_cap:,}"
        )
        if entry.rendered is None:
            self.status(f"{self._where}: the agent got an error: {entry.message}", warning=True)
            return
        app = self.app
        request = Request(Source(Path(entry.path), entry.sha256 or ""), entry.options)
        app.opener.cancel()
        app.request = request
        app.sync_controls(entry.options)
        app.answer = logged_answer(request, entry.rendered)
        self.status(f"{self._where}: checking {Path(entry.path).name} ...")

    def checked(self, entry: LogEntry, number: int, digest: str | None) -> None:
        if self.entry is not entry or entry.rendered is None:
            return
        app = self.app
        if digest is None:
            self.status(
                f"{self._where}: {entry.path} cannot be read now; showing the logged answer",
                warning=True,
            )
            return
        if entry.sha256 is not None and digest != entry.sha256:
            self.status(
                f"{self._where}: the file changed since the call; showing the logged answer",
                warning=True,
            )
            return
        source = Source(Path(entry.path), digest)
        app.counter.now = True
        if app.opened is not None and app.opened.source == source:
            app.request = Request(source, entry.options)
            app.render_request()
        else:
            self.status(f"{self._where}: opening {source.name} to re-run it ...")
            app.open_document(source.path, options=entry.options, keep_answer=True)

    def compare(self, answer: Answer) -> Answer:
        """The live answer when it is the logged one; the logged one, flagged, if not."""
        entry = self.entry
        if entry is None or entry.rendered is None or answer.options != entry.options:
            return answer
        if answer.request.source is None or answer.request.source.path != Path(entry.path):
            return answer
        if answer.rendered == entry.rendered:
            self.status(
                "re-run now: the same bytes the agent received · move OutCap to see another budget"
            )
            return answer
        self.status(
            "re-run now gives a different answer than the log (another siftui or PyMuPDF?); "
            "showing the logged answer",
            warning=True,
        )
        return logged_answer(answer.request, entry.rendered)
