"""`siftui reader`: a person's PDF reader, beside the agent that works on the same drafts.

The app holds one :class:`~siftui.tui.reader.screen.ReaderScreen` (tabs, the page,
the panels) and the line of save requests: each waits for the one before it to be
decided, then its dialog (siftui.tui.reader.approval) takes the focus. The host
reaches the app only through the :class:`~siftui.tui.reader.seam.ReaderSeam` it
was given: tabs listed, jumps, save requests.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from textual.app import App, SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen

from siftui.core.edit.operations import Quad
from siftui.tui.display import escape_controls, escape_lines
from siftui.tui.keys import READER_KEYS, system_commands
from siftui.tui.reader.model import Backend, SaveRequest
from siftui.tui.reader.opening import Opener
from siftui.tui.reader.screen import ReaderScreen
from siftui.tui.reader.seam import ReaderSeam, SaveEnded


class ReaderApp(App[None]):
    """The reader on ``backend``'s working copies, opening ``paths`` first."""

    CSS_PATH = Path(__file__).with_name("reader.tcss")
    TITLE = "siftui reader"

    def __init__(
        self, backend: Backend, seam: ReaderSeam | None = None, paths: Iterable[Path] = ()
    ) -> None:
        super().__init__()
        self.backend = backend
        self.seam = seam if seam is not None else ReaderSeam()
        self._paths = tuple(paths)
        self.waiting: deque[SaveRequest] = deque()
        self.deciding: SaveRequest | None = None

    @cached_property
    def reader_screen(self) -> ReaderScreen:
        return ReaderScreen(self)

    @cached_property
    def opener(self) -> Opener:
        return Opener(self.reader_screen, self.backend)

    def ask_open(self) -> None:
        self.opener.ask()

    def get_default_screen(self) -> Screen[None]:
        return self.reader_screen

    def on_mount(self) -> None:
        self.seam.attach(self)

    def screen_ready(self) -> None:
        """The reader's screen is mounted: the files named at start open in tabs."""
        if self._paths:
            self.opener.open_all(self._paths)

    def on_unmount(self) -> None:
        self.seam.detach()
        # Requests still waiting when the reader closes are withdrawn (the host answers
        # that the reader has closed): nothing is saved.
        for request in (self.deciding, *self.waiting):
            if request is not None:
                request.decision.cancel()
        self.waiting.clear()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notify, as plain text: messages name files, and a file's name may
        hold "[/]" (no markup) or ESC (shown escaped, never sent raw)."""
        message, title = escape_lines(message), escape_controls(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        if screen is self.reader_screen:
            yield from system_commands(self, READER_KEYS, "screen.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a save waits for its decision, the palette (a priority key) stays shut:
        # nothing but y, n and Escape acts on the dialog.
        if action == "command_palette" and self.deciding is not None:
            return False
        return super().check_action(action, parameters)

    # ------------------------------------------------------------ the host's calls

    def publish_tabs(self) -> None:
        self.seam.publish(self.reader_screen.store.tabs())

    def jump_tab(self, tab_id: str, page: int, marks: tuple[Quad, ...] = ()) -> int | None:
        """E20: ``page`` in ``tab_id``, one step of its history, ``marks`` tinted on it;
        the steps it holds (None: no such tab)."""
        return self.reader_screen.jump(tab_id, page, marks)

    def ask_save(self, request: SaveRequest) -> None:
        """A save request: its dialog now, or when the ones before it are decided."""
        self.waiting.append(request)
        if self.deciding is None:
            self._next_request()

    def on_save_ended(self, message: SaveEnded) -> None:
        """The host wrote an approved save, or was refused it after the approval."""
        path, outcome, saved = message.path, message.outcome, message.saved
        # The line under the tabs says it too: it may still hold what the open found
        # (a repaired file's whole rewrite), which the saved file no longer needs.
        if saved:
            said = f"Saved {path.name}: {outcome}."
            self.notify(said)
        else:
            said = f"Not saved: {outcome}"
            self.notify(said, severity="error")
        self.reader_screen.say(said, error=not saved)

    def _next_request(self) -> None:
        from siftui.tui.reader.approval import ApprovalScreen

        while self.waiting:
            request = self.waiting.popleft()
            if request.decision.done():  # the host stopped waiting while it stood in line
                continue
            self.deciding = request
            self.push_screen(ApprovalScreen(request), self._decided)
            return
        self.deciding = None

    def _decided(self, approved: bool | None) -> None:
        request = self.deciding
        if request is not None:
            name = request.path.name
            if approved is None:
                self.notify(f"The save of {name} was not decided in time.", severity="warning")
            elif approved:
                self.notify(f"Approved: saving {name}…")
            else:
                self.notify(f"Declined: {name} is not saved (the draft is kept).")
        self.deciding = None
        self._next_request()
