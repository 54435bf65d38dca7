"""Documents for a long-running server: bounded extraction and an in-memory cache.

Extraction runs in a separate process (PyMuPDF holds the GIL and cannot be
interrupted from a thread), so a file that takes too long is stopped for good:
the process is killed after ``timeout`` seconds. Files above ``max_bytes`` are
refused before any work. A Doc is cached per (real path, mtime, size), so an
agent paging through one file pays for the extraction once.
"""

from __future__ import annotations

import multiprocessing
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from siftui.cache import file_sha256
from siftui.doc import Doc
from siftui.extract import ExtractError, check_file
from siftui.load import LoadError, load_doc
from siftui.messages import quoted

DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_BYTES = 200_000_000
DEFAULT_CAPACITY = 8

Loader = Callable[[Path, float], Doc]


def _worker(conn: Connection, path: str) -> None:
    # The parent's stdout may be an MCP wire: nothing in this process may write to it.
    os.dup2(2, 1)
    try:
        conn.send((True, load_doc(path)))
    except LoadError as error:
        conn.send((False, str(error)))
    except Exception as error:  # a bug or MuPDF surprise: still one line for the agent
        reason = " ".join(str(error).split()) or type(error).__name__
        conn.send((False, f"{quoted(path)}: extraction failed: {reason}"))
    finally:
        conn.close()


def load_in_worker(path: Path, timeout: float) -> Doc:
    """``load_doc(path)`` in a fresh process, killed after ``timeout`` seconds."""
    context = multiprocessing.get_context("spawn")  # no fork of a threaded server
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(sender, str(path)), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise LoadError(f"{quoted(path)}: extraction took longer than {timeout:g} s; stopped")
        try:
            ok, value = receiver.recv()
        except EOFError:
            process.join(5)
            raise LoadError(
                f"{quoted(path)}: the extraction process died (exit code {process.exitcode})"
            ) from None
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join()
    if not ok:
        raise LoadError(value)
    assert isinstance(value, Doc)
    return value


@dataclass(frozen=True)
class Loaded:
    doc: Doc
    sha256: str


_Key = tuple[str, int, int]


class DocStore:
    """Loads documents through ``loader`` within limits and keeps recent ones.

    Thread-safe: concurrent requests for one file wait for a single extraction.
    """

    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int = DEFAULT_MAX_BYTES,
        capacity: int = DEFAULT_CAPACITY,
        loader: Loader = load_in_worker,
    ) -> None:
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.capacity = capacity
        self.loader = loader
        self._cache: OrderedDict[_Key, Loaded] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[_Key, threading.Lock] = {}

    def get(self, path: Path) -> Loaded:
        """The Doc of the file at ``path`` (a real path) and its sha256, or LoadError."""
        try:
            check_file(path)
            info = path.stat()
        except ExtractError as error:
            raise LoadError(str(error)) from None
        except OSError as error:
            raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None
        if not stat.S_ISREG(info.st_mode):
            raise LoadError(f"{quoted(path)}: not a regular file")
        if info.st_size > self.max_bytes:
            raise LoadError(
                f"{quoted(path)}: {info.st_size:,} bytes, over this server's limit of "
                f"{self.max_bytes:,} bytes"
            )
        key: _Key = (str(path), info.st_mtime_ns, info.st_size)
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        try:
            with key_lock:
                with self._lock:
                    if key in self._cache:
                        self._cache.move_to_end(key)
                        return self._cache[key]
                try:
                    loaded = Loaded(doc=self.loader(path, self.timeout), sha256=file_sha256(path))
                except OSError as error:
                    raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None
                with self._lock:
                    # Another version of this file is stale now; drop it.
                    for old in [k for k in self._cache if k[0] == key[0]]:
                        del self._cache[old]
                    self._cache[key] = loaded
                    while len(self._cache) > self.capacity:
                        self._cache.popitem(last=False)
        finally:
            with self._lock:
                if self._key_locks.get(key) is key_lock:
                    del self._key_locks[key]
        return loaded

    def cached(self) -> int:
        with self._lock:
            return len(self._cache)
