"""The sha256 of a file's bytes: the disk cache's key, the call log's and the replay's
check, the audit's record. One function for all of them, with one contract."""

from __future__ import annotations

import hashlib
import os
import stat
import threading
import time

__all__ = ["Fingerprint", "NotARegularFile", "file_sha256", "fingerprint"]

Fingerprint = tuple[int, int, int, int, int]
"""(device, inode, size, mtime_ns, ctime_ns): the file's version as its stat tells it."""


_HASHED_KEPT = 64
_hashed: dict[Fingerprint, str] = {}
_hashed_lock = threading.Lock()
_SETTLED_NS = 2_000_000_000


class NotARegularFile(OSError):
    """The path names a directory, a FIFO, a device: nothing whose bytes have a digest."""


def fingerprint(info: os.stat_result) -> Fingerprint:
    # ctime changes on every write and cannot be set back by a program, so equal
    # stats mean the same bytes (git's index rests on the same fact).
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _settled(info: os.stat_result) -> bool:
    # The kernel's file clock ticks in milliseconds: two writes in one tick leave the
    # same times. A file unchanged for 2 s before it was read cannot be such a twin.
    return time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > _SETTLED_NS


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The sha256 (hex) of the bytes of the regular file at ``path``.

    Contract: an :class:`OSError` when the file cannot be opened or read, and
    :class:`NotARegularFile` (an OSError) when it is no regular file; it is opened
    without waiting, so a FIFO (which would wait for a writer) or a device is never
    read. Callers that record "no digest" catch OSError.

    Remembered in this process for the file's version (device, inode, size,
    modification and change times) once that version has settled, so the callers
    that each need it (the TUI's loader, then the cache's lookup; an audit's hash
    before and after reading) read a large file once, not once each."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(f"not a regular file: {os.fspath(path)}")
    except BaseException:
        os.close(fd)
        raise
    with open(fd, "rb") as handle:
        before, settled = fingerprint(info), _settled(info)
        with _hashed_lock:
            known = _hashed.get(before)
        if known is not None:
            return known
        digest = hashlib.sha256()
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
        found = digest.hexdigest()
        if settled and fingerprint(os.fstat(fd)) == before:
            with _hashed_lock:
                _hashed.pop(before, None)
                _hashed[before] = found
                while len(_hashed) > _HASHED_KEPT:
                    del _hashed[next(iter(_hashed))]
    return found
