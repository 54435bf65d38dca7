"""The PyMuPDF documents of working copies: opened fast, let go of off the caller's
path, and the file's bytes checked unchanged without reading them when the file
shows the fingerprint it had.

Opening pgfmanual with ``pymupdf.open`` takes 2 s, 1.9 of them resolving its outline,
which a draft never reads: ``open_pdf`` skips it (30 ms). Letting go of a document
whose pages were read costs MuPDF 0.1-0.3 s of freeing: ``retire`` hands it to one
closing thread, so a save or an undo answers without waiting for that, and the thread
waits a moment first, since the freeing holds Python's GIL and would stop the answer.

PyMuPDF is not safe to call from two threads at once: every working copy's call into
it, and the closing thread's, holds ``MUPDF`` (one lock for all of them).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.sources.filehash import Fingerprint, fingerprint
from siftui.sources.pdf_open import quiet_pymupdf

__all__ = [
    "MUPDF",
    "Fingerprint",
    "fingerprint",
    "forget_outline",
    "is_encrypted",
    "later",
    "open_pdf",
    "retire",
    "unchanged",
]

pymupdf: Any = quiet_pymupdf()

_CHUNK = 1 << 20

MUPDF = threading.RLock()
"""Held by whatever calls PyMuPDF on a working copy's documents."""


class _Document(pymupdf.Document):  # type: ignore[misc]
    """A PDF whose outline is read when first asked for (``outline``, ``get_toc``), not
    when it opens."""

    _unread = object()

    def _loadOutline(self) -> Any:
        return _Document._unread

    @property
    def outline(self) -> Any:
        found: Any = self.__dict__.get("_outline")
        if found is _Document._unread:
            found = self._outline = super()._loadOutline()
        return found


def forget_outline(document: Any) -> None:
    """The outline of ``document`` is read again when next asked for (its objects
    were edited)."""
    if isinstance(document, _Document):
        document._outline = _Document._unread


def open_pdf(data: bytes, password: str | None = None, path: str = "") -> Any:
    """The PDF of ``data`` (its outline not read), authenticated with ``password``."""
    document = _Document(stream=data, filetype="pdf")
    if document.needs_pass and not document.authenticate(password or ""):
        document.close()
        raise EvidenceError(f"{path}: the PDF needs a password")
    return document


def is_encrypted(document: Any) -> bool:
    return bool(document.metadata and document.metadata.get("encryption"))


_later: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
_worker: threading.Thread | None = None
_worker_lock = threading.Lock()


def _work_later() -> None:
    while True:
        task = _later.get()
        with contextlib.suppress(Exception):  # a task that fails is dropped: none answers a call
            task()
        del task


def later(task: Callable[[], object]) -> None:
    """Runs ``task`` in the edit family's one background thread (started on first use);
    a task that calls PyMuPDF holds ``MUPDF`` while it does."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = threading.Thread(target=_work_later, name="siftui-edit", daemon=True)
            _worker.start()
    _later.put(task)


_ANSWER_FIRST = 0.05
"""Seconds a closing waits before it starts. MuPDF frees a document holding Python's
GIL (pgfmanual's after a save: 80-150 ms), which stops every thread of the process:
the answer of the call that let the document go, a few ms of work, is sent first."""


def retire(document: Any) -> None:
    """Closes ``document`` in the background thread."""

    def close() -> None:
        time.sleep(_ANSWER_FIRST)
        with MUPDF:
            document.close()

    later(close)


def unchanged(path: str, sha256: str, seen: Fingerprint | None) -> bool:
    """Whether the file at ``path`` still holds the bytes whose digest is ``sha256``:
    yes at once when it shows the fingerprint ``seen`` it had with them, else hashed."""
    try:
        with open(path, "rb") as stream:
            if seen is not None and fingerprint(os.fstat(stream.fileno())) == seen:
                return True
            digest = hashlib.sha256()
            while chunk := stream.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return False
    return digest.hexdigest() == sha256
