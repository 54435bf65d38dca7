"""A worker process started ahead of the call that needs it.

The evidence tools' MuPDF calls (siftui.serve.worker_evidence) each run in a
process of their own, like an extraction; starting Python and importing MuPDF
costs more than describing a PDF does. So one worker is started while no call
waits, imports MuPDF, and is handed the file's descriptor when a call comes
(siftui.serve.worker.hand); the next one is started after it.
"""

from __future__ import annotations

import threading

from siftui.serve.worker import Running, discard, hand, start, start_spare

__all__ = ["Spare"]


class Spare:
    """At most one waiting worker; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: Running | None = None
        self._closed = False

    def warm(self, memory: int) -> None:
        """Starts a worker (capped at ``memory`` bytes) unless one waits already."""
        with self._lock:
            if self._closed or self._waiting is not None:
                return
        try:
            started = start_spare(memory)
        except OSError:  # no process now: the next call starts its own, and says why
            return
        with self._lock:
            if not self._closed and self._waiting is None:
                self._waiting = started
                return
        discard(started)

    def take(self, fd: int, memory: int) -> Running:
        """A worker reading the open file ``fd``: the waiting one, or a new one."""
        with self._lock:
            waiting, self._waiting = self._waiting, None
        if waiting is not None:
            try:
                if waiting.process.poll() is None:
                    hand(waiting, fd)
                    return waiting
            except OSError:
                pass  # it died waiting: a new one reads the file
            discard(waiting)
        return start(fd, memory)

    def pid(self) -> int | None:
        """The waiting worker's process id, if one waits."""
        with self._lock:
            return None if self._waiting is None else self._waiting.process.pid

    def close(self) -> None:
        """Kills the waiting worker; none is started after."""
        with self._lock:
            self._closed = True
            waiting, self._waiting = self._waiting, None
        if waiting is not None:
            discard(waiting)
