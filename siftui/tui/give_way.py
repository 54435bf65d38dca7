"""Optional after-work gives way to a result the user waits for.

The answer's after-work runs in threads of the app's process (siftui.tui.background):
counting every page's tokens for the strip's tooltips takes seconds on a long document
and held the evidence preview's first result back as long. Work
that can wait calls :meth:`GiveWay.pause` between its steps; while a call the user
waits for is made (:meth:`GiveWay.waiting`), a pause waits until it is done.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

LONGEST = 30.0
"""Seconds a pause waits at most: after-work is never stopped for good."""


class GiveWay:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting = 0
        self._clear = threading.Event()
        self._clear.set()

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """While the block runs, pauses wait."""
        self.begin()
        try:
            yield
        finally:
            self.end()

    def begin(self) -> None:
        """From now until the matching :meth:`end` (in any thread), pauses wait."""
        with self._lock:
            self._waiting += 1
            self._clear.clear()

    def end(self) -> None:
        with self._lock:
            self._waiting -= 1
            if not self._waiting:
                self._clear.set()

    def pause(self) -> None:
        """Return at once, or once no call the user waits for is being made."""
        self._clear.wait(LONGEST)


GIVE_WAY = GiveWay()
"""The process's one gate (one app a process)."""
