"""A PDF's first extraction in a process of its own, for a caller whose own thread must
stay responsive (the TUI's first open: siftui.tui.preload).

MuPDF holds Python's interpreter lock while it reads a page, so pages read in a thread of
the TUI's process take turns with the interface: on pgfmanual the extraction took 0.3 s
longer than in `siftui render`, and the interface's first frame came at 1.3-3.0 s instead
of 0.4 s. Here the reading runs in a helper process (which shares its chunks with its own
helpers, as `siftui render` does) and hands the pages over whole.

The protocol, over a socket pair (siftui.sources.helper's :func:`send` and
:func:`receive`): to the helper, once it is wanted, (path, password) (until then it imports MuPDF
and waits; a caller that closes the pair instead ends it); from it ("progress", done,
total) at most every PROGRESS_SECONDS and at the end, then ("loaded", doc, unreadable),
("failed", error name, message) for the extraction's own one-line errors, or ("crashed",
message) for anything else. After "loaded" the helper writes the disk cache's entry
(never with a password), so the caller has the pages before the cache does; a caller
that quits before then leaves the entry unwritten, never half written.
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
from pathlib import Path
from typing import Any

from siftui.core.messages import one_line
from siftui.core.unreadable import Extraction
from siftui.sources.helper import progress_sender, receive, send
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import NotReadable, PageProgress

__all__ = ["ExtractionProcess", "ProcessGone", "extraction_main"]

PROGRESS_SECONDS = 0.1

_CODE = (
    "import sys; from siftui.sources.extract_process import extraction_main; "
    "extraction_main(int(sys.argv[1]))"
)


class ProcessGone(Exception):
    """The helper died, could not be talked to, or failed outside the extraction's
    errors: the caller extracts in its own process instead (and so gets the real error)."""


class ExtractionProcess:
    """An extraction running in a helper process: :meth:`result` waits for it."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        conn: socket.socket,
        path: Path,
        password: str | None,
    ) -> None:
        self._process = process
        self._conn = conn
        self._opening = (os.fspath(path), password)

    @classmethod
    def start(cls, path: Path, password: str | None) -> ExtractionProcess | None:
        """The process that will extract the PDF at ``path``, started: it imports MuPDF
        and waits for :meth:`result` (so a caller can start it before it knows it needs
        it, and :meth:`cancel` it); None when there is no such extraction (a Word
        document, a Doc JSON, not a regular file) or no process can be started: the
        caller loads in its own process."""
        from siftui.sources.helper import start_python_helper
        from siftui.sources.kinds import is_json_form, kind_of_file
        from siftui.sources.parallel import may_start_processes

        try:
            if not path.is_file() or not kind_of_file(path).has_pages or is_json_form(path):
                return None
            if not may_start_processes():
                return None
            process, conn = start_python_helper(_CODE)
        except OSError:
            return None
        return cls(process, conn, path, password)

    def result(self, progress: PageProgress) -> Extraction:
        """The extraction, calling ``progress(done, total)`` as pages are read.

        Raises :class:`~siftui.sources.load.LoadError` with the line `siftui render`
        gives for the same file, or :class:`ProcessGone`."""
        from siftui.sources.load import LoadError
        from siftui.sources.parallel import ERRORS_BY_NAME

        try:
            send(self._conn, self._opening)
            while True:
                message = receive(self._conn)
                if message[0] == "progress":
                    progress(message[1], message[2])
                elif message[0] == "loaded":
                    self._conn.close()
                    # It writes the cache now: reaped when it is done, never killed.
                    threading.Thread(target=self._process.wait, daemon=True).start()
                    return Extraction(message[1], message[2])
                elif message[0] == "failed":
                    raise LoadError(message[2], ERRORS_BY_NAME.get(message[1], NotReadable))
                else:
                    raise ProcessGone(str(message[1]))
        except (EOFError, OSError) as error:
            self.cancel()
            raise ProcessGone(one_line(error) or "the extraction process ended") from None
        except BaseException:
            self.cancel()
            raise

    def cancel(self) -> None:
        """Stop the extraction (an answer found elsewhere, or the caller gave up)."""
        self._conn.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


def extraction_main(fd: int) -> None:
    """The helper: extract, hand the pages over, then write the cache's entry."""
    from siftui.sources.cache import (
        DocCache,
        cache_key,
        file_identity,
        unchanged_since,
    )
    from siftui.sources.extract import extract_report
    from siftui.sources.filehash import file_sha256
    from siftui.sources.pdf_open import ExtractError, check_file, quiet_pymupdf

    quiet_pymupdf()  # while the caller decides whether it needs the pages
    conn = socket.socket(fileno=fd)
    progress = progress_sender(conn, PROGRESS_SECONDS)  # the caller gone: OSError ends it

    def tell(message: tuple[Any, ...]) -> bool:
        try:
            send(conn, message)
        except OSError:  # the caller is gone
            return False
        return True

    try:
        path, password = receive(conn)
        where = check_file(path)
        before = file_identity(where)
        found = extract_report(where, LoadOptions(password=password), progress=progress)
    except ExtractError as error:
        tell(("failed", type(error).__name__, str(error)))
        return
    except (EOFError, OSError):  # the caller is gone
        return
    except Exception as error:  # a MuPDF surprise: the caller reads the file itself
        tell(("crashed", one_line(error)))
        return
    handed = tell(("loaded", found.doc, found.unreadable))
    conn.close()
    if handed and password is None:
        try:
            digest = file_sha256(where)
        except OSError:
            return
        if unchanged_since(where, before):
            key = cache_key(digest, None, name=where)
            DocCache.default().put(key, found.doc, found.unreadable)
