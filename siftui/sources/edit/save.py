"""E19's write: the draft's bytes, written over the file atomically.

The bytes are the file's own followed by an incremental update where MuPDF can
(it writes the original bytes first, then the update): a file it repaired on open
is rewritten whole, and that is said. An encrypted file keeps its encryption
either way. MuPDF writes them straight into a temporary file in the file's folder,
which is flushed to disk, given the file's permission bits and renamed over it, so
a reader of the path sees the old file or the new one, never a part.
"""

from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from siftui.sources.edit.documents import Fingerprint, fingerprint, is_encrypted, open_pdf
from siftui.sources.pdf_open import quiet_pymupdf

__all__ = ["REPAIRED", "Written", "still_encrypted", "whole_reason", "write_beside"]

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

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


@dataclass(frozen=True, slots=True)
class Written:
    """The new bytes, in a flushed temporary file beside the file, not yet renamed."""

    target: Path
    temporary: Path
    data: bytes
    whole: bool  # rewritten whole, not appended to
    reason: str  # why whole ("" when appended)

    def replace(self) -> Fingerprint | None:
        """Renames the temporary file over the file (the folder flushed after); the new
        file's fingerprint, None when it cannot be read back."""
        os.replace(self.temporary, self.target)
        folder = os.open(self.target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        try:
            return fingerprint(os.stat(self.target))
        except OSError:
            return None

    def drop(self) -> None:
        self.temporary.unlink(missing_ok=True)


def write_beside(path: str, document: Any, base: bytes) -> Written:
    """``document``'s bytes in a new temporary file beside ``path``: written by MuPDF,
    read back (appended to ``base``, the file's bytes: only the update is read), given
    ``path``'s permission bits and flushed to disk."""
    target = Path(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    temporary = target.with_name(f".{target.name}.siftui-{secrets.token_hex(6)}.tmp")
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        reason = whole_reason(document)
        options = mupdf.PdfWriteOptions()
        options.do_encrypt = pymupdf.PDF_ENCRYPT_KEEP
        if reason:
            options.do_garbage = 1
        else:
            options.do_incremental = 1
        output = mupdf.FzOutput(str(temporary), 0)
        try:
            mupdf.pdf_write_document(pymupdf._as_pdf_document(document), output, options)
        finally:
            output.fz_close_output()
        descriptor = os.open(temporary, os.O_RDONLY)
        try:
            with os.fdopen(descriptor, "rb", closefd=False) as stream:
                if reason:
                    data = stream.read()
                else:  # MuPDF copied the original bytes first: the update follows them
                    stream.seek(len(base))
                    data = base + stream.read()
                    if os.fstat(descriptor).st_size != len(data):
                        raise OSError("MuPDF's incremental update is not the file's end")
            os.fchmod(descriptor, mode)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return Written(target, temporary, data, bool(reason), reason)
