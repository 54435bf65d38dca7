"""Replaying a logged call: show what the agent received, then make the call again.

Choosing a call makes its request the app's request and shows the logged
answer at once. When the file is unchanged, the same call is made on the live
document (opening it first if needed); when today's siftui gives the same
bytes the live answer stays, so OutCap can be moved from there; otherwise the
logged answer stays, flagged.

Each step returns what the app's state becomes (a
:class:`~siftui.tui.state.Change`, or the request to make again); the app makes it.
What the status line says is posted to the app (:class:`ReplaySaid`), and a call
to show by number (:class:`CallWanted`): the flow looks up no widget.

`r` shows the log's report (siftui.sources.log.report) made in a worker: the
documents are loaded only when the file still has the logged sha256; choosing a
call number there jumps the replay to that call.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.worker import get_current_worker

from siftui.core.answer import Rendered
from siftui.core.kinds import kind_of
from siftui.core.tools.table import logged_as
from siftui.sources.errors import report_unexpected
from siftui.tui.display import plural
from siftui.tui.evidence_rerun import SessionReruns
from siftui.tui.history import Calls, Spent
from siftui.tui.state import Answer, Change, Opened, Request, Source, logged_answer
from siftui.tui.widgets.replay import CallWanted, ReplaySaid

if TYPE_CHECKING:
    from siftui.sources.log.calllog import LogEntry
    from siftui.sources.log.rerun import RerunFactory
    from siftui.tui.evidence_rerun import LogReplay
    from siftui.tui.report_model import Node
    from siftui.tui.widgets.call_list import CallList


def call_list(log: LogReplay) -> CallList:
    """The list of ``log``'s calls. Its module (a DataTable) is imported only here, when
    a log is replayed: a document's start does not pay for it."""
    from siftui.tui.widgets.call_list import CallList

    return CallList(log.entries, log.tail, follow=log.follow)


def log_title(calls: int, *, following: bool = False) -> str:
    """A replay's title, before the shown call's file ("call log: 8 calls — a.pdf"): short
    enough for the header over the replay's half of the screen."""
    return f"call log: {plural(calls, 'call')}" + (" (following)" if following else "")


class ReplayFlow:
    """``entries``: the log's calls (the call list's own list, which grows as the log is
    followed); None when the app replays no log."""

    def __init__(
        self, app: App[Any], entries: list[LogEntry] | None, rerun: RerunFactory | None = None
    ) -> None:
        self.app = app
        self.entries = entries if entries is not None else []
        self.replaying = entries is not None
        self.entry: LogEntry | None = None
        self._where = ""
        self.reruns = SessionReruns(app, rerun)

    def followed(self, added: int, following: bool, skipped: list[str]) -> str:
        """The title after calls were read from a followed log (and its bad lines said): a
        replay's header names the log first, then the file of the answer shown."""
        for problem in skipped[:3]:
            self.app.notify(f"{problem} (skipped)", severity="warning")
        return log_title(len(self.entries), following=following)

    def log_calls(self, number: int) -> Calls:
        """The log's calls, call ``number`` (1-based) the one shown, for the calls line."""
        spent = tuple(
            Spent.of(
                Request(Source(Path(entry.path), entry.sha256 or ""), entry.call_options),
                entry.received.content if entry.received is not None else "",
            )
            for entry in self.entries
        )
        runes = sum(call.runes for call in spent[:number])
        size = sum(call.bytes for call in spent[:number])
        return Calls(spent, number - 1, runes, size, log=True)

    def status(self, message: str, *, warning: bool = False) -> None:
        self.app.post_message(ReplaySaid(message, warning))

    def chosen(self, entry: LogEntry, number: int) -> Change:
        """The call chosen: its request, answered by the logged answer at once; for a
        failed call, by the error the agent received (the status line says it is one)."""
        self.entry = entry
        self.reruns.forget()
        options = entry.call_options
        self._where = f"call {number}: {entry.described} at OutCap {entry.out_cap:,}"
        if entry.result is not None or self.reruns.applies(entry):
            self._where = f"call {number}: {entry.request_text}"
        request = Request(Source(Path(entry.path), entry.sha256 or ""), options)
        received = entry.received
        # A call of no document request (an evidence tool's): read_pdf's controls and
        # counter say nothing of it, so the screen hides them (replay.tcss).
        tool = "" if logged_as(entry.tool).document else str(entry.tool)
        self.app.screen.set_class(bool(tool), "-tool-call")
        if received is None:
            self._where = f"{self._where}: the agent got an error: {entry.message}"
            self.status(self._where, warning=True)
            if self.reruns.applies(entry):
                self.reruns.verdict(self.entries, number, self._said)
            # The error's text is all the agent got: the answer shown before is not it.
            error = Rendered(entry.message, False, 0, 0, 0, "")
            return Change(request, answer=logged_answer(request, error, failed=True, tool=tool))
        if self.reruns.applies(entry):
            self.reruns.verdict(self.entries, number, self._said)
        else:
            self.status(
                f"{self._where} · shown: the logged bytes the agent received; "
                f"checking {Path(entry.path).name} to re-run it ..."
            )
        return Change(request, answer=logged_answer(request, received, tool=tool))

    def _said(self, message: str, warning: bool) -> None:
        self.status(f"{self._where}: {message}", warning=warning)

    def checked(
        self, entry: LogEntry, number: int, digest: str | None, opened: Opened | None
    ) -> Change | Request | None:
        """The chosen call's file was checked: the call made again on ``opened`` when it is
        that file (a Change), or the request to open the live file with; None with the
        status saying why the logged answer stays."""
        if self.entry is not entry or entry.received is None:
            return None
        if not logged_as(entry.tool).document:
            self.status(
                f"{self._where}: a {entry.tool or 'unknown'} call; showing the logged answer",
                warning=True,
            )
            return None
        if digest is None:
            self.status(
                f"{self._where}: {entry.path} cannot be read now; showing the logged answer",
                warning=True,
            )
            return None
        if entry.sha256 is not None and digest != entry.sha256:
            self.status(
                f"{self._where}: the file changed since the call; showing the logged answer",
                warning=True,
            )
            return None
        source = Source(Path(entry.path), digest)
        request = Request(source, entry.call_options)
        if opened is not None and opened.source == source:
            return Change(request, sync=False, render=True)
        self.status(f"{self._where}: opening {source.name} to re-run it ...")
        return request

    def compare(self, answer: Answer) -> Answer:
        """The live answer when it is the logged one; the logged one, flagged, if not."""
        entry = self.entry
        if entry is None or entry.rendered is None:
            return answer
        if answer.request.source is None or answer.request.source.path != Path(entry.path):
            return answer
        options = answer.options
        if options != entry.call_options:
            unit = " bytes" if options.unit == "bytes" else ""
            self.status(
                f"{self._where} · shown: a what-if, {kind_of(options).describe(options)} at "
                f"OutCap {options.out_cap:,}{unit}: an answer the agent never got",
                warning=True,
            )
            return answer
        if answer.rendered == entry.rendered:
            self.status(
                f"{self._where} · re-run now: the same bytes the agent received · "
                "move OutCap to see another budget"
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
        if not self.replaying:
            app.notify("The report is of a call log: open one with siftui log FILE.")
            return
        entries = list(self.entries)
        # Said only when it takes a while (documents to extract): a quick report just opens.
        slow = app.set_timer(
            0.5, lambda: app.notify("Making the report: reading the documents the calls read ...")
        )

        def work() -> None:
            # The report's modules are imported here, in the worker, not with the app.
            from siftui.sources.log.report import report
            from siftui.sources.log.report_run import documents_of
            from siftui.sources.log.report_text import summary_line
            from siftui.tui.report_model import report_tree

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
            from siftui.tui.screens.log_report import LogReportScreen

            slow.stop()
            app.push_screen(LogReportScreen(summary, tree), jump)

        def jump(number: int | None) -> None:
            if number is not None:
                app.post_message(CallWanted(number))

        app.run_worker(
            work, thread=True, exclusive=True, group="log-report", description="the log report"
        )
