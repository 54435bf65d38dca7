"""E19's write: the draft's bytes, written over the file atomically.

The bytes are the file's own followed by an incremental update where MuPDF can: a
file it repaired on open is rewritten whole, and that is said. An encrypted file
keeps its encryption either way. The new bytes go to a temporary file in the file's
folder, which is flushed to disk, given the file's permission bits and renamed over
it (the folder flushed after), so a reader of the path sees the old file or the new
one, never a part.

What a save waits for is kept to the disk's own work. The file's bytes go into the
temporary file first, in the kernel, from the file itself (a reflink where the file
system has them, so they are neither copied nor flushed again), or from memory when
the file may have changed; the disk starts writing them while MuPDF makes its
update, in memory, which follows them. The old file is held open over the rename
and let go of in the background: freeing its blocks is the file system's work, done
after the answer.
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
import threading
from contextlib import suppress
from functools import cache, partial
from pathlib import Path
from typing import Any

from siftui.sources.edit.documents import (
    Fingerprint,
    fingerprint,
    is_encrypted,
    later,
    open_pdf,
)
from siftui.sources.pdf_open import quiet_pymupdf

__all__ = ["REPAIRED", "FileBytes", "Written", "still_encrypted", "whole_reason", "write_beside"]

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

_SYNC_FILE_RANGE_WRITE = 2  # from <fcntl.h>

REPAIRED = "MuPDF repaired the file when it opened it: saving rewrites it whole"


def still_encrypted(data: bytes, password: str | None) -> bool:
    """Whether the bytes written for an encrypted file are encrypted still."""
    with open_pdf(data, password) as document:
        return is_encrypted(document)


def whole_reason(document: Any) -> str:
    """Why a save of ``document`` rewrites the file whole ("" when it appends)."""
    if document.is_repaired:
        return REPAIRED
    if not document.can_save_incrementally():
        return "MuPDF cannot append to this file: saving rewrites it whole"
    return ""


def _mupdf_bytes(document: Any, base: bytes, reason: str) -> tuple[bytes, bytes]:
    """What MuPDF writes for ``document``, as (the file's bytes kept, what follows them):
    (b"", the whole file) when ``reason`` says why it is rewritten whole, else ``base``
    (the bytes ``document`` was opened on) and the incremental update. Written to
    memory: MuPDF copies the bytes it was opened on first, and only the update is
    taken from there."""
    options = mupdf.PdfWriteOptions()
    options.do_encrypt = pymupdf.PDF_ENCRYPT_KEEP
    if reason:
        options.do_garbage = 1
    else:
        options.do_incremental = 1
    buffer = mupdf.FzBuffer(len(base) + (1 << 16))  # grown only for an update over 64 KiB
    output = mupdf.FzOutput(buffer)
    try:
        mupdf.pdf_write_document(pymupdf._as_pdf_document(document), output, options)
    finally:
        output.fz_close_output()
    view = mupdf.fz_buffer_storage_memoryview(buffer)
    if reason:
        return b"", bytes(view)
    if len(view) < len(base):
        raise ValueError("MuPDF's incremental update does not follow the file's bytes")
    # MuPDF copied the bytes ``document`` was opened on: when they are ``base`` itself,
    # its copy is not taken again.
    head = base if getattr(document, "stream", None) is base else bytes(view[: len(base)])
    return head, bytes(view[len(base) :])


def _write_all(descriptor: int, data: bytes, at: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(descriptor, view, at)
        view, at = view[written:], at + written


def _copy_file(source: int, target: int, size: int) -> bool:
    """The first ``size`` bytes of ``source`` into ``target``, in the kernel; False when
    the kernel cannot (part of them may be in ``target`` then)."""
    copied = 0
    try:
        while copied < size:
            done = os.copy_file_range(source, target, size - copied, copied, copied)
            if not done:
                return False
            copied += done
    except (AttributeError, OSError):  # no copy_file_range here, or not for these files
        return False
    return True


def _put_base(source: int, target: int, base: bytes, seen: Fingerprint | None) -> None:
    """``base`` (the file's bytes) at the start of the empty ``target``, its write-out to
    the disk started: copied from ``source`` (the file) while it shows ``seen``, the
    fingerprint it had with ``base``, before and after the copy; else from memory."""
    if not base:
        return
    if not (
        seen is not None
        and fingerprint(os.fstat(source)) == seen
        and _copy_file(source, target, len(base))
        and fingerprint(os.fstat(source)) == seen
    ):
        os.ftruncate(target, 0)
        _write_all(target, base, 0)
    _start_writing_out(target)


@cache
def _sync_file_range() -> Any:
    """Linux's sync_file_range, None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # only here: a save is the one user

    try:
        call = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):
        return None
    call.argtypes = (ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint)
    call.restype = ctypes.c_int
    return call


def _start_writing_out(descriptor: int) -> None:
    """Has the kernel start writing the file's bytes to the disk now, without waiting
    (the fsync after waits for what is left): a hint, nothing relies on it."""
    call = _sync_file_range()
    if call is not None:
        call(descriptor, 0, 0, _SYNC_FILE_RANGE_WRITE)


class FileBytes:
    """A file's bytes given in pieces (the bytes before a save, then its update), joined
    when first asked for, once: a save answers without waiting for a copy of the file."""

    def __init__(self, *pieces: bytes) -> None:
        self._pieces = pieces
        self._lock = threading.Lock()
        self.size = sum(map(len, pieces))

    def get(self) -> bytes:
        """The bytes (the same object at every call)."""
        pieces = self._pieces
        if len(pieces) > 1:
            joined = b"".join(pieces)
            with self._lock:
                if len(self._pieces) > 1:
                    self._pieces = (joined,)
        return self._pieces[0]


class Written:
    """The new bytes, in a flushed temporary file beside the file, not yet renamed."""

    def __init__(
        self, target: Path, temporary: Path, head: bytes, added: bytes, reason: str, old: int
    ) -> None:
        self.target = target
        self.temporary = temporary
        self.bytes = FileBytes(head, added) if head else FileBytes(added)
        self.added = added  # what follows the file's bytes (all of them when whole)
        self.reason = reason  # why rewritten whole ("" when appended)
        self._old = old  # the old file, open until it is let go of

    @property
    def whole(self) -> bool:
        """Rewritten whole, not appended to."""
        return bool(self.reason)

    def replace(self) -> Fingerprint | None:
        """Renames the temporary file over the file (the folder flushed after); the new
        file's fingerprint, None when it cannot be read back."""
        os.replace(self.temporary, self.target)
        # The file's bytes are on the disk and the rename is done: the path shows the new
        # file. Flushing the folder makes the rename survive a power cut; a folder that
        # cannot be flushed (file systems that refuse fsync on a folder) must not turn a
        # save that happened into a refusal, after which the draft's next save would be
        # refused as "changed on disk" over its own bytes.
        with suppress(OSError):
            folder = os.open(self.target.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        old, self._old = self._old, -1
        later(partial(os.close, old))  # the old file's blocks are freed then
        try:
            return fingerprint(os.stat(self.target))
        except OSError:
            return None

    def drop(self) -> None:
        self.temporary.unlink(missing_ok=True)
        if self._old >= 0:
            os.close(self._old)
            self._old = -1


def write_beside(path: str, document: Any, base: bytes, seen: Fingerprint | None) -> Written:
    """``document``'s bytes in a new temporary file beside ``path``, given ``path``'s
    permission bits and flushed to disk. ``base``: the file's bytes, which ``document``
    was opened on; ``seen``: the file's fingerprint with them (None when unknown)."""
    target = Path(path)
    reason = whole_reason(document)
    # An update follows the bytes MuPDF opened: when they are ``base`` they go beside
    # first, and the disk writes them while MuPDF makes the update.
    early = base if not reason and getattr(document, "stream", None) is base else b""
    old = os.open(target, os.O_RDONLY)
    try:
        mode = stat.S_IMODE(os.fstat(old).st_mode)
        temporary = target.with_name(f".{target.name}.siftui-{secrets.token_hex(6)}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            _put_base(old, descriptor, early, seen)
            head, added = _mupdf_bytes(document, base, reason)
            if head is not early:
                _write_all(descriptor, head, 0)
            _write_all(descriptor, added, len(head))
            os.fchmod(descriptor, mode)
            # fsync, not fdatasync: the permission bits are metadata fdatasync may leave
            # unwritten (on ext4 the two take the same time for this new file).
            os.fsync(descriptor)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        finally:
            os.close(descriptor)
    except BaseException:
        os.close(old)
        raise
    return Written(target, temporary, head, added, reason, old)
