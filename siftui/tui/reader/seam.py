"""How the host reaches the reader from its own threads: the tabs it lists in
pdf_current, the jumps of pdf_page_jump (E20), and the save requests of pdf_save
(E19).

The host never touches the app: it calls this object, which hands each request to
the app's event loop and waits for what the app answers. With no app attached (the
reader has not started or has closed) there are no tabs, and a jump or a save says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message

from siftui.core.edit.operations import Quad
from siftui.core.reader import Tab

if TYPE_CHECKING:
    from siftui.tui.reader.model import SaveRequest


class SaveEnded(Message):
    """What became of a save the person approved: written (``saved``, ``outcome`` the
    bytes and revision) or refused after the approval (``outcome`` the refusal)."""

    def __init__(self, path: Path, outcome: str, saved: bool) -> None:
        super().__init__()
        self.path = path
        self.outcome = outcome
        self.saved = saved


class ReaderGone(Exception):
    """No reader is attached (never started, or closed)."""


class SeamApp(Protocol):
    """What the seam asks of the app (siftui.tui.reader.app.SeamApp)."""

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...

    def jump_tab(self, tab_id: str, page: int, marks: tuple[Quad, ...] = ()) -> int | None: ...

    def ask_save(self, request: SaveRequest) -> None: ...

    def post_message(self, message: Message) -> bool: ...


class ReaderSeam:
    """The host's side of the reader: thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._app: SeamApp | None = None
        self._tabs: tuple[Tab, ...] = ()

    # ------------------------------------------------------------ the app's side

    def attach(self, app: SeamApp) -> None:
        with self._lock:
            self._app = app

    def detach(self) -> None:
        with self._lock:
            self._app = None
            self._tabs = ()

    def publish(self, tabs: tuple[Tab, ...]) -> None:
        """The app's tabs changed (opened, closed, turned to another page)."""
        with self._lock:
            self._tabs = tabs

    # ------------------------------------------------------------ the host's side

    @property
    def attached(self) -> bool:
        with self._lock:
            return self._app is not None

    def tabs(self) -> tuple[Tab, ...]:
        """The reader's open tabs in order (none when no reader is attached)."""
        with self._lock:
            return self._tabs

    def jump(self, tab_id: str, page: int, marks: tuple[Quad, ...] = ()) -> int:
        """Shows ``page`` in tab ``tab_id`` as one step of its back history, ``marks``
        tinted on it; the steps the history then holds. ReaderGone when no reader is
        attached, LookupError when the tab is closed."""
        app = self._attached_app()
        try:
            back: int | None = app.call_from_thread(app.jump_tab, tab_id, page, marks)
        except RuntimeError:  # the app stopped meanwhile
            raise ReaderGone("no reader is attached") from None
        if back is None:
            raise LookupError(f"{tab_id} is not open in the reader")
        return back

    def ask(self, request: SaveRequest) -> None:
        """Puts ``request`` before the person; its ``decision`` is set when they decide.
        ReaderGone when no reader is attached."""
        app = self._attached_app()
        try:
            app.call_from_thread(app.ask_save, request)
        except RuntimeError:  # the app stopped meanwhile
            raise ReaderGone("no reader is attached") from None

    def save_ended(self, path: Path, outcome: str, saved: bool) -> None:
        """Tells the person what became of a save they approved, without waiting for the
        reader's screen (the agent's answer goes out at once). ReaderGone when no reader
        is attached."""
        if not self._attached_app().post_message(SaveEnded(path, outcome, saved)):
            raise ReaderGone("no reader is attached")

    def _attached_app(self) -> SeamApp:
        with self._lock:
            app = self._app
        if app is None:
            raise ReaderGone("no reader is attached")
        return app
