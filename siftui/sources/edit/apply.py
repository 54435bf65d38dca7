"""Operations applied to a PyMuPDF document (the draft), one at a time.

A markup's quads and a note's rect arrive in PDF user space and are written into
the annotation's object as they are (no page space in between, so neither a
rotation nor a MediaBox off 0,0 can move them). Every new
annotation gets its appearance stream from MuPDF (``update``), so any viewer
draws it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from siftui.core.edit.operations import (
    AddAnnotation,
    DeleteAnnotation,
    FillField,
    Operation,
    UpdateAnnotation,
)
from siftui.sources.edit.forms import apply_fill
from siftui.sources.edit.scan import page_annotations
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

__all__ = ["ApplyError", "apply_operation"]


class ApplyError(Exception):
    """An operation the draft cannot take (its annotation is gone): a bug or a file
    changed under a kept draft, never the agent's input."""


def _color(color: str) -> str:
    numbers = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return _numbers(round(number, 4) for number in numbers)


def _numbers(numbers: Iterable[float]) -> str:
    return "[" + " ".join(f"{number:g}" for number in numbers) + "]"


_SUBTYPES = {
    "Highlight": "PDF_ANNOT_HIGHLIGHT",
    "Underline": "PDF_ANNOT_UNDERLINE",
    "StrikeOut": "PDF_ANNOT_STRIKE_OUT",
    "Squiggly": "PDF_ANNOT_SQUIGGLY",
    "Text": "PDF_ANNOT_TEXT",
}


def _set(document: Any, xref: int, values: dict[str, str]) -> None:
    for key, value in values.items():
        document.xref_set_key(xref, key, value)


def _add(document: Any, operation: AddAnnotation) -> None:
    """Made by MuPDF with the exact user-space numbers (its /QuadPoints, or a note's
    /Rect) and every key set before MuPDF draws its appearance from them, once."""
    page = document[operation.page - 1]
    made = mupdf.pdf_create_annot(
        pymupdf._as_pdf_page(page), getattr(mupdf, _SUBTYPES[operation.subtype])
    )
    xref = mupdf.pdf_to_num(mupdf.pdf_annot_obj(made))
    keys = {
        "C": _color(operation.color),
        "Contents": pymupdf.get_pdf_str(operation.comment),
        "T": pymupdf.get_pdf_str(operation.author),
        "NM": pymupdf.get_pdf_str(operation.name),
        "CreationDate": pymupdf.get_pdf_str(operation.date),
        "M": pymupdf.get_pdf_str(operation.date),
    }
    if operation.rect is None:
        keys["QuadPoints"] = _numbers(number for quad in operation.quads for number in quad)
    else:
        keys["Rect"] = _numbers(operation.rect)
    _set(document, xref, keys)
    mupdf.pdf_update_annot(made)
    if operation.rect is not None:  # MuPDF gives a note its icon's size: the rect asked stays
        document.xref_set_key(xref, "Rect", keys["Rect"])


def _find(document: Any, page: int, annotation_id: str) -> int:
    for annotation in page_annotations(document, page):
        if annotation.annotation_id == annotation_id:
            return annotation.xref
    raise ApplyError(f"{annotation_id} is not on page {page}")


def _update(document: Any, operation: UpdateAnnotation) -> None:
    """Color and comment changed in the annotation's own object; its appearance drawn
    again; its /Rect, /NM, /T and replies untouched."""
    xref = _find(document, operation.page, operation.annotation_id)
    kept_rect = document.xref_get_key(xref, "Rect")
    keys = {"M": pymupdf.get_pdf_str(operation.date)}
    if operation.color is not None:
        keys["C"] = _color(operation.color)
    if operation.comment is not None:
        keys["Contents"] = pymupdf.get_pdf_str(operation.comment)
    _set(document, xref, keys)
    page = document[operation.page - 1]  # held: the annotation lives while its page does
    annotation = page.load_annot(xref)
    mupdf.pdf_dirty_annot(annotation.this)
    mupdf.pdf_update_annot(annotation.this)
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
    elif isinstance(operation, FillField):
        apply_fill(document, operation)
    elif isinstance(operation, DeleteAnnotation):
        _delete(document, operation)
    else:  # the working copy applies outline operations itself (sources.edit.outline)
        raise ApplyError(f"not an annotation operation: {operation!r}")


def annotation_xref(document: Any, page: int, annotation_id: str) -> int | None:
    """The object of ``annotation_id`` on ``page``, None when it is not there."""
    for annotation in page_annotations(document, page):
        if annotation.annotation_id == annotation_id:
            return annotation.xref
    return None
