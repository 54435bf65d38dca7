"""Documents for a long-running server: bounded extraction and an in-memory cache.

Every extraction runs in a worker process of its own (siftui.serve.worker),
given the descriptor :meth:`siftui.serve.access.Roots.open` returned: the
worker reads, hashes and extracts exactly the file that was checked. So do
the evidence tools' other MuPDF calls (:meth:`DocStore.run_task`: pdf_info's
metadata, a page's image), within the same bounds, in a worker started ahead
(siftui.serve.spare).

Bounds, so that no call hangs and no file costs the server its life:

- time: a call has a deadline (``timeout`` seconds from its start); waiting
  for a free worker, for another call's extraction of the same file and for
  the worker's answer all end there. No lock is held while waiting.
- processes: at most ``workers`` extractions at once (default: the cores);
  each worker's address space is capped at ``memory`` bytes.
- size: files over ``max_bytes`` and texts over ``max_runes`` code points
  are refused with one line.
- memory here: the cache of extracted Docs holds at most ``cache_bytes``
  (an estimate of their text and of the tables rendering builds on them).

A PDF's hidden-text inspection runs after its text is sent: the call is
answered with the text, and the findings come later (``ServedDoc.later``, a
:class:`~siftui.serve.pending.PendingFindings`), within ``inspect_timeout``
seconds of their own, in the same worker process, which no longer holds one of
the ``workers`` slots.

An encrypted PDF the person unlocked in the reader (``unlocked``,
siftui.sources.unlocked) is read with their password: the worker is handed it
with the sha256 of the bytes it opens, and uses it on those bytes only.

A document is cached per file version and kind: (real path, kind, device,
inode, size, mtime, ctime, the sha256 unlocked for the path or ""), all but the
last from ``fstat`` of the open descriptor. A failure (timeout,
unreadable document) is remembered for ``failure_seconds``: the same file
asked again gets the same answer at once, without a new worker.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from siftui.core.kinds import DEFAULT_KIND, kind_named
from siftui.core.render import Options
from siftui.serve.access import OpenedFile
from siftui.serve.limits import DEFAULT_LIMITS, StoreLimits, WorkerJob
from siftui.serve.loading import (
    DocLoader,
    Early,
    Failed,
    RangeLoader,
    ServedDoc,
    doc_bytes,
    first_answer,
    load_in_worker,
    load_range_in_worker,
)
from siftui.serve.spare import Spare
from siftui.serve.wire import clip
from siftui.serve.worker import Progress, Running, WorkerFailed, finish, spawn
from siftui.serve.worker_evidence import Task
from siftui.sources.errors import report_unexpected
from siftui.sources.lazy import is_range
from siftui.sources.load import LoadError
from siftui.sources.ocr_runner import OcrRunner
from siftui.sources.unlocked import Unlocked

__all__ = ["DocStore", "Failed", "ServedDoc", "doc_bytes", "load_in_worker"]


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


_Key = tuple[str, str, int, int, int, int, int, str]


@dataclass
class _Pending:
    """One extraction in progress; calls for the same file wait for ``done``."""

    done: threading.Event = field(default_factory=threading.Event)
    loaded: ServedDoc | None = None
    error: Failed | None = None


class DocStore:
    """Loads documents within limits and keeps recent ones; thread-safe."""

    def __init__(
        self,
        limits: StoreLimits = DEFAULT_LIMITS,
        *,
        loader: DocLoader = load_in_worker,
        range_loader: RangeLoader | None = None,
        unlocked: Unlocked | None = None,
    ) -> None:
        self.limits = limits
        # The passwords the person gave in the reader (none under `siftui mcp`).
        self.unlocked = unlocked if unlocked is not None else Unlocked()
        self.timeout = limits.timeout
        # Inspecting costs up to ~5x the extraction (pgfmanual: 17.7 s after 3.5 s): only
        # when a log records it or --warn-hidden uses it, and after the answer is sent.
        self.inspect_hidden = limits.inspect_hidden
        inspect_timeout = limits.inspect_timeout
        self.inspect_timeout = limits.timeout if inspect_timeout is None else inspect_timeout
        self.max_bytes = limits.max_bytes
        self.memory = limits.memory
        self.workers = default_workers() if limits.workers is None else limits.workers
        self.max_runes = limits.max_runes
        self.cache_bytes = limits.cache_bytes
        self.failure_seconds = limits.failure_seconds
        self.loader = loader
        # A first page range is answered from its own pages while the rest is
        # extracted; a loader of the caller's own reads whole documents only.
        if range_loader is None and loader is load_in_worker:
            range_loader = load_range_in_worker
        self.range_loader = range_loader
        self._cache: OrderedDict[_Key, tuple[ServedDoc, int]] = OrderedDict()
        self._cached_bytes = 0
        self._failures: dict[_Key, tuple[float, Failed]] = {}
        self._pending: dict[_Key, _Pending] = {}
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.workers)
        # OCR takes the same slots as extraction, under the same memory limit.
        self.ocr = OcrRunner(self._slots, memory=self.memory, popen=spawn)
        self._running: set[Running] = set()
        self._spare = Spare()
        self._closed = False

    def get(
        self,
        opened: OpenedFile,
        deadline: float | None = None,
        kind: str = DEFAULT_KIND.name,
        answering: Options | None = None,
        progress: Progress | None = None,
    ) -> ServedDoc:
        """The document in the open file (read as the kind named ``kind``) and the
        sha256 of what was read, or LoadError.

        ``answering``: the call's request. A page range of a PDF that is neither
        cached nor being extracted gets, as soon as they are read, the pages its
        answer needs (``ServedDoc.partial``: for that answer only), while the worker
        goes on with the whole document, which is cached and which later calls
        wait for. Not when the store inspects hidden text: the answer and its log
        line need the findings of every page.

        Returns or raises by ``deadline`` (default: ``timeout`` from now). ``progress``
        is told the pages extracted when this call extracts the document.
        """
        if deadline is None:
            deadline = time.monotonic() + self.timeout
        info = opened.info
        shown = clip(str(opened.real))
        if info.st_size > self.max_bytes:
            raise LoadError(
                f"{shown}: {info.st_size:,} bytes, over this server's limit of "
                f"{self.max_bytes:,} bytes"
            )
        if info.st_size == 0:
            raise LoadError(f"{shown}: empty file, not a document")
        unlock = self.unlocked.of(str(opened.real))
        key: _Key = (
            str(opened.real),
            kind,
            info.st_dev,
            info.st_ino,
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
            unlock.sha256 if unlock is not None else "",
        )
        with self._lock:
            if self._closed:
                raise LoadError("the server is shutting down")
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit[0]
            failure = self._failures.get(key)
            if failure is not None:
                if time.monotonic() - failure[0] < self.failure_seconds:
                    raise failure[1]
                del self._failures[key]
            pending = self._pending.get(key)
            mine = pending is None
            if pending is None:
                pending = self._pending[key] = _Pending()
        if not mine:
            return self._wait(pending, deadline, shown)
        entry = kind_named(kind)
        ranges = entry is not None and entry.reads_ranges_first
        lazy = self.range_loader is not None and not self.inspect_hidden and ranges
        if lazy and answering is not None and is_range(answering):
            return self._first_range(opened, deadline, shown, key, pending, answering)
        try:
            loaded = self._load(opened, deadline, shown, key, kind, progress)
            pending.loaded = loaded
            return loaded
        except Failed as error:
            pending.error = error
            raise
        finally:
            with self._lock:
                del self._pending[key]
            pending.done.set()

    def _wait(self, pending: _Pending, deadline: float, shown: str) -> ServedDoc:
        if not pending.done.wait(max(0.0, deadline - time.monotonic())):
            raise LoadError(
                f"{shown}: still being extracted for an earlier call after {self.timeout:g} s; "
                "try again later"
            )
        if pending.loaded is not None:
            return pending.loaded
        if pending.error is not None:
            raise pending.error
        raise LoadError(f"{shown}: the earlier call reading it did not finish; try again")

    def _first_range(
        self,
        opened: OpenedFile,
        deadline: float,
        shown: str,
        key: _Key,
        pending: _Pending,
        answering: Options,
    ) -> ServedDoc:
        """The partial document for a first range (or the whole one, if it comes
        first), by ``deadline``; the whole one is extracted and kept in a thread of
        its own, bounded by the same deadline, and later calls wait for it. The
        worker holds its own copy of the descriptor: the caller may close the file
        when this returns."""
        ranges = self.range_loader
        assert ranges is not None

        def whole(early: Early) -> ServedDoc:
            def load(
                o: OpenedFile, d: float, store: DocStore, _: str, __: Progress | None
            ) -> ServedDoc:
                return ranges(o, d, store, answering, early)

            return self._load(opened, deadline, shown, key, DEFAULT_KIND.name, None, load)

        def settle(loaded: ServedDoc | None, error: LoadError | None) -> None:
            pending.loaded = loaded
            if isinstance(error, Failed):
                pending.error = error
            with self._lock:
                del self._pending[key]
            pending.done.set()

        late = f"{shown}: extraction took longer than {self.timeout:g} s; stopped"
        return first_answer(whole, settle, deadline, late)

    def _load(
        self,
        opened: OpenedFile,
        deadline: float,
        shown: str,
        key: _Key,
        kind: str,
        progress: Progress | None,
        loader: DocLoader | None = None,
    ) -> ServedDoc:
        started = time.monotonic()
        self._take_slot(deadline, started, shown)
        try:
            waited = time.monotonic() - started
            try:
                loaded = (self.loader if loader is None else loader)(
                    opened, deadline, self, kind, progress
                )
            except Failed as error:
                # The file's fault (a timeout counts when the worker had nearly the
                # whole time): the same file gets the same answer for a while.
                if not error.timed_out or waited < 0.1 * self.timeout:
                    with self._lock:
                        self._failures[key] = (time.monotonic(), error)
                raise
            except LoadError:
                raise
            except Exception as error:  # a bug of ours, or no process could start
                raise LoadError(report_unexpected(error, f"loading {shown}")) from None
        finally:
            self._slots.release()
        self._keep(key, loaded)
        return loaded

    def run_task(self, opened: OpenedFile, deadline: float, task: Task) -> tuple[int, Any, str]:
        """``task`` (siftui.serve.worker_evidence) on the open file's bytes in a worker
        process, within the limits of an extraction (a worker slot, ``deadline``,
        ``memory``): the size of the bytes it read, its result and their sha256.
        Its refusals, and a worker stopped or dead, are :class:`Failed`."""
        shown = clip(str(opened.real))
        started = time.monotonic()
        self._take_slot(deadline, started, shown)
        try:
            with self._lock:
                if self._closed:
                    raise LoadError("the server is shutting down")
            running = self._spare.take(opened.fd, self.memory)
            with self.track(running):
                try:
                    real, unlock = str(opened.real), self.unlocked.of(str(opened.real))
                    limits = self.max_bytes, self.max_runes, self.timeout
                    job = WorkerJob(real, task, *limits, False, unlock=unlock)
                    (size, result), sha256, _ = finish(running, job, deadline)
                except WorkerFailed as error:
                    raise Failed(str(error), error.sha256, timed_out=error.timed_out) from None
        finally:
            self._slots.release()
            self.warm()
        return size, result, sha256

    def _take_slot(self, deadline: float, started: float, shown: str) -> None:
        """One of the ``workers`` slots, waited for until ``deadline``, or LoadError."""
        if not self._slots.acquire(timeout=max(0.0, deadline - started)):
            raise LoadError(
                f"{shown}: the server is busy ({self.workers} extractions running) and none "
                f"finished within {self.timeout:g} s; try again later"
            )

    def warm(self) -> None:
        """Starts a spare worker for the next task (siftui.serve.spare), unless one waits."""
        self._spare.warm(self.memory)

    def spare(self) -> int | None:
        """The process id of the spare worker waiting, if one does."""
        return self._spare.pid()

    def _keep(self, key: _Key, loaded: ServedDoc) -> None:
        size = doc_bytes(loaded.doc)
        with self._lock:
            # Another version of this file is stale now; drop it.
            for old in [k for k in self._cache if k[:2] == key[:2]]:
                self._cached_bytes -= self._cache.pop(old)[1]
            if size > self.cache_bytes:
                return  # answered, but not kept: it would push out everything else
            self._cache[key] = (loaded, size)
            self._cached_bytes += size
            while self._cached_bytes > self.cache_bytes:
                self._cached_bytes -= self._cache.popitem(last=False)[1][1]

    def track(self, running: Running) -> _Tracked:
        return _Tracked(self, running)

    def cached(self) -> int:
        with self._lock:
            return len(self._cache)

    def cached_bytes(self) -> int:
        with self._lock:
            return self._cached_bytes

    def shutdown(self) -> None:
        """Kill every running worker; later calls fail at once."""
        with self._lock:
            self._closed = True
            running = list(self._running)
        for worker in running:
            worker.kill()
        self.ocr.close()
        self._spare.close()


class _Tracked:
    def __init__(self, store: DocStore, running: Running) -> None:
        self.store = store
        self.running = running

    def __enter__(self) -> None:
        with self.store._lock:
            self.store._running.add(self.running)
            closed = self.store._closed
        if closed:
            self.running.kill()

    def __exit__(self, *exc: object) -> None:
        with self.store._lock:
            self.store._running.discard(self.running)
