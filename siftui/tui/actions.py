"""The app's key actions: what each key of siftui.tui.keys does to the request or the answer.

A mixin of :class:`~siftui.tui.app.SiftApp`: each action proposes a request, or
acts on the answer shown (copy, save, the walk), or opens a screen; none reads
options back out of a widget.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from siftui.core.kinds import kind_of
from siftui.tui import commands, hidden_flow
from siftui.tui.kinds import first_call, next_call_any
from siftui.tui.screens import HelpScreen, PathScreen
from siftui.tui.state import Answer, Request
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.request_bar import RequestBar
from siftui.tui.widgets.view import ContentView

if TYPE_CHECKING:
    from siftui.tui.app import SiftApp


class KeyActions:
    """``action_*`` for the app's bindings, mixed into the SiftApp."""

    @property
    def _sift(self) -> SiftApp:
        return cast("SiftApp", self)  # this class is only ever mixed into SiftApp

    def _acting_on(self, doing: str) -> Answer | None:
        """The answer shown, or None with a message saying why there is none to act on."""
        app = self._sift
        if app.opening is not None:
            app.notify(
                f"Still opening {app.opening.name} …; {doing} once it is open.",
                severity="warning",
            )
            return None
        if app.answer is None:
            app.notify(f"Nothing to {doing}: no document is open.", severity="warning")
            return None
        return app.answer

    def action_copy(self) -> None:
        app = self._sift
        if (answer := app._acting_on("copy")) is not None:
            app.exports.copy(answer)

    def action_copy_json(self) -> None:
        app = self._sift
        if (answer := app._acting_on("copy")) is not None:
            app.exports.copy(answer, as_json=True)

    def action_save(self) -> None:
        app = self._sift
        if (answer := app._acting_on("save")) is not None:
            app.exports.save(answer)

    def action_focus_grep(self) -> None:
        app = self._sift
        app.query_one(RequestBar).field("grep").focus()

    def action_focus_pages(self) -> None:
        app = self._sift
        bar = app.query_one(RequestBar)
        bar.field("range" if bar.word else "pages").focus()

    def action_focus_anchor(self) -> None:
        app = self._sift
        bar = app.query_one(RequestBar)
        if not bar.word:
            app.notify("Anchors are for Word documents; a PDF is read by pages (p).")
            return
        bar.field("anchor").focus()

    def action_focus_view(self) -> None:
        app = self._sift
        app.query_one(ContentView).focus()

    def action_map(self) -> None:
        app = self._sift
        app.propose(first_call(app.request.options), call=True)
        app.query_one(ContentView).focus()

    def action_follow(self) -> None:
        app = self._sift
        answer = app._acting_on("follow the note")
        if answer is None or answer.doc is None:
            return
        call = next_call_any(answer.options, answer.rendered, answer.doc)
        if call is None:
            app.notify("Nothing to follow: this answer names no next call.")
            return
        app.propose(call, call=True)

    def action_walk(self) -> None:
        app = self._sift
        answer = app._acting_on("walk")
        if answer is not None:
            commands.walk(app, answer)

    def action_history_back(self) -> None:
        app = self._sift
        if app._acting_on("go back") is not None:
            app._travel(app.history.back(), "the first call")

    def action_history_forward(self) -> None:
        app = self._sift
        if app._acting_on("go forward") is not None:
            app._travel(app.history.forward(), "the newest call")

    def _travel(self, request: Request | None, limit: str) -> None:
        app = self._sift
        if request is None:
            app.notify(f"Already at {limit}.")
            return
        app.counter.moved()
        app._set_request(request)

    def action_outcap_down(self) -> None:
        app = self._sift
        app.query_one(OutCapControl).step_down()

    def action_outcap_up(self) -> None:
        app = self._sift
        app.query_one(OutCapControl).step_up()

    def action_open(self) -> None:
        app = self._sift

        def chosen(target: str | None) -> None:
            if target is not None:
                app.open_document(Path(target))

        title = "Open a document (PDF, EPUB, XPS, ..., Word .docx, or their JSON)"
        app.push_screen(PathScreen(title, str(Path.cwd()) + "/"), chosen)

    def action_toggle_ocr(self) -> None:
        app = self._sift
        if app._acting_on("read pages with OCR") is not None and app._pdf_only("OCR"):
            commands.toggle_ocr(app)

    def _pdf_only(self, what: str) -> bool:
        """True for a PDF; for a Word document, a message saying ``what`` is for PDFs."""
        app = self._sift
        if app.doc is not None and not kind_of(app.doc).has_pages:
            app.notify(f"{what} is for PDFs: a Word document's text is its XML, read as is.")
            return False
        return True

    def action_log_report(self) -> None:
        app = self._sift
        app.replay.report()

    def action_hidden(self) -> None:
        app = self._sift
        if app._acting_on("list hidden text") is not None and app._pdf_only("Hidden text"):
            hidden_flow.list_hidden(app)

    def action_help(self) -> None:
        app = self._sift
        app.push_screen(HelpScreen())
