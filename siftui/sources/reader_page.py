# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""What `siftui reader` shows of an open PyMuPDF document (a working copy's draft):
a page as pixels with its annotations drawn, the page's annotations as E12 names
them, the outline, and the page's writable form fields as E17 labels them.

Every function takes the open document and never changes it; the caller holds
whatever lock keeps other threads from changing it meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil, floor
from typing import Any

from siftui.core.edit.forms import value_text
from siftui.core.edit.operations import Quad
from siftui.core.halfblocks import Pixels, tinted
from siftui.core.reader import AnnotationRow, FieldRow, OutlineRow
from siftui.sources.edit.forms import field_values, page_widgets
from siftui.sources.edit.glyphs import page_matrix
from siftui.sources.pdf_open import quiet_pymupdf
from siftui.sources.picture import LARGEST

NOT_LISTED = frozenset({"Link", "Widget", "Popup"})
"""Subtypes the reader's list leaves out: links and form fields (E12), and the popup
windows that only show another annotation's comment."""


def page_pixels(
    document: Any, page: int, largest: int = LARGEST, marks: Sequence[Quad] = ()
) -> Pixels:
    """Page ``page`` (1-based) drawn with its annotations and form fields, at most
    ``largest`` pixels each way, as RGB pixels for the half blocks; ``marks`` (quads in
    PDF user space: the text a jump by refId shows) tinted over it."""
    pymupdf = quiet_pymupdf()
    shown = document[page - 1]
    rect = shown.rect  # the page as shown: its rotation applied
    scale = largest / max(rect.width, rect.height, 1.0)
    pixmap = shown.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False, annots=True)
    if pixmap.colorspace is None or pixmap.colorspace.n != 3:
        pixmap = pymupdf.Pixmap(pymupdf.csRGB, pixmap)
    pixels = Pixels(pixmap.width, pixmap.height, bytes(pixmap.samples))
    if not marks:
        return pixels
    # PDF user space -> the unrotated page -> the page as shown -> these pixels
    to_pixels = page_matrix(shown) * shown.rotation_matrix * pymupdf.Matrix(scale, scale)
    boxes = []
    for quad in marks:
        points = [pymupdf.Point(quad[i], quad[i + 1]) * to_pixels for i in range(0, 8, 2)]
        xs, ys = [point.x for point in points], [point.y for point in points]
        boxes.append((floor(min(xs)), floor(min(ys)), ceil(max(xs)), ceil(max(ys))))
    return tinted(pixels, boxes)


def annotation_id(annotation: Any) -> str:
    """E12's annotationId: the annotation's ``/NM``, else ``xref-<n>``."""
    name = annotation.info.get("id") or ""
    return str(name) if name else f"xref-{annotation.xref}"


def annotation_rows(document: Any, page: int) -> list[AnnotationRow]:
    """The annotations of page ``page`` in the page's order, links, widgets and popups
    left out."""
    rows: list[AnnotationRow] = []
    for annotation in document[page - 1].annots():
        subtype = str(annotation.type[1])
        if subtype in NOT_LISTED:
            continue
        info = annotation.info
        rows.append(
            AnnotationRow(
                annotation_id=annotation_id(annotation),
                page=page,
                subtype=subtype,
                comment=str(info.get("content") or ""),
                author=str(info.get("title") or ""),
            )
        )
    return rows


def outline_rows(document: Any) -> list[OutlineRow]:
    """The document's outline, depth first, each item's page (None where it has none)."""
    try:
        toc = document.get_toc(simple=True)
    except Exception:  # a broken outline tree: the reader shows none
        return []
    return [
        OutlineRow(int(level), str(title), int(page) if int(page) >= 1 else None)
        for level, title, page, *_ in toc
    ]


def field_rows(document: Any, page: int, file: Any = None) -> list[FieldRow]:
    """The writable form fields' widgets on page ``page``, in the page's widget order,
    labelled as E17 labels them; each marked changed when ``file`` (the document
    without the draft's changes) holds another value for its field."""
    widgets = page_widgets(document, page)
    before = field_values(file, [widget.name for widget in widgets]) if file is not None else {}
    return [
        FieldRow(
            f"F{number}",
            widget.name,
            widget.type,
            value_text(widget.value),
            file is not None and before.get(widget.name) != widget.value,
        )
        for number, widget in enumerate(widgets, 1)
    ]
