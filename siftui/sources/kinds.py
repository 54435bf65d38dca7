"""How each kind of document is detected and loaded: the outside world's half of
siftui.core.kinds' table.

:func:`kind_of_file` and :func:`kind_of_bytes` say which entry a file belongs to
(a Word package or its JSON is :data:`~siftui.core.kinds.WORD`; anything else,
Doc JSON included, :data:`~siftui.core.kinds.PDF`, since MuPDF's text of a .docx
is not the projection an agent gets). :func:`load_any` is the one loader of the
CLI, the TUI and the MCP worker: a path or bytes -> :class:`Loaded`, errors a
:class:`~siftui.sources.load.LoadError` with one line.
"""

from __future__ import annotations

import io
import os
import zipfile
from dataclasses import dataclass
from typing import Any

from siftui.core.kinds import PDF, WORD, AnyDoc, DocumentKind
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.core.render import Options
from siftui.core.unreadable import UnreadablePage
from siftui.sources.extract import Progress
from siftui.sources.word.kind import is_docx, is_word

__all__ = ["Loaded", "kind_of_bytes", "kind_of_file", "load_any"]


@dataclass(frozen=True)
class Loaded:
    """A document as it was loaded: a PDF's Doc (and the pages that could not be read)
    or a Word document's model."""

    doc: AnyDoc
    unreadable: tuple[UnreadablePage, ...] = ()


def kind_of_file(path: str | os.PathLike[str]) -> DocumentKind[Any, Any]:
    """The kind of the file at ``path``: Word for a Word package (by its name, or a ZIP
    holding word/document.xml) or its JSON; else a PDF (or a Doc JSON)."""
    return WORD if is_docx(os.fspath(path)) else PDF


def kind_of_bytes(name: str | os.PathLike[str], data: bytes) -> DocumentKind[Any, Any]:
    """:func:`kind_of_file` for a file already read into ``data`` (``name`` names it)."""
    return WORD if is_word(name, data, lambda: zipfile.ZipFile(io.BytesIO(data))) else PDF


def load_any(
    source: str | os.PathLike[str] | bytes,
    *,
    name: str | os.PathLike[str] = "",
    kind: DocumentKind[Any, Any] | None = None,
    password: str | None = None,
    max_pages: int | None = None,
    use_cache: bool = True,
    ocr: bool = False,
    ocr_language: str = DEFAULT_OCR_LANGUAGE,
    progress: Progress | None = None,
    answering: Options | None = None,
) -> Loaded:
    """The document at ``source`` (a path), or in ``source`` (its bytes, ``name`` naming
    it), loaded as ``kind`` (default: the kind detected).

    A PDF goes through the disk cache (never with a password) and, from a path, the
    parallel extraction; a Doc JSON is read as it is. ``password``, ``max_pages``,
    ``ocr`` (in ``ocr_language``, Tesseract's codes) and ``progress`` are a PDF's; a
    Word document has none of them. ``answering`` (a PDF from a path): the one
    request the Doc is for; a page range on a file the cache does not hold gets a
    partial Doc, good for that answer only
    (:func:`siftui.sources.load.load_doc_report`).
    """
    if isinstance(source, bytes):
        kind = kind_of_bytes(name, source) if kind is None else kind
        if kind is WORD:
            from siftui.sources.word.load import load_docx_bytes

            return Loaded(load_docx_bytes(name, source))
        from siftui.sources.load import load_doc_bytes

        found = load_doc_bytes(name, source, progress=progress)
        return Loaded(found.doc, found.unreadable)
    kind = kind_of_file(source) if kind is None else kind
    if kind is WORD:
        from siftui.sources.word.load import load_docx

        return Loaded(load_docx(source))
    from siftui.sources import load

    found = load.load_doc_report(
        source,
        max_pages=max_pages,
        password=password,
        use_cache=use_cache,
        ocr=ocr,
        ocr_language=ocr_language,
        progress=progress,
        answering=answering,
    )
    return Loaded(found.doc, found.unreadable)
