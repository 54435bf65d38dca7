"""E17's image: a page drawn without widget appearances, form values or annotations,
with a label ``F1``, ``F2``, … inside each writable widget's box.

The page is drawn by MuPDF at 96 dpi (E8's pixel bound lowers it, as for E8) with
``annots=False``; the labels are then drawn over those pixels, on a one-page PDF
of the image's size in points (one point a pixel), so they are upright whatever
the page's rotation and as sharp as the font allows. Each label is Helvetica Bold
of 11 px (down to 8 px in a small box) on a light yellow box at 80%
opacity, at the widget box's top left corner; a label wider or taller than the
box is centred on it, so it spills evenly and never hides the text beside the box.
"""

# mypy: disallow-untyped-calls=False

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from siftui.core.edit.operations import Rect
from siftui.core.evidence.tools_documents import fit_dpi
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()

__all__ = ["INSPECT_DPI", "LabelledPage", "labelled_page"]

INSPECT_DPI = 96
FONT = "hebo"  # Helvetica Bold, one of the PDF base fonts MuPDF carries
LARGEST_SIZE = 11.0
SMALLEST_SIZE = 8.0
PADDING = 1.5
BACKGROUND = (1.0, 1.0, 0.78)
OPACITY = 0.8
INK = (0.0, 0.0, 0.45)


@dataclass(frozen=True, slots=True)
class LabelledPage:
    png: bytes
    width: int
    height: int
    dpi: int
    lowered: bool


def _label_box(box: Any, text: str) -> tuple[Any, float]:
    """Where ``text`` goes for a widget drawn in ``box`` (pixels), and its font size."""
    size = max(SMALLEST_SIZE, min(LARGEST_SIZE, box.height - 2 * PADDING))
    width = pymupdf.get_text_length(text, fontname=FONT, fontsize=size)
    while size > SMALLEST_SIZE and width + 2 * PADDING > box.width:
        size = max(SMALLEST_SIZE, size - 0.5)
        width = pymupdf.get_text_length(text, fontname=FONT, fontsize=size)
    label_width, label_height = width + 2 * PADDING, size + 2 * PADDING
    left = box.x0 + 1 if label_width + 1 <= box.width else box.x0 + (box.width - label_width) / 2
    top = box.y0 + 1 if label_height + 1 <= box.height else box.y0 + (box.height - label_height) / 2
    return pymupdf.Rect(left, top, left + label_width, top + label_height), size


def labelled_page(document: Any, page: int, boxes: Sequence[Rect]) -> LabelledPage:
    """Page ``page`` (1-based) of ``document`` as E17 draws it, ``boxes`` (the writable
    widgets' boxes on the page as drawn, in points, widget order) labelled F1, F2, …"""
    shown = document[page - 1]
    rect = shown.rect

    def pixels_at(candidate: int) -> tuple[int, int]:
        scale = candidate / 72
        return max(1, round(rect.width * scale)), max(1, round(rect.height * scale))

    dpi, lowered = fit_dpi(INSPECT_DPI, pixels_at)
    drawn = shown.get_pixmap(dpi=dpi, annots=False, alpha=False)
    canvas = pymupdf.open()
    try:
        sheet = canvas.new_page(width=drawn.width, height=drawn.height)
        sheet.insert_image(sheet.rect, pixmap=drawn)
        scale = pymupdf.Matrix(dpi / 72, dpi / 72)
        for number, box in enumerate(boxes, 1):
            text = f"F{number}"
            where, size = _label_box(pymupdf.Rect(box) * scale, text)
            sheet.draw_rect(where, color=None, fill=BACKGROUND, fill_opacity=OPACITY)
            baseline = pymupdf.Point(where.x0 + PADDING, where.y0 + PADDING + size * 0.78)
            sheet.insert_text(baseline, text, fontname=FONT, fontsize=size, color=INK)
        image = sheet.get_pixmap(dpi=72, alpha=False)
        return LabelledPage(image.tobytes("png"), image.width, image.height, dpi, lowered)
    finally:
        canvas.close()
