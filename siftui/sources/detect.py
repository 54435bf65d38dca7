"""Which kind a file is: the detection half of siftui.sources.kinds, apart so that the
loaders it calls (siftui.sources.load refuses a Word document by it) import it
without importing the loader table back.

:func:`kind_of_file` and :func:`kind_of_bytes` say which entry a file belongs to
(a Word package or its JSON is :data:`~siftui.core.kinds.WORD`; anything else,
Doc JSON included, :data:`~siftui.core.kinds.PDF`, since MuPDF's text of a .docx
is not the projection an agent gets).
"""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from siftui.sources.word.kind import is_docx, is_pdf_head, is_word

if TYPE_CHECKING:
    from siftui.core.kinds import DocumentKind

# The kind table (siftui.core.kinds, with every kind's renderer) is imported when a kind
# is asked for: :func:`mupdf_type` alone is what a helper process reading pages needs
# (siftui.sources.pdf_open), and the table cost it ~40 ms of CPU before its first page.

__all__ = ["kind_of_bytes", "kind_of_file", "mupdf_type"]


def kind_of_file(path: str | os.PathLike[str]) -> DocumentKind[Any, Any]:
    """The kind of the file at ``path``: Word for a Word package (by its name, or a ZIP
    holding word/document.xml) or its JSON; else a PDF (or a Doc JSON)."""
    from siftui.core.kinds import PDF, WORD

    return WORD if is_docx(os.fspath(path)) else PDF


def kind_of_bytes(name: str | os.PathLike[str], data: bytes) -> DocumentKind[Any, Any]:
    """:func:`kind_of_file` for a file already read into ``data`` (``name`` names it)."""
    from siftui.core.kinds import PDF, WORD

    return WORD if is_word(name, data, lambda: zipfile.ZipFile(io.BytesIO(data))) else PDF


def mupdf_type(name: str | os.PathLike[str], head: bytes) -> str | None:
    """The type MuPDF is told for the file ``name`` whose first bytes are ``head`` (at
    least :data:`~siftui.sources.word.kind.PDF_HEADER_WITHIN` of them), one answer for
    every reader of it (extraction, pdf_info's metadata, a page drawn, by path or from
    bytes): "pdf" when the bytes hold a PDF's header, whatever the name (a PDF named
    .docx is a PDF); else the name's suffix (MuPDF's own choice by name, then content),
    None without one. MuPDF opens bytes with the type a path's suffix would give it,
    so a file read by path and the same bytes read by a worker open alike."""
    if is_pdf_head(head):
        return "pdf"
    return Path(name).suffix.lstrip(".").lower() or None
