"""The kinds of document siftui shows, each known in one place: its entry here.

A PDF (or anything PyMuPDF opens) is a :class:`~siftui.core.doc.Doc` asked with
:class:`~siftui.core.render.Options`; a Word document is a
:class:`~siftui.core.word.model.DocxDoc` asked with
:class:`~siftui.core.word.render.DocxOptions`. Each kind's entry (:data:`PDF`,
:data:`WORD`) knows what is pure about it: its types, its first call, how it is
rendered, laid out, walked and continued (the next call), its options described,
its document written and read as JSON and counted in runes. Code that handles
either kind asks :func:`kind_of` (a document or options -> its entry) instead of
testing the kind itself; siftui.sources.kinds adds how each kind is detected and
loaded. The Word entry imports its model, renderer, layout, walk, unreachable and
JSON code when first asked, so opening a PDF never loads them; the PDF entry its
walk and unreachable code, which the TUI's first frame does not need.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from siftui.core.doc import Doc
from siftui.core.kind_entry import AnyCall, AnyDoc, AnyOptions, DocumentKind
from siftui.core.pdf_kind import PDF, PdfKind
from siftui.core.render import Rendered
from siftui.core.word.entry import WORD

__all__ = [
    "DEFAULT_KIND",
    "DOCUMENT_SUFFIXES",
    "KINDS",
    "PDF",
    "WORD",
    "AnyCall",
    "AnyDoc",
    "AnyOptions",
    "DocumentKind",
    "kind_named",
    "kind_of",
    "named_kind",
    "next_call_any",
    "paged",
    "paged_doc",
    "render_any",
    "runes_of",
]

KINDS: tuple[DocumentKind[Any, Any], ...] = (PDF, WORD)
"""Every kind, the default (a PDF: anything PyMuPDF opens) first."""
DEFAULT_KIND: PdfKind = PDF
"""The kind of a file no other kind claims (what PyMuPDF opens); the evidence tools'."""
DOCUMENT_SUFFIXES = tuple(kind.suffixes[0] for kind in KINDS)
"""Each kind's own suffix (the files `siftui audit` finds under a folder)."""


def kind_of(value: AnyDoc | AnyOptions) -> DocumentKind[Any, Any]:
    """The entry of the kind of a document or of its options."""
    for kind in KINDS:
        if kind.owns(value):
            return kind
    raise TypeError(f"not a document or options siftui knows: {type(value).__name__}")


def kind_named(name: str) -> DocumentKind[Any, Any] | None:
    """The entry called ``name`` ("pdf", "docx"), or None."""
    return next((kind for kind in KINDS if kind.name == name), None)


def render_any(doc: AnyDoc, options: AnyOptions) -> Rendered:
    """The answer the agent receives; options of the other kind are refused as the
    document's kind refuses them."""
    kind = kind_of(doc)
    if not kind.owns(options):
        raise kind.refusal()
    return kind.render(doc, options)


def next_call_any(options: AnyOptions, rendered: Rendered, doc: AnyDoc) -> AnyOptions | None:
    """The call the answer's note (or map) names next (None, also for another kind's doc)."""
    kind = kind_of(options)
    return kind.next_call(options, rendered, doc) if kind.owns(doc) else None


def runes_of(doc: AnyDoc) -> int:
    """The document's text size in code points."""
    return kind_of(doc).runes(doc)


def named_kind(path: str | os.PathLike[str]) -> DocumentKind[Any, Any] | None:
    """The kind a file's name says (by its suffix), or None."""
    suffix = Path(path).suffix.lower()
    return next((kind for kind in KINDS if suffix in kind.suffixes), None)


def paged(value: object) -> Doc | None:
    """``value`` when it is a document of pages (a Doc: what OCR, images, hidden text,
    page tokens and pages= calls are about), else None."""
    return value if isinstance(value, Doc) else None


def paged_doc(value: object) -> Doc:
    """``value``, which is a document of pages (TypeError otherwise)."""
    found = paged(value)
    if found is None:
        raise TypeError(f"not a document of pages: {type(value).__name__}")
    return found
