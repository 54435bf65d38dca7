"""The save dialog (E19): an agent asks to write the draft over the file.

It takes the focus when it opens. ``y`` approves, ``n`` or ``escape`` declines, and
no other key decides: it has no buttons (Enter or Space on a focused button would
decide), the changes scroll with the arrows and page keys, and every other key
is swallowed, so a keystroke meant for something else never reaches the reader
beneath nor approves. When the host stops waiting (its time is up), the dialog
closes by itself with no decision.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from siftui.core.reader import changes_text
from siftui.tui.display import escape_lines
from siftui.tui.keys import APPROVAL_KEYS, bindings
from siftui.tui.reader.model import SaveRequest
from siftui.tui.screens.styles import DIALOG_CSS
from siftui.tui.screens.title import dialog_title

PASSED = frozenset({"y", "n", "escape", "up", "down", "pageup", "pagedown", "home", "end"})
"""The keys that go on to the bindings: the deciding ones (this screen's) and the
scrolling ones (the changes' list)."""


class ApprovalScreen(ModalScreen[bool | None]):
    """One save request: dismissed with True (approved), False (declined), or None
    when the host stopped waiting first."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = bindings(APPROVAL_KEYS)
    AUTO_FOCUS = "#approval-changes"

    def __init__(self, request: SaveRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        who = f"{request.agent} asks" if request.agent else "An agent asks"
        with Vertical(classes="dialog approval"):
            yield dialog_title(f"{who} to save {request.path}")
            waits = f" (the agent waits {request.timeout:g} s)" if request.timeout else ""
            yield Static(
                f"The draft at revision {request.revision}, against the file on disk{waits}:",
                markup=False,
            )
            with VerticalScroll(id="approval-changes"):
                yield Static(escape_lines("\n".join(changes_text(request.changes))), markup=False)
            if request.whole:  # the person approves knowing the file is written anew
                yield Static(request.whole, id="approval-whole", markup=False)
            yield Static(
                "y  approve: write the draft over the file      n / Esc  decline",
                id="approval-keys",
                markup=False,
            )

    def on_mount(self) -> None:
        self.request.decision.add_done_callback(self._host_done)

    def _host_done(self, decision: Future[bool]) -> None:
        # Called in the host's thread when it cancels (time is up), or in the app's when
        # the person decided (the dialog is then closing already).
        if decision.cancelled():
            try:
                self.app.call_from_thread(self._expired)
            except RuntimeError:  # the app's own thread, or the app has stopped
                self._expired()

    def _expired(self) -> None:
        if self.is_attached and self.app.screen is self:
            self.dismiss(None)

    def action_decide(self, approve: bool) -> None:
        decision = self.request.decision
        if decision.set_running_or_notify_cancel():
            decision.set_result(approve)
        self.dismiss(approve)

    async def on_key(self, event: events.Key) -> None:
        # Every other key stops here, before the bindings are looked up (Textual checks
        # them once the key has bubbled up to the app): none decides, none reaches the
        # reader beneath.
        if event.key not in PASSED:
            event.stop()
            event.prevent_default()
