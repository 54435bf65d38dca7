# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Text that paints nothing, over shapes that draw its glyphs (for hidden.detect).

A browser printing a web font it cannot embed, and some converters, draw the
letters as filled paths and lay the same text over them with opacity 0 (or in
render mode 3), so that it can be searched: pdf.js's issue19971.pdf draws
orange outlined digits so. A reader sees those letters: the text is the
picture's, as a scan's OCR layer is (``ocr_layer``, no alarm).

It is told by the pixels, never by the trace's opacity alone: the text's own
glyphs are drawn apart, opaque, on the page's grid (from the text object the
page run kept, siftui.sources.hidden.paint), and compared with the page as
drawn. Its glyphs are the picture's when nearly all their pixels lie on or
next to what the page paints there (not the background), and nearly all of
what the page paints there lies on or next to them: a photograph, a filled
box or a table's lines under invisible text are no match.
"""

from __future__ import annotations

from typing import Any

from siftui.core.findings import Box
from siftui.sources.hidden.looks import HiddenCandidate
from siftui.sources.hidden.pixels import QUANTUM, View

PIXELS = 32.0
"""The text is drawn this many pixels high to compare its glyphs."""

MAX_ZOOM = 8.0

NEAR = 1
"""How far (pixels) a glyph's pixel may be from the page's ink, and back."""

MATCH = 0.8
"""The share of the glyphs' pixels near the page's ink, and of the ink near
the glyphs, from which the page draws the text's glyphs."""

INK = 224
"""A pixel of the glyphs drawn apart (grey, 255 = none) darker than this is the
glyph's (thin strokes, as an outline font's, are faint)."""


def drawn_apart(page: Any, drawing: Any, piece: HiddenCandidate, kept: tuple[Any, Any]) -> bool:
    """Whether the page, drawn with ``drawing`` (its display list), shows the
    glyphs of the piece (whose text object and matrix are ``kept``)."""
    import pymupdf
    from pymupdf import mupdf

    x0, y0, x1, y1 = piece.bbox
    height = min(y1 - y0, x1 - x0) if page.rotation % 180 else y1 - y0
    if height <= 0 or x1 <= x0:
        return False
    zoom = min(MAX_ZOOM, max(1.0, PIXELS / height))
    matrix = page.rotation_matrix * pymupdf.Matrix(zoom, zoom)
    clip = pymupdf.Rect(piece.bbox) * page.rotation_matrix
    shown = drawing.get_pixmap(matrix=matrix, clip=clip, alpha=False)
    text, ctm = kept
    gray = mupdf.FzColorspace(mupdf.FzColorspace.Fixed_GRAY)
    bbox = mupdf.FzIrect(shown.x, shown.y, shown.x + shown.w, shown.y + shown.h)
    glyphs = mupdf.FzPixmap(gray, bbox, mupdf.FzSeparations(), 0)
    mupdf.fz_clear_pixmap_with_value(glyphs, 255)
    device = mupdf.fz_new_draw_device(mupdf.FzMatrix(), glyphs)
    place = mupdf.fz_concat(ctm, mupdf.FzMatrix(*matrix))
    mupdf.fz_fill_text(device, text, place, gray, [0.0], 1.0, mupdf.FzColorParams())
    mupdf.fz_close_device(device)
    mask = mupdf.fz_pixmap_samples_memoryview(glyphs)
    view = View(shown)
    width, rows = shown.w, shown.h
    background = view.background((shown.x, shown.y, shown.x + width, shown.y + rows))
    if background is None:
        return False
    glyph = {(x, y) for y in range(rows) for x in range(width) if mask[y * width + x] < INK}
    ink = _ink(view, background, width, rows)
    if not glyph or not ink:
        return False
    return _near(glyph, ink) >= MATCH and _near(ink, glyph) >= MATCH


def _ink(view: View, background: tuple[float, float, float], width: int, rows: int) -> set[Any]:
    """The pixels the page paints in other than the background's colour."""
    red, green, blue = (value * 255 for value in background)
    samples, stride, n = view.samples, view.stride, view.n
    ink: set[tuple[int, int]] = set()
    for y in range(rows):
        row = y * stride
        for x in range(width):
            at = row + x * n
            if (
                abs(samples[at] - red) > QUANTUM
                or abs(samples[at + 1] - green) > QUANTUM
                or abs(samples[at + 2] - blue) > QUANTUM
            ):
                ink.add((x, y))
    return ink


def _near(pixels: set[tuple[int, int]], other: set[tuple[int, int]]) -> float:
    """The share of ``pixels`` within NEAR of a pixel of ``other``."""
    steps = range(-NEAR, NEAR + 1)
    close = sum(
        1 for x, y in pixels if any((x + dx, y + dy) in other for dx in steps for dy in steps)
    )
    return close / len(pixels)


def overlapped(piece: HiddenCandidate, fills: list[tuple[int, str, Box]]) -> bool:
    """Whether something is painted before the piece where it lies."""
    x0, y0, x1, y1 = piece.bbox
    return any(
        index < piece.seqno and box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3]
        for index, _, box in fills
    )
