"""Normalized texts built in the background as soon as a document opens.

A first normalized search over a whole thesis spends nearly all its time
normalizing the pages (pgfmanual: ~250 ms, against ~15 ms for every later one).
An agent's next call comes seconds after ``pdf_open``, so one thread per session
builds them meanwhile (``DocumentSearcher.prepare_normalized``, pure), one
document at a time, in the order opened. A search that arrives first waits for
what is left of its document's job (or runs it, when the job has not started);
either way it finds the same texts it would have built. Closing or forgetting
a document cancels its job between two pages.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

from siftui.core.evidence.search import DocumentSearcher
from siftui.sources.errors import report_unexpected

__all__ = ["Preparations"]


@dataclass
class _Job:
    searcher: DocumentSearcher
    # Held while the texts are built, by the background thread or a search waiting.
    claim: threading.Lock = field(default_factory=threading.Lock)
    cancelled: threading.Event = field(default_factory=threading.Event)


class Preparations:
    """One session's background preparation: at most one thread, jobs in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, _Job] = {}
        self._queue: deque[tuple[str, _Job]] = deque()
        self._thread: threading.Thread | None = None

    def start(self, document_id: str, searcher: DocumentSearcher) -> None:
        """Builds ``searcher``'s normalized texts soon, in the background."""
        job = _Job(searcher)
        with self._lock:
            old = self._jobs.get(document_id)
            if old is not None:
                old.cancelled.set()
            self._jobs[document_id] = job
            self._queue.append((document_id, job))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="siftui-evidence-prepare", daemon=True
                )
                self._thread.start()

    def wait(self, document_id: str) -> None:
        """Returns when the document's normalized texts are built (or never asked for)."""
        with self._lock:
            job = self._jobs.get(document_id)
        if job is None:
            return
        with job.claim:  # the background's part, if it runs: what is left of it
            job.searcher.prepare_normalized()
        self._done(document_id, job)

    def cancel(self, document_id: str) -> None:
        with self._lock:
            job = self._jobs.pop(document_id, None)
        if job is not None:
            job.cancelled.set()

    def pending(self) -> tuple[str, ...]:
        """The documents whose texts are still to be built (or being built)."""
        with self._lock:
            return tuple(self._jobs)

    def idle(self) -> bool:
        """Whether no background thread runs now."""
        with self._lock:
            return self._thread is None

    def _done(self, document_id: str, job: _Job) -> None:
        with self._lock:
            if self._jobs.get(document_id) is job:
                del self._jobs[document_id]

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                document_id, job = self._queue.popleft()
            if job.cancelled.is_set():
                continue
            try:
                with job.claim:
                    finished = job.searcher.prepare_normalized(job.cancelled.is_set)
            except Exception as error:  # the search itself builds them, and says why
                report_unexpected(error, "preparing a document for normalized search")
                continue
            if finished:
                self._done(document_id, job)
