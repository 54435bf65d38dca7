"""Operations applied to a PyMuPDF document (the draft), one at a time.

A markup's quads and a note's rect arrive in PDF user space; PyMuPDF takes its
own page space, so they go through ``page.transformation_matrix`` (which knows the
MediaBox's origin) and come back out as the same user-space numbers. Every new
annotation gets its appearance stream from MuPDF (``update``), so any viewer
draws it.
"""

from __future__ import annotations

from typing import Any

from siftui.core.edit.operations import (
    AddAnnotation,
    DeleteAnnotation,
    Operation,
    UpdateAnnotation,
)
from siftui.sources.edit.scan import page_annotations
from siftui.sources.extract import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()

__all__ = ["ApplyError", "apply_operation"]


class ApplyError(Exception):
    """An operation the draft cannot take (its annotation is gone): a bug or a file
    changed under a kept draft, never the agent's input."""


def _rgb(color: str) -> tuple[float, float, float]:
    return (int(color[1:3], 16) / 255, int(color[3:5], 16) / 255, int(color[5:7], 16) / 255)


_MARKUP = {
    "Highlight": "add_highlight_annot",
    "Underline": "add_underline_annot",
    "StrikeOut": "add_strikeout_annot",
    "Squiggly": "add_squiggly_annot",
}


def _add(document: Any, operation: AddAnnotation) -> None:
    page = document[operation.page - 1]
    to_page = page.transformation_matrix
    if operation.rect is not None:
        left, bottom, right, top = operation.rect
        box = pymupdf.Rect(left, bottom, right, top) * to_page
        annotation = page.add_text_annot(box.tl, operation.comment)
        annotation.set_rect(box)
    else:
        quads = [
            pymupdf.Quad(
                pymupdf.Point(quad[0], quad[1]) * to_page,
                pymupdf.Point(quad[2], quad[3]) * to_page,
                pymupdf.Point(quad[4], quad[5]) * to_page,
                pymupdf.Point(quad[6], quad[7]) * to_page,
            )
            for quad in operation.quads
        ]
        annotation = getattr(page, _MARKUP[operation.subtype])(quads=quads)
    annotation.set_colors(stroke=_rgb(operation.color))
    annotation.set_info(
        content=operation.comment,
        title=operation.author,
        creationDate=operation.date,
        modDate=operation.date,
    )
    annotation.update()
    if operation.rect is not None:  # MuPDF gives a note its icon's size: the rect asked stays
        numbers = " ".join(f"{number:g}" for number in operation.rect)
        document.xref_set_key(annotation.xref, "Rect", f"[{numbers}]")
    document.xref_set_key(annotation.xref, "NM", pymupdf.get_pdf_str(operation.name))


def _find(document: Any, page: int, annotation_id: str) -> int:
    for annotation in page_annotations(document, page):
        if annotation.annotation_id == annotation_id:
            return annotation.xref
    raise ApplyError(f"{annotation_id} is not on page {page}")


def _update(document: Any, operation: UpdateAnnotation) -> None:
    xref = _find(document, operation.page, operation.annotation_id)
    page = document[operation.page - 1]
    annotation = page.load_annot(xref)
    kept_rect = document.xref_get_key(xref, "Rect")
    if operation.color is not None:
        annotation.set_colors(stroke=_rgb(operation.color))
    if operation.comment is not None:
        annotation.set_info(content=operation.comment)
    annotation.set_info(modDate=operation.date)
    annotation.update()
    if kept_rect[0] == "array":  # MuPDF may recompute it from the quads: it stays
        document.xref_set_key(xref, "Rect", kept_rect[1])


def _delete(document: Any, operation: DeleteAnnotation) -> None:
    xref = _find(document, operation.page, operation.annotation_id)
    page = document[operation.page - 1]
    page.delete_annot(page.load_annot(xref))


def apply_operation(document: Any, operation: Operation) -> None:
    if isinstance(operation, AddAnnotation):
        _add(document, operation)
    elif isinstance(operation, UpdateAnnotation):
        _update(document, operation)
    else:
        _delete(document, operation)


def annotation_xref(document: Any, page: int, annotation_id: str) -> int | None:
    """The object of ``annotation_id`` on ``page``, None when it is not there."""
    for annotation in page_annotations(document, page):
        if annotation.annotation_id == annotation_id:
            return annotation.xref
    return None
