"""Whether a file is a Word document (or the JSON siftui extract writes for one).

The sniffing that siftui.sources.kinds (the kind table's detection) is built on:
MuPDF opens some .docx files too, and its text is not the projection an agent gets
through read_docx, so a Word file is never read as a PDF.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

DOCX_SUFFIXES = (".docx", ".docm", ".dotx", ".dotm")


def is_docx(path: str) -> bool:
    """True for a Word package (by its name, or a ZIP holding word/document.xml) or
    the JSON `siftui extract` writes for one."""
    if Path(path).suffix.lower() in DOCX_SUFFIXES:
        return True
    if not os.path.isfile(path):  # never open a FIFO or a device to sniff it: it would block
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
        if head.startswith(b"PK\x03\x04"):
            with zipfile.ZipFile(path) as package:
                return "word/document.xml" in package.namelist()
    except (OSError, zipfile.BadZipFile, ValueError):
        return False
    return is_docx_json(head)


def is_docx_json(head: bytes) -> bool:
    """True when ``head`` (a file's first bytes) opens a Word document's JSON."""
    if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    from siftui.core.word.docjson import SNIFF

    return SNIFF.match(head) is not None
