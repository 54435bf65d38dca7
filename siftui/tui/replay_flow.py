"""Replaying a logged call: show what the agent received, then make the call again.

Choosing a call makes its request the app's request and shows the logged
answer at once. When the file is unchanged, the same call is made on the live
document (opening it first if needed); when today's siftui gives the same
bytes the live answer stays, so OutCap can be moved from there; otherwise the
logged answer stays, flagged.

`r` shows the log's report (siftui.sources.log.report) made in a worker: the
documents are loaded only when the file still has the logged sha256; choosing a
call number there jumps the replay to that call.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from siftui.core.kinds import kind_of
from siftui.sources.errors import report_unexpected
from siftui.sources.log.calllog import LogEntry
from siftui.sources.log.report import report
from siftui.sources.log.report_run import documents_of
from siftui.sources.log.report_text import summary_line
from siftui.tui.report_model import Node, report_tree
from siftui.tui.screens import LogReportScreen
from siftui.tui.state import Answer, Request, Source, logged_answer
from siftui.tui.widgets.replay import CallList, ReplayStatus

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
        options = entry.call_options
        described = kind_of(options).describe(options)
        self._where = f"call {number}: {described} at OutCap {entry.out_cap:,}"
        if entry.rendered is None:
            self.status(f"{self._where}: the agent got an error: {entry.message}", warning=True)
            return
        app = self.app
        request = Request(Source(Path(entry.path), entry.sha256 or ""), options)
        app.opener.cancel()
        app.request = request
        app.sync_controls(options)
        app.answer = logged_answer(request, entry.rendered)
        self.status(f"{self._where}: checking {Path(entry.path).name} ...")

    def checked(self, entry: LogEntry, number: int, digest: str | None) -> None:
        if self.entry is not entry or entry.rendered is None:
            return
        app = self.app
        if entry.tool not in ("read_pdf", "read_docx"):
            self.status(
                f"{self._where}: a {entry.tool or 'unknown'} call; showing the logged answer",
                warning=True,
            )
            return
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
        options = entry.call_options
        app.counter.now = True
        if app.opened is not None and app.opened.source == source:
            app.request = Request(source, options)
            app.render_request()
        else:
            self.status(f"{self._where}: opening {source.name} to re-run it ...")
            app.open_document(source.path, options=options, keep_answer=True)

    def compare(self, answer: Answer) -> Answer:
        """The live answer when it is the logged one; the logged one, flagged, if not."""
        entry = self.entry
        if entry is None or entry.rendered is None or answer.options != entry.call_options:
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

    def report(self) -> None:
        """The log's report, made in a worker, then its screen."""
        app = self.app
        lists = app.query(CallList)
        if not lists:
            app.notify("The report is of a call log: open one with siftui log FILE.")
            return
        calls = lists.first()
        entries = list(calls.entries)
        # Said only when it takes a while (documents to extract): a quick report just opens.
        slow = app.set_timer(
            0.5, lambda: app.notify("Making the report: reading the documents the calls read ...")
        )

        def work() -> None:
            try:
                found = report(entries, documents_of(entries))
                summary, tree = summary_line(found), report_tree(found)
            except Exception as error:  # one line for the user, the traceback logged
                message = report_unexpected(error, "making the log report")
                app.call_from_thread(slow.stop)
                app.call_from_thread(app.notify, message, severity="error", timeout=10)
                return
            if get_current_worker().is_cancelled:  # r again: the newer report is shown
                app.call_from_thread(slow.stop)
            else:
                app.call_from_thread(show, summary, tree)

        def show(summary: str, tree: tuple[Node, ...]) -> None:
            slow.stop()
            app.push_screen(LogReportScreen(summary, tree), jump)

        def jump(number: int | None) -> None:
            if number is not None:
                calls.show_call(number)

        app.run_worker(
            work, thread=True, exclusive=True, group="log-report", description="the log report"
        )
