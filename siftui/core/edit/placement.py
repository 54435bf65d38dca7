"""A native reference placed on its page's glyphs: one quad per line run (pure).

The sources layer reads a page's characters (``siftui.sources.edit.glyphs``) into a
``PageGlyphs``: the page text they spell (EVIDENCE.md's page text, the characters of
each line then a line break), and for each code point of it the glyph that draws
it (its line and box) or None for the line breaks. A reference's piece is placed
when the page text's units it names are, code point for code point, the text those
glyphs spell; its quads are the boxes of each line's run of glyphs, in the
direction the line reads. A ligature that one glyph draws for two characters
arrives as two characters sharing that glyph's box, so it is one glyph here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from siftui.core.edit.operations import Quad, Rect
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.utf16 import Utf16Text

__all__ = ["Glyph", "Matrix", "PageGlyphs", "cannot_place", "place_piece"]

"""x0, y0, x1, y1 in the glyph space (y down)."""

Matrix = tuple[float, float, float, float, float, float]
"""a, b, c, d, e, f: (x, y) -> (a x + c y + e, b x + d y + f)."""


@dataclass(frozen=True, slots=True)
class Glyph:
    line: int  # index into PageGlyphs.directions
    box: Rect


@dataclass(frozen=True, slots=True)
class PageGlyphs:
    text: str  # the page text the glyphs spell
    glyphs: tuple[Glyph | None, ...]  # one per code point of ``text``
    directions: tuple[tuple[float, float], ...]  # each line's writing direction (unit)
    to_pdf: Matrix  # glyph space -> PDF user space


def cannot_place(ref_id: str, page: int) -> EvidenceError:
    return EvidenceError(f"the text of {ref_id} cannot be placed on page {page}: nothing annotated")


def place_piece(
    ref_id: str, piece: Piece, page_text: Utf16Text, glyphs: PageGlyphs
) -> tuple[Quad, ...]:
    """The quads of ``piece`` (a native reference's piece of ``page_text``), or the
    refusal when its text is not the text the page's glyphs draw there."""
    first, last = page_text.index_of(piece.start), page_text.index_of(piece.end)
    if glyphs.text[first:last] != piece.text or page_text.slice(piece.start, piece.end) != (
        piece.text
    ):
        raise cannot_place(ref_id, piece.page)
    runs: list[list[tuple[str, Glyph]]] = []
    for index in range(first, last):
        glyph = glyphs.glyphs[index]
        if glyph is None:
            continue
        if runs and runs[-1][-1][1].line == glyph.line:
            runs[-1].append((glyphs.text[index], glyph))
        else:
            runs.append([(glyphs.text[index], glyph)])
    quads = []
    for run in runs:
        drawn = _drawn(run)
        if drawn:
            quads.append(_quad(drawn, glyphs.directions[drawn[0].line], glyphs.to_pdf))
    if not quads:
        raise cannot_place(ref_id, piece.page)
    return tuple(quads)


def _drawn(run: list[tuple[str, Glyph]]) -> list[Glyph]:
    """The run's glyphs that draw something, without the white space at its ends (a
    quad covers the text drawn, not the space around it)."""
    start, end = 0, len(run)
    while start < end and run[start][0].isspace():
        start += 1
    while end > start and run[end - 1][0].isspace():
        end -= 1
    return [glyph for _, glyph in run[start:end] if _has_area(glyph.box)]


def _has_area(box: Rect) -> bool:
    return box[2] > box[0] and box[3] > box[1]


def _quad(run: Sequence[Glyph], direction: tuple[float, float], to_pdf: Matrix) -> Quad:
    """The run's boxes bounded along the line's direction and across it (y down: the
    side across that reads as "above" is -normal), mapped to user space."""
    ux, uy = direction
    nx, ny = -uy, ux  # for left-to-right text (1, 0) this is (0, 1): downwards
    along = []
    across = []
    for glyph in run:
        x0, y0, x1, y1 = glyph.box
        for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            along.append(x * ux + y * uy)
            across.append(x * nx + y * ny)
    low, high = min(along), max(along)
    top, bottom = min(across), max(across)

    def corner(u: float, n: float) -> tuple[float, float]:
        x, y = u * ux + n * nx, u * uy + n * ny
        a, b, c, d, e, f = to_pdf
        return (round(a * x + c * y + e, 4), round(b * x + d * y + f, 4))

    upper_left, upper_right = corner(low, top), corner(high, top)
    lower_left, lower_right = corner(low, bottom), corner(high, bottom)
    return (*upper_left, *upper_right, *lower_left, *lower_right)
