"""Tesseract for a server: one OCR per image at a time, within the server's limits.

An agent may ask for the OCR of one image many times at once (30 calls ran 30
Tesseract processes, 2.3 GB, under ``--workers 1``). Here a call for an image
(its PNG's sha256 and the language) that is being read waits for that reading's
result instead of starting another; a few results are kept, so the image is
read once; Tesseract processes take the server's extraction slots (``slots``,
its ``--workers``) and run under its address-space limit (``memory``); and they
end with the server: killed by :meth:`OcrRunner.close`, and by the kernel when
the server dies (``PR_SET_PDEATHSIG``, set in the child by the ``popen`` given,
which starts it from a thread that lives as long as the server).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import functools
import hashlib
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.tools_ocr import NO_TESSERACT
from siftui.core.messages import one_line
from siftui.core.ocr_language import missing_languages
from siftui.sources.helper import Popen

Recognized = tuple[str, str]
"""(text, engine) as Tesseract read an image."""

OCR_SECONDS = 60.0
"""A page image Tesseract has not read in this time is refused, not waited for."""
_VERSION = re.compile(r"tesseract\s+v?(\d[\w.\-]*)", re.IGNORECASE)

KEPT_RESULTS = 32
"""Results kept for images read again (by the same or another session)."""


@functools.cache
def tesseract_engine() -> str | None:
    """``"tesseract 5.3.0"``, or None when no Tesseract runs here."""
    program = shutil.which("tesseract")
    if program is None:
        return None
    try:
        done = subprocess.run(
            [program, "--version"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = _VERSION.search(done.stdout + done.stderr)
    return f"tesseract {found.group(1)}" if found else None


def ocr_language_reason(language: str) -> str | None:
    """Why ocr_recognize cannot read ``language`` (Tesseract's codes joined by ``+``)
    here: no Tesseract, or a language `tesseract --list-langs` does not list; None
    when it can."""
    program = shutil.which("tesseract")
    if program is None or tesseract_engine() is None:
        return NO_TESSERACT
    try:
        done = subprocess.run(
            [program, "--list-langs"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"OCR could not run: {one_line(error)}"
    # The first line names the directory ("List of available languages in ...").
    installed = sorted(line.strip() for line in done.stdout.splitlines()[1:] if line.strip())
    return missing_languages(language, installed)


class OcrRunner:
    """Runs Tesseract for a server (see the module's text)."""

    def __init__(
        self,
        slots: threading.Semaphore,
        *,
        memory: int = 0,
        popen: Popen | None = None,
        seconds: float = OCR_SECONDS,
    ) -> None:
        self._slots = slots
        self._memory = memory
        self._popen = popen if popen is not None else subprocess.Popen
        self._seconds = seconds
        self._lock = threading.Lock()
        self._running: dict[tuple[str, str], concurrent.futures.Future[Recognized]] = {}
        self._done: OrderedDict[tuple[str, str], Recognized] = OrderedDict()
        self._processes: set[subprocess.Popen[bytes]] = set()
        self._closed = False

    def recognize(self, png: bytes, language: str) -> Recognized:
        """(text, engine) of ``png``; EvidenceError when it cannot be read."""
        key = (hashlib.sha256(png).hexdigest(), language)
        with self._lock:
            if self._closed:
                raise EvidenceError("OCR could not run: the server is closing")
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
                return found
            running = self._running.get(key)
            mine = running is None
            if running is None:
                running = self._running[key] = concurrent.futures.Future()
        if not mine:
            return running.result()  # the reading under way: its text, or its error
        try:
            result = self._read(png, language)
        except BaseException as error:
            with self._lock:
                del self._running[key]
            running.set_exception(error)
            raise
        with self._lock:
            del self._running[key]
            self._done[key] = result
            while len(self._done) > KEPT_RESULTS:
                self._done.popitem(last=False)
        running.set_result(result)
        return result

    def close(self) -> None:
        """Kill every Tesseract still running; later calls fail at once."""
        with self._lock:
            self._closed = True
            processes = list(self._processes)
        for process in processes:
            _kill(process)

    def _read(self, png: bytes, language: str) -> Recognized:
        engine = tesseract_engine()
        program = shutil.which("tesseract")
        if engine is None or program is None:
            raise EvidenceError(NO_TESSERACT)
        if not self._slots.acquire(timeout=self._seconds):
            raise EvidenceError(f"OCR waited over {self._seconds:.0f} s for a free worker")
        try:
            return self._run(program, png, language), engine
        finally:
            self._slots.release()

    def _run(self, program: str, png: bytes, language: str) -> str:
        try:
            process = self._popen(
                args=[program, "stdin", "stdout", "-l", language],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                preexec_fn=_limits(self._memory),
                start_new_session=True,  # its own group: whatever it starts is ended with it
            )
        except OSError as error:
            raise EvidenceError(f"OCR could not run: {one_line(error)}") from None
        with self._lock:
            self._processes.add(process)
            closed = self._closed
        try:
            if closed:
                _kill(process)
            out, err = process.communicate(png, timeout=self._seconds)
        except subprocess.TimeoutExpired:
            _kill(process)
            process.communicate()
            raise EvidenceError(f"OCR took over {self._seconds:.0f} s and was stopped") from None
        finally:
            with self._lock:
                self._processes.discard(process)
        if process.returncode != 0:
            why = err.decode("utf-8", "replace").strip().splitlines()
            raise EvidenceError(f"OCR failed: {why[-1] if why else f'exit {process.returncode}'}")
        return out.decode("utf-8", "replace")


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill Tesseract and its process group (what it started, if anything)."""
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()


def _limits(memory: int) -> Callable[[], None]:
    """What the child does before Tesseract runs: die with the thread that started it
    (the server's spawner), and keep to the server's address-space limit."""

    # Loaded here, in the server: between fork and exec the child may only call what
    # is loaded already (another thread may hold the import lock at the fork).
    libc = ctypes.CDLL(None) if sys.platform.startswith("linux") else None

    def apply() -> None:
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if memory > 0:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return apply


_PR_SET_PDEATHSIG = 1
