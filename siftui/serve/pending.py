"""Hidden-text findings still being looked for after a document's first answer was given.

The worker process sends a PDF's text first and its hidden-text findings after
(siftui.serve.worker): the call that asked for it is answered as soon as the
text is there, and the findings, when they come, are handed to whoever asked to
know them (the call log's later line, the next calls' ``--warn-hidden``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from siftui.core.findings import Inspection

Known = Callable[[Inspection | None, str], None]
"""Told the findings (None when the inspection failed) and why they are missing ("" if not)."""


class PendingFindings:
    """The findings of one inspection running in a worker; thread-safe, settled once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._waiting: list[Known] = []
        self.inspection: Inspection | None = None
        self.error = ""

    @property
    def known(self) -> bool:
        return self._done.is_set()

    def settle(self, inspection: Inspection | None, error: str) -> None:
        """The inspection ended: with ``inspection``, or without it for ``error``."""
        with self._lock:
            if self._done.is_set():
                return
            self.inspection, self.error = inspection, error
            self._done.set()
            waiting, self._waiting = self._waiting, []
        for told in waiting:
            told(inspection, error)

    def when_known(self, told: Known) -> None:
        """Call ``told`` with the findings once they are known (now, if they are)."""
        with self._lock:
            if not self._done.is_set():
                self._waiting.append(told)
                return
        told(self.inspection, self.error)

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the findings are known within ``timeout`` seconds."""
        return self._done.wait(timeout)
