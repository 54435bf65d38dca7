"""Documents for a long-running server: bounded extraction and an in-memory cache.

Every extraction runs in a worker process of its own (siftui.serve.worker),
given the descriptor :meth:`siftui.serve.access.Roots.open` returned: the
worker reads, hashes and extracts exactly the file that was checked.

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
answered with the text, and the findings come later (``Loaded.later``, a
:class:`~siftui.serve.pending.PendingFindings`), within ``inspect_timeout``
seconds of their own, in the same worker process, which no longer holds one of
the ``workers`` slots.

A document is cached per file version and kind: (real path, kind, device,
inode, size, mtime, ctime), all from ``fstat`` of the open descriptor. A failure (timeout,
unreadable document) is remembered for ``failure_seconds``: the same file
asked again gets the same answer at once, without a new worker.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from siftui.core.doc import Doc
from siftui.core.findings import Inspection
from siftui.core.kinds import PDF, WORD
from siftui.core.unreadable import UnreadablePage
from siftui.core.word.model import DocxDoc
from siftui.serve.access import OpenedFile
from siftui.serve.pending import PendingFindings
from siftui.serve.wire import clip
from siftui.serve.worker import Progress, Running, WorkerFailed, finish, start
from siftui.serve.worker_read import Read, runes_of
from siftui.sources.errors import report_unexpected
from siftui.sources.load import LoadError

DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_BYTES = 200_000_000
DEFAULT_MEMORY = 2 * 1024**3
DEFAULT_MAX_RUNES = 50_000_000
DEFAULT_CACHE_BYTES = 1024**3
FAILURE_SECONDS = 600.0
INDEX_FACTOR = 3
"""A Doc in the cache costs its pages' memory this many times: the pages, and the
blocks, line tables and UTF-8 copies siftui.core.docindex builds for rendering and grep."""


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def doc_bytes(doc: Doc | DocxDoc) -> int:
    """What keeping ``doc`` (and its rendering tables) costs, roughly, in bytes."""
    pdf, word = PDF.doc(doc), WORD.doc(doc)
    text = 0
    if pdf is not None:
        text = sum(sys.getsizeof(page) for page in pdf.pages)
    elif word is not None:  # its text, plus each paragraph's object and line
        paragraphs = sum(len(story.paragraphs) for story in word.stories.values())
        text = 4 * runes_of(word) + 200 * paragraphs
    return INDEX_FACTOR * text + 1024


class Failed(LoadError):
    """A file that could not be read; ``sha256`` names what the worker read, if anything."""

    def __init__(self, message: str, sha256: str | None = None, *, timed_out: bool = False):
        super().__init__(message)
        self.sha256 = sha256
        self.timed_out = timed_out


@dataclass(frozen=True)
class Loaded:
    """A document served: its model, the sha256 of the bytes read, the pages that could
    not be read and its hidden-text findings (None: not inspected; ``inspect_error`` why),
    or, while the worker still looks for them, ``later``."""

    doc: Doc | DocxDoc
    sha256: str
    unreadable: tuple[UnreadablePage, ...] = ()
    inspection: Inspection | None = None
    inspect_error: str = ""
    later: PendingFindings | None = None

    def findings(self) -> tuple[Inspection | None, str, PendingFindings | None]:
        """(the findings, why there are none, None) once known; (None, "", the pending
        findings) while the inspection runs."""
        if self.later is None:
            return self.inspection, self.inspect_error, None
        if not self.later.known:
            return None, "", self.later
        return self.later.inspection, self.later.error, None


_Key = tuple[str, str, int, int, int, int, int]


@dataclass
class _Pending:
    """One extraction in progress; calls for the same file wait for ``done``."""

    done: threading.Event = field(default_factory=threading.Event)
    loaded: Loaded | None = None
    error: Failed | None = None


Loader = Callable[[OpenedFile, float, "DocStore", str, Progress | None], Loaded]
"""(open file, deadline, store, kind: "pdf" or "docx", told the pages extracted) ->
the document."""


def load_in_worker(
    opened: OpenedFile,
    deadline: float,
    store: DocStore,
    kind: str,
    progress: Progress | None = None,
) -> Loaded:
    """The document in the open file, read as ``kind`` by a worker process, by ``deadline``
    (its hidden-text findings may come later: ``Loaded.later``)."""
    running = start(opened.fd, store.memory)
    tracked = store.track(running)
    tracked.__enter__()
    try:
        read, sha256, later = finish(
            running,
            str(opened.real),
            store.max_bytes,
            store.max_runes,
            deadline,
            store.timeout,
            kind,
            store.inspect_hidden,
            inspect_seconds=store.inspect_timeout,
            progress=progress,
            ended=tracked.__exit__,
        )
    except WorkerFailed as error:
        raise Failed(str(error), error.sha256, timed_out=error.timed_out) from None
    if not isinstance(read, Read):
        raise LoadError(f"{clip(str(opened.real))}: the extraction process sent no document")
    return Loaded(read.doc, sha256, read.unreadable, read.inspection, read.inspect_error, later)


class DocStore:
    """Loads documents within limits and keeps recent ones; thread-safe."""

    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int = DEFAULT_MAX_BYTES,
        memory: int = DEFAULT_MEMORY,
        workers: int | None = None,
        max_runes: int = DEFAULT_MAX_RUNES,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        failure_seconds: float = FAILURE_SECONDS,
        loader: Loader = load_in_worker,
        inspect_hidden: bool = True,
        inspect_timeout: float | None = None,
    ) -> None:
        self.timeout = timeout
        # Inspecting costs up to ~5x the extraction (pgfmanual: 17.7 s after 3.5 s): only
        # when a log records it or --warn-hidden uses it, and after the answer is sent.
        self.inspect_hidden = inspect_hidden
        self.inspect_timeout = timeout if inspect_timeout is None else inspect_timeout
        self.max_bytes = max_bytes
        self.memory = memory
        self.workers = default_workers() if workers is None else workers
        self.max_runes = max_runes
        self.cache_bytes = cache_bytes
        self.failure_seconds = failure_seconds
        self.loader = loader
        self._cache: OrderedDict[_Key, tuple[Loaded, int]] = OrderedDict()
        self._cached_bytes = 0
        self._failures: dict[_Key, tuple[float, Failed]] = {}
        self._pending: dict[_Key, _Pending] = {}
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.workers)
        self._running: set[Running] = set()
        self._closed = False

    def get(
        self,
        opened: OpenedFile,
        deadline: float | None = None,
        kind: str = "pdf",
        progress: Progress | None = None,
    ) -> Loaded:
        """The document in the open file (read as ``kind``: "pdf" or "docx") and the
        sha256 of what was read, or LoadError.

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
        key: _Key = (
            str(opened.real),
            kind,
            info.st_dev,
            info.st_ino,
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
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

    def _wait(self, pending: _Pending, deadline: float, shown: str) -> Loaded:
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

    def _load(
        self,
        opened: OpenedFile,
        deadline: float,
        shown: str,
        key: _Key,
        kind: str,
        progress: Progress | None,
    ) -> Loaded:
        started = time.monotonic()
        if not self._slots.acquire(timeout=max(0.0, deadline - started)):
            raise LoadError(
                f"{shown}: the server is busy ({self.workers} extractions running) and none "
                f"finished within {self.timeout:g} s; try again later"
            )
        try:
            waited = time.monotonic() - started
            try:
                loaded = self.loader(opened, deadline, self, kind, progress)
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

    def _keep(self, key: _Key, loaded: Loaded) -> None:
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
