"""How each kind of document is detected and loaded: the outside world's half of
siftui.core.kinds' table.

:func:`kind_of_file` and :func:`kind_of_bytes` (siftui.sources.detect) say which
entry a file belongs to. :func:`load_any` is the one loader of the CLI, the TUI and
the MCP worker: a path or bytes -> :class:`Loaded`, errors a
:class:`~siftui.sources.load.LoadError` with one line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from siftui.core.kinds import WORD, AnyDoc, DocumentKind
from siftui.core.render import Options
from siftui.core.unreadable import UnreadablePage
from siftui.sources.detect import kind_of_bytes, kind_of_file
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import Progress

__all__ = ["Loaded", "kind_of_bytes", "kind_of_file", "load_any"]


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
    progress: Progress | None = None,
    answering: Options | None = None,
) -> Loaded:
    """The document at ``source`` (a path), or in ``source`` (its bytes, ``name`` naming
    it), loaded as ``kind`` (default: the kind detected).

    A PDF goes through the disk cache (never with a password) and, from a path, the
    parallel extraction; a Doc JSON is read as it is. ``options`` (from a path) and
    ``progress`` are a PDF's; a Word document has none of them, and bytes are read
    with the default options. ``answering`` (a PDF from a path): the one request the
    Doc is for; a page range on a file the cache does not hold gets a partial Doc,
    good for that answer only (:func:`siftui.sources.load.load_doc_report`).
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

    found = load.load_doc_report(source, options, progress=progress, answering=answering)
    return Loaded(found.doc, found.unreadable)
