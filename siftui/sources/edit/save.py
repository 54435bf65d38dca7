"""E19's write: the draft's bytes, written over the file atomically.

The bytes are the file's own followed by an incremental update (MuPDF writes it to
memory, the original bytes first) where MuPDF can: a file it repaired on open is
rewritten whole, and that is said. An encrypted file keeps its encryption either
way. The bytes go to a temporary file in the file's folder, are flushed to disk,
get the file's permission bits and are renamed over it, so a reader of the path
sees the old file or the new one, never a part.
"""

from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

__all__ = ["DraftBytes", "draft_bytes", "replace_file", "whole_reason"]

REPAIRED = "MuPDF repaired the file when it opened it: saving rewrites it whole"


@dataclass(frozen=True, slots=True)
class DraftBytes:
    data: bytes
    whole: bool  # rewritten whole, not appended to
    reason: str  # why whole ("" when incremental)


def whole_reason(document: Any) -> str:
    """Why a save of ``document`` rewrites the file whole ("" when it appends)."""
    if document.is_repaired:
        return REPAIRED
    if not document.can_save_incrementally():
        return "MuPDF cannot append to this file: saving rewrites it whole"
    return ""


def draft_bytes(document: Any) -> DraftBytes:
    pdf = pymupdf._as_pdf_document(document)
    reason = whole_reason(document)
    options = mupdf.PdfWriteOptions()
    options.do_encrypt = pymupdf.PDF_ENCRYPT_KEEP
    if not reason:
        options.do_incremental = 1
    else:
        options.do_garbage = 1
    buffer = mupdf.FzBuffer(1 << 16)
    output = mupdf.FzOutput(buffer)
    mupdf.pdf_write_document(pdf, output, options)
    output.fz_close_output()
    return DraftBytes(bytes(buffer.fz_buffer_extract()), bool(reason), reason)


def replace_file(path: str, data: bytes) -> None:
    """``data`` over the file at ``path``: a temporary file beside it, flushed, its
    permission bits kept, renamed over; the folder flushed after."""
    target = Path(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    temporary = target.with_name(f".{target.name}.siftui-{secrets.token_hex(6)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
