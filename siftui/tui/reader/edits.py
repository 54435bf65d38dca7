"""The person's changes to the draft: undo, redo, deleting an annotation, discarding
the draft. Each is a transaction of the working copy and so a revision, as an
agent's call is; deleting and discarding ask first.

Each runs in a thread worker (the working copy may be busy with an agent's call);
what it did, or why it was refused, is said in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from siftui.tui.reader.model import EditRefused, WorkingView
from siftui.tui.reader.tabs import Open


class Edits:
    """``screen``'s edits on the tab ``shown`` gives; ``redraw`` draws it again after one."""

    def __init__(
        self, screen: Screen[Any], shown: Callable[[], Open | None], redraw: Callable[[], None]
    ) -> None:
        self.screen = screen
        self._shown = shown
        self._redraw = redraw

    def _view(self) -> WorkingView | None:
        shown = self._shown()
        if shown is None:
            self.screen.notify("No document is open: o opens one.")
            return None
        return shown.view

    def undo(self) -> None:
        if (view := self._view()) is not None:
            self._run(view.undo, "undo")

    def redo(self) -> None:
        if (view := self._view()) is not None:
            self._run(view.redo, "redo")

    def delete(self, annotation: str | None) -> None:
        view = self._view()
        if view is None:
            return
        if annotation is None:
            self.screen.notify("No annotation is chosen: a lists the page's annotations.")
            return
        from siftui.tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(lambda: view.delete_annotation(annotation), "delete")

        self.screen.app.push_screen(
            ConfirmScreen(f"Delete {annotation} (and its replies) from the draft?"), answered
        )

    def discard(self) -> None:
        view = self._view()
        if view is None:
            return
        from siftui.tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(view.discard, "discard")

        self.screen.app.push_screen(
            ConfirmScreen(
                f"Discard the draft of {view.path.name}: every change not saved to the file?"
            ),
            answered,
        )

    def _run(self, change: Callable[[], str], what: str) -> None:
        app = self.screen.app

        def work() -> None:
            try:
                done = change()
            except EditRefused as error:
                app.call_from_thread(app.notify, str(error), severity="warning")
                return
            except Exception as error:  # one line for the person, the traceback logged
                from siftui.sources.errors import report_unexpected

                message = report_unexpected(error, f"the reader's {what}")
                app.call_from_thread(app.notify, message, severity="error")
                return
            app.call_from_thread(app.notify, done)
            app.call_from_thread(self._redraw)

        app.run_worker(work, thread=True, group="edit", description=f"the reader's {what}")
