"""Opening the first document, and answering its first call, while Textual starts.

`siftui FILE` starts the CLI's loader (siftui.sources.kinds' :func:`load_any`: for
a PDF the disk cache and the parallel extraction, the extraction in a process of its
own) in a thread before Textual is even imported; the same thread then answers the
agent's first call on it (the request the app makes when a document opens,
:func:`siftui.tui.state.opening_request`), as the render worker would. The app's loader
takes both instead of starting over, and the app shows that answer only if it answers
the request the app holds then. So the first answer is on screen about as soon as
`siftui render FILE` would print it, and on a warm cache in the app's first frame.
Nothing here imports Textual.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from siftui.sources.cache import cached_report
from siftui.sources.filehash import file_sha256
from siftui.sources.kinds import Loaded, load_any
from siftui.sources.load_options import LoadOptions
from siftui.tui.state import Outcome, Source, answer_request, opening_request

__all__ = ["LoadedDocument", "Preload", "load_any", "start", "take"]


LoadedDocument = Loaded
"""A document as the app opens it (siftui.sources.kinds' :class:`Loaded`)."""


class Preload:
    """One load running in a thread; :meth:`wait` gives what it loaded or raises its error,
    and :attr:`first` the answer to the document's first call (None until it is known, or
    if answering it failed: the app's render worker then answers it)."""

    def __init__(self, path: Path, password: str | None) -> None:
        self.path = path
        self.password = password
        self.done = 0
        self.total = 0
        self._result: tuple[str, LoadedDocument] | None = None
        self._error: BaseException | None = None
        self.first: Outcome | None = None
        self._thread = threading.Thread(target=self._run, name="siftui-preload", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            digest, loaded = self._load()
        except BaseException as error:  # handed to the loader, which reports it
            self._error = error
            return
        self._result = (digest, loaded)
        try:
            request = opening_request(Source(self.path, digest))
            self.first = answer_request(request, loaded.doc, (), None)
        except Exception:  # a bug here only costs the head start: the render worker answers
            self.first = None

    def _load(self) -> tuple[str, LoadedDocument]:
        """The file's sha256 and what was loaded: a PDF the cache does not hold is read
        in a process of its own, so the interface starting in this process never waits
        for MuPDF, nor MuPDF for it (siftui.sources.extract_process). The process starts
        only once the cache has missed: started with the lookup, it took a core from a
        warm start (one run of bench/tui_open.py: 1.41x -> 1.51x the bare app, the app's
        own CPU unchanged) for 0.03 s gained cold."""
        path, password = self.path, self.password
        digest = file_sha256(path) if path.is_file() else ""
        if digest and password is None:
            hit = cached_report(path)  # a settled file's digest is remembered: read once
            if hit is not None:
                return digest, Loaded(hit.doc, hit.unreadable)
        from siftui.sources.extract_process import ExtractionProcess, ProcessGone  # a miss's

        process = ExtractionProcess.start(path, password)
        if process is not None:
            try:
                found = process.result(self._at)
                return digest, Loaded(found.doc, found.unreadable)
            except ProcessGone:
                pass  # read here instead, as without a process
        return digest, load_any(path, LoadOptions(password=password), progress=self._at)

    @property
    def finished(self) -> bool:
        """The load (and the first answer) is done: :meth:`wait` returns at once."""
        return not self._thread.is_alive()

    def _at(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def wait(self, progress: Callable[[int, int], None]) -> tuple[str, LoadedDocument]:
        """The file's sha256 and what was loaded, calling ``progress`` while waiting (an
        exception it raises stops the waiting, not the load)."""
        while self._thread.is_alive():
            self._thread.join(0.05)
            progress(self.done, self.total)  # (0, 0) until the load says; it may raise
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


_pending: Preload | None = None
_lock = threading.Lock()


def start(path: Path, password: str | None) -> None:
    """Start loading ``path`` now (before the app exists)."""
    global _pending
    with _lock:
        _pending = Preload(path, password)


def take(path: Path, password: str | None, ocr: bool) -> Preload | None:
    """The load started for exactly this open, once (None if there is none)."""
    global _pending
    with _lock:
        found = _pending
        if found is None or ocr or found.path != path or found.password != password:
            return None
        _pending = None
        return found
