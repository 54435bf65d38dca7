"""How each kind of document is detected and loaded: the outside world's half of
siftui.core.kinds' table.

:func:`kind_of_file` and :func:`kind_of_bytes` (siftui.sources.detect) say which
entry a file belongs to. :func:`load_any` is the one loader of the CLI, the TUI and
the MCP worker: a path or bytes -> :class:`Loaded`, errors a
:class:`~siftui.sources.load.LoadError` with one line.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from siftui.core.kinds import PDF, WORD, AnyDoc, DocumentKind
from siftui.core.render import Options
from siftui.core.unreadable import UnreadablePage
from siftui.sources.detect import kind_of_bytes, kind_of_file
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import PageProgress
from siftui.sources.word.kind import PDF_HEADER_WITHIN, is_pdf_head, is_word

__all__ = [
    "Loaded",
    "claimed_kind",
    "is_json_form",
    "is_json_form_bytes",
    "is_pages_head",
    "kind_of_bytes",
    "kind_of_file",
    "load_any",
]


def is_json_form(path: str | os.PathLike[str]) -> bool:
    """Whether the file holds a document's JSON (as `siftui extract` writes it: a
    ``.json`` name or a leading ``{``), text without the pages to look at."""
    from siftui.sources.load import is_doc_json

    return is_doc_json(path)


def is_json_form_bytes(name: str | os.PathLike[str], data: bytes) -> bool:
    """:func:`is_json_form` for a file already read into ``data`` (``name`` only names it)."""
    from siftui.sources.load import is_doc_json_bytes

    return is_doc_json_bytes(name, data)


def is_pages_head(head: bytes) -> bool:
    """Whether a file's first bytes (:data:`HEAD_BYTES` of them) are a document of pages
    itself (a PDF's header), whatever its name."""
    return is_pdf_head(head)


HEAD_BYTES = PDF_HEADER_WITHIN
"""How many of a file's first bytes :func:`is_pages_head` and :func:`claimed_kind` read."""


def claimed_kind(
    name: str | os.PathLike[str], head: bytes, package: Callable[[], zipfile.ZipFile]
) -> DocumentKind[Any, Any] | None:
    """The kind a file's bytes (its first :data:`HEAD_BYTES`, and ``package`` opening it
    as a ZIP) surely are: a PDF's header, a Word package or its JSON; None: neither
    (what MuPDF makes of it, or a Doc JSON). A PDF's bytes are a PDF whatever the name."""
    if is_pdf_head(head):
        return PDF
    return WORD if is_word(name, head, package) else None


@dataclass(frozen=True)
class Loaded:
    """A document as it was loaded: a PDF's Doc (and the pages that could not be read)
    or a Word document's model."""

    doc: AnyDoc
    unreadable: tuple[UnreadablePage, ...] = ()


def load_any(
    source: str | os.PathLike[str] | bytes,
    options: LoadOptions = DEFAULT_LOAD,
    *,
    name: str | os.PathLike[str] = "",
    kind: DocumentKind[Any, Any] | None = None,
    progress: PageProgress | None = None,
    answering: Options | None = None,
) -> Loaded:
    """The document at ``source`` (a path), or in ``source`` (its bytes, ``name`` naming
    it), loaded as ``kind`` (default: the kind detected).

    A PDF goes through the disk cache (never with a password) and, from a path, the
    parallel extraction; a Doc JSON is read as it is. ``options`` (from a path) and
    ``progress`` are a PDF's; a Word document has none of them, and of bytes only the
    password and the disk cache apply. ``answering`` (a PDF from a path): the one request the
    Doc is for; a page range on a file the cache does not hold gets a partial Doc,
    good for that answer only (:func:`siftui.sources.load.load_doc_report`).
    """
    if isinstance(source, bytes):
        kind = kind_of_bytes(name, source) if kind is None else kind
        if kind is WORD:
            from siftui.sources.word.load import load_docx_bytes

            return Loaded(load_docx_bytes(name, source))
        from siftui.sources.load import load_doc_bytes

        found = load_doc_bytes(name, source, options, progress=progress)
        return Loaded(found.doc, found.unreadable)
    kind = kind_of_file(source) if kind is None else kind
    if kind is WORD:
        from siftui.sources.word.load import load_docx

        return Loaded(load_docx(source))
    from siftui.sources import load

    found = load.load_doc_report(source, options, progress=progress, answering=answering)
    return Loaded(found.doc, found.unreadable)
