"""A page's glyphs as ``PageGlyphs``: the characters MuPDF reads, with their boxes.

The text they spell is the page text of EVIDENCE.md (``page.get_text()`` is the same
characters, each line followed by a line break), so a reference's units index them.
Boxes are in MuPDF's unrotated page space; ``to_pdf`` maps it to PDF user space
(MuPDF's page transform without the rotation, inverted: it takes the MediaBox's
origin into account on every page).
"""

from __future__ import annotations

from typing import Any

from siftui.core.edit.placement import Glyph, Matrix, PageGlyphs
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

__all__ = ["page_glyphs", "to_pdf_matrix"]


def page_matrix(page: Any) -> Any:
    """PDF user space -> MuPDF's unrotated page space (where text boxes are).

    ``page.transformation_matrix`` is not it on a rotated page whose MediaBox does
    not start at 0,0 (it leaves the origin out), so MuPDF's own page transform is
    taken, without the rotation.
    """
    transform = mupdf.FzMatrix()
    mupdf.pdf_page_transform(pymupdf._as_pdf_page(page), mupdf.FzRect(), transform)
    matrix = pymupdf.Matrix(
        transform.a, transform.b, transform.c, transform.d, transform.e, transform.f
    )
    return matrix * page.derotation_matrix


def to_pdf_matrix(page: Any) -> Matrix:
    inverse = ~page_matrix(page)
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
