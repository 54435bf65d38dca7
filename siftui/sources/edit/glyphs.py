"""A page's glyphs as ``PageGlyphs``: the characters MuPDF reads, with their boxes.

The text they spell is the page text of EVIDENCE.md (``page.get_text()`` is the same
characters, each line followed by a line break), so a reference's units index them.
Boxes are in MuPDF's unrotated page space; ``to_pdf`` maps it to PDF user space
(the inverse of ``page.transformation_matrix``, which takes the MediaBox's origin
into account).
"""

from __future__ import annotations

from typing import Any

from siftui.core.edit.placement import Glyph, Matrix, PageGlyphs
from siftui.sources.extract import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()

__all__ = ["page_glyphs", "to_pdf_matrix"]


def to_pdf_matrix(page: Any) -> Matrix:
    inverse = ~page.transformation_matrix
    return (inverse.a, inverse.b, inverse.c, inverse.d, inverse.e, inverse.f)


def page_glyphs(page: Any) -> PageGlyphs:
    raw = page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)
    parts: list[str] = []
    glyphs: list[Glyph | None] = []
    directions: list[tuple[float, float]] = []
    for block in raw["blocks"]:
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            number = len(directions)
            dx, dy = line["dir"]
            directions.append((float(dx), float(dy)))
            for span in line["spans"]:
                for char in span["chars"]:
                    x0, y0, x1, y1 = char["bbox"]
                    glyph = Glyph(number, (float(x0), float(y0), float(x1), float(y1)))
                    for code_point in char["c"]:
                        parts.append(code_point)
                        glyphs.append(glyph)
            parts.append("\n")
            glyphs.append(None)
    return PageGlyphs("".join(parts), tuple(glyphs), tuple(directions), to_pdf_matrix(page))
