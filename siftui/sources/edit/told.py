"""What a working copy tells: a change (to its listeners) and a save (to the host)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from siftui.core.edit.operations import Transaction

__all__ = ["Listeners", "Revised", "Saved", "content_version_of"]


def content_version_of(sha256: str) -> str:
    return "v-" + sha256[:12]


@dataclass(frozen=True, slots=True)
class Revised:
    """What one new revision did, as listeners are told it."""

    revision: int
    kind: str  # "write", "undo", "redo", "discard" or "save"
    transaction: Transaction | None  # the one written, undone or redone
    unsaved: bool  # the draft holds changes after it
    pages: tuple[int, ...]  # the pages whose annotations changed; () for every page


@dataclass(frozen=True, slots=True)
class Saved:
    revision: int
    sha256: str
    content_version: str
    bytes: int
    whole: bool  # rewritten whole
    reason: str  # why whole ("" when appended to)


class Listeners:
    """Who is told each change, called by the thread that made it (after the working
    copy let go of MuPDF's lock); one lock of their own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Callable[[Revised], None]] = []

    def listen(self, listener: Callable[[Revised], None]) -> Callable[[], None]:
        """Calls ``listener`` after every change; returns what stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def tell(self, change: Revised) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(change)
