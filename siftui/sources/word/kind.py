"""Whether a file is a Word document (or the JSON siftui extract writes for one).

The sniffing that siftui.sources.kinds (the kind table's detection) is built on:
MuPDF opens some .docx files too, and its text is not the projection an agent gets
through read_docx, so a Word file is never read as a PDF.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable
from pathlib import Path

from siftui.core.word import DOCX_SUFFIXES

__all__ = [
    "DOCX_SUFFIXES",
    "PDF_HEADER_WITHIN",
    "is_docx",
    "is_docx_json",
    "is_pdf_head",
    "is_word",
]


def is_docx(path: str) -> bool:
    """:func:`is_word` for the file at ``path`` (by its name alone when it cannot be
    read, or is no regular file: sniffing a FIFO or a device would block)."""
    if not os.path.isfile(path):
        return _named_word(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(PDF_HEADER_WITHIN)
    except OSError:
        return _named_word(path)
    return is_word(path, head, lambda: zipfile.ZipFile(path))


def is_word(
    name: str | os.PathLike[str], head: bytes, package: Callable[[], zipfile.ZipFile]
) -> bool:
    """True for a Word package (by its name, or a ZIP holding word/document.xml) or the
    JSON `siftui extract` writes for one; a PDF's bytes are a PDF whatever the name.
    ``head``: the file's first :data:`PDF_HEADER_WITHIN` bytes (or more); ``package``
    opens the file as a ZIP, asked only of a ZIP its name does not call Word."""
    if is_pdf_head(head):
        return False
    if _named_word(name):
        return True
    if head.startswith(b"PK\x03\x04"):
        try:
            with package() as opened:
                return "word/document.xml" in opened.namelist()
        except (OSError, zipfile.BadZipFile, ValueError):
            return False
    return is_docx_json(head[:256])


def _named_word(name: str | os.PathLike[str]) -> bool:
    return Path(name).suffix.lower() in DOCX_SUFFIXES


PDF_HEADER_WITHIN = 4096 + 5
"""A PDF's %PDF- header may come after other bytes: it starts within the first 4096
bytes, as MuPDF's own recognition of a PDF by its content has it (a PDF after 1,100
leading spaces is a PDF to MuPDF, so to every reader of siftui)."""


def is_pdf_head(head: bytes) -> bool:
    """True when ``head`` (a file's first bytes) holds a PDF's header (and is no ZIP
    package, whose first entry's bytes might hold anything)."""
    return not head.startswith(b"PK\x03\x04") and b"%PDF-" in head[:PDF_HEADER_WITHIN]


def is_docx_json(head: bytes) -> bool:
    """True when ``head`` (a file's first bytes) opens a Word document's JSON."""
    if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    from siftui.core.word.docjson import SNIFF

    return SNIFF.match(head) is not None
