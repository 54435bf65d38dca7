"""Loading one document for the store: what a load gives, and the worker that does it.

:func:`load_in_worker` reads a document in a worker process of its own
(siftui.serve.worker). For a first page range, :func:`load_range_in_worker`
hands over the pages the answer needs as soon as the worker sends them, and
goes on waiting for the whole document; :func:`first_answer` runs that wait in
a thread of its own and returns what the calling thread answers with.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from siftui.core.findings import Inspection
from siftui.core.kinds import DEFAULT_KIND, AnyDoc, kind_of, runes_of
from siftui.core.render import Options
from siftui.core.unreadable import UnreadablePage
from siftui.serve.access import OpenedFile
from siftui.serve.limits import WorkerJob
from siftui.serve.pending import PendingFindings
from siftui.serve.wire import clip
from siftui.serve.worker import Progress, WorkerFailed, finish, start
from siftui.serve.worker_read import Read
from siftui.sources.load import LoadError

if TYPE_CHECKING:
    from siftui.serve.docstore import DocStore

__all__ = [
    "DocLoader",
    "Early",
    "Failed",
    "RangeLoader",
    "ServedDoc",
    "doc_bytes",
    "first_answer",
    "load_in_worker",
    "load_known",
    "load_range_in_worker",
]


class Failed(LoadError):
    """A file that could not be read; ``sha256`` names what the worker read, if anything."""

    def __init__(self, message: str, sha256: str | None = None, *, timed_out: bool = False):
        super().__init__(message)
        self.sha256 = sha256
        self.timed_out = timed_out


@dataclass(frozen=True)
class ServedDoc:
    """A document served: its model, the sha256 of the bytes read, the pages that could
    not be read and its hidden-text findings (None: not inspected; ``inspect_error`` why),
    or, while the worker still looks for them, ``later``."""

    doc: AnyDoc
    sha256: str
    unreadable: tuple[UnreadablePage, ...] = ()
    inspection: Inspection | None = None
    inspect_error: str = ""
    later: PendingFindings | None = None
    partial: bool = False  # a first range's pages only: for that one answer, never kept

    def findings(self) -> tuple[Inspection | None, str, PendingFindings | None]:
        """(the findings, why there are none, None) once known; (None, "", the pending
        findings) while the inspection runs."""
        if self.later is None:
            return self.inspection, self.inspect_error, None
        if not self.later.known:
            return None, "", self.later
        return self.later.inspection, self.later.error, None


INDEX_FACTOR = 3
"""A Doc in the cache costs its pages' memory this many times: the pages, and the
blocks, line tables and UTF-8 copies siftui.core.docindex builds for rendering and grep."""


def doc_bytes(doc: AnyDoc) -> int:
    """What keeping ``doc`` (and its rendering tables) costs, roughly, in bytes."""
    return INDEX_FACTOR * kind_of(doc).text_bytes(doc) + 1024


DocLoader = Callable[[OpenedFile, float, "DocStore", str, Progress | None], ServedDoc]
"""(open file, deadline, store, the kind's name, told the pages extracted) ->
the document."""

Early = Callable[[ServedDoc], None]
"""Given the partial document that answers a first page range, before the whole one."""

RangeLoader = Callable[[OpenedFile, float, "DocStore", Options, Early], ServedDoc]
"""(open file, deadline, store, the call's page range, early) -> the whole PDF; the
pages the range's answer reads are handed to ``early`` first, when they come first."""


def load_in_worker(
    opened: OpenedFile,
    deadline: float,
    store: DocStore,
    kind: str,
    progress: Progress | None = None,
    answering: Options | None = None,
    early: Early | None = None,
) -> ServedDoc:
    """The document in the open file, read as ``kind`` by a worker process, by ``deadline``
    (its hidden-text findings may come later: ``ServedDoc.later``); with ``answering``,
    what :data:`RangeLoader` says."""
    running = start(opened.fd, store.memory)
    shown = clip(str(opened.real))

    def given(read: object, sha256: str) -> None:
        if early is not None and isinstance(read, Read):
            early(ServedDoc(read.doc, sha256, read.unreadable, partial=True))

    tracked = store.track(running)
    tracked.__enter__()
    try:
        job = WorkerJob(
            str(opened.real),
            kind,
            store.max_bytes,
            store.max_runes,
            store.timeout,
            store.inspect_hidden,
            store.inspect_timeout,
            answering,
            store.unlocked.of(str(opened.real)),
        )
        read, sha256, later = finish(
            running, job, deadline, early=given, progress=progress, ended=tracked.__exit__
        )
    except WorkerFailed as error:
        raise Failed(str(error), error.sha256, timed_out=error.timed_out) from None
    if not isinstance(read, Read):
        raise LoadError(f"{shown}: the extraction process sent no document")
    return ServedDoc(read.doc, sha256, read.unreadable, read.inspection, read.inspect_error, later)


def load_known(path: Path, known: ServedDoc) -> DocLoader:
    """A :data:`DocLoader` that answers with ``known``, the document its caller read from
    the file at ``path`` as a worker reads the default kind (no password, no OCR, not
    inspected), as long as the file opened is that one, holds the bytes ``known`` was
    read from and was not unlocked with a password; any other file, or that one
    changed, is read by a worker (:func:`load_in_worker`), which also gives every
    refusal in its own words."""
    real, name = os.path.realpath(path), path.name

    def load(
        opened: OpenedFile, deadline: float, store: DocStore, kind: str, progress: Progress | None
    ) -> ServedDoc:
        same = (
            kind == DEFAULT_KIND.name
            and str(opened.real) == real
            and opened.real.name == name  # the name the worker is given, as the caller's
            and not store.inspect_hidden  # else the worker's read carries findings
            and store.unlocked.of(real) is None  # else the worker reads it with a password
            and runes_of(known.doc) <= store.max_runes
            and _sha256(opened.fd, store.max_bytes) == known.sha256
        )
        if same:
            return known
        return load_in_worker(opened, deadline, store, kind, progress)

    return load


def _sha256(fd: int, max_bytes: int) -> str:
    """The sha256 of the open file's bytes, read as a worker reads them ("" past
    ``max_bytes``: the worker refuses the file)."""
    digest = hashlib.sha256()
    offset = 0
    while chunk := os.pread(fd, 1 << 20, offset):
        offset += len(chunk)
        if offset > max_bytes:
            return ""
        digest.update(chunk)
    return digest.hexdigest()


def load_range_in_worker(
    opened: OpenedFile, deadline: float, store: DocStore, answering: Options, early: Early
) -> ServedDoc:
    """:data:`RangeLoader` by a worker process (:func:`load_in_worker`)."""
    return load_in_worker(opened, deadline, store, DEFAULT_KIND.name, None, answering, early)


class _First:
    """What a first range's call answers with: the partial document, or the whole one
    (or its error) if that comes first."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.loaded: ServedDoc | None = None
        self.error: LoadError | None = None

    def give(self, loaded: ServedDoc | None, error: LoadError | None = None) -> None:
        if not self.ready.is_set():
            self.loaded, self.error = loaded, error
            self.ready.set()


def first_answer(
    whole: Callable[[Early], ServedDoc],
    settle: Callable[[ServedDoc | None, LoadError | None], None],
    deadline: float,
    late: str,
) -> ServedDoc:
    """What a first range's call answers with, by ``deadline`` (else LoadError(``late``)):
    the partial document ``whole(early)`` hands to ``early``, or the whole one (or its
    error) if that comes first. ``whole`` runs in a thread of its own, which calls
    ``settle(loaded, error)`` when it is done."""
    first = _First()

    def run() -> None:
        try:
            loaded = whole(first.give)
        except LoadError as error:
            settle(None, error)
            first.give(None, error)
            return
        settle(loaded, None)
        first.give(loaded)

    threading.Thread(target=run, name="siftui-extract-rest", daemon=True).start()
    if not first.ready.wait(max(0.0, deadline - time.monotonic())):
        raise LoadError(late)
    if first.loaded is None:
        assert first.error is not None
        raise first.error
    return first.loaded
