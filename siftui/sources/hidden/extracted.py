# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Which drawn characters a page's text extraction holds (for siftui.sources.hidden.detect).

The agent reads the page's ``get_text()``, and MuPDF leaves characters out of
it: those clipped away by a clip path, those outside the page. A hidden
character the extraction does not hold is no text an agent reads, so it is
no alarm. The drawn characters (the text trace) are matched with the
extraction's own (those of the text page ``get_text()`` reads) by where they
are drawn, their origin; each extracted character also has its place in the
page's text, so that a finding is spelt as there.

The extraction's boxes also give the height a character is drawn at: the
text trace measures a glyph by the font size operand alone, which a Type 3
font's matrix may scale many times (0.24 pt text drawn 13 pt high).
"""

from __future__ import annotations

from typing import Any

from siftui.core.findings import Box

STEP = 10
"""Origins are filed by 1/STEP pt."""

NEAR = 0.05
"""A drawn and an extracted character this close (pt, each way) are the same."""

WINDOW = 4
"""How far ahead in the page's text an extracted character is looked for: the
text adds line breaks the raw dictionary does not list."""

SCALED = 3.0
"""The extraction's box of a character is up to about 1.5 times as high as the
trace's (it counts the font's whole ascender and descender); more than this
many times only when the font's own matrix scales its glyphs (Type 3)."""

Char = tuple[int, int, tuple[float, float], Box]
"""A character of the text trace: (unicode, glyph, origin, box)."""

Hit = tuple[int, Box]
"""An extracted character: its offset in the page's text (-1 when it cannot be
placed there) and its box."""


class Extracted:
    """The page's extracted text and its characters by where they are drawn."""

    def __init__(self, page: Any) -> None:
        import pymupdf

        # The flags get_text() uses by default: the contract's extraction.
        textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
        self.text: str = textpage.extractText()
        self.at: dict[tuple[int, int], list[tuple[float, float, str, Hit]]] = {}
        text, cursor = self.text, 0
        # MuPDF's own text page, walked as it is: PyMuPDF's raw dictionary leaves
        # out characters whose box is empty (text at zero horizontal scale),
        # which get_text() keeps. PyMuPDF's text page is in the unrotated page
        # space, as the trace is.
        for block in textpage.this:
            if block.m_internal.type != 0:  # not text (an image)
                continue
            for line in block:
                for item in line:
                    char = item.m_internal
                    letter = chr(char.c) if 0 <= char.c < 0x110000 else ""
                    offset = text.find(letter, cursor, cursor + WINDOW + len(letter))
                    if offset >= 0:
                        cursor = offset + len(letter)
                    x, y = char.origin.x, char.origin.y
                    quad = char.quad
                    xs = (quad.ul.x, quad.ur.x, quad.ll.x, quad.lr.x)
                    ys = (quad.ul.y, quad.ur.y, quad.ll.y, quad.lr.y)
                    hit = (offset, (min(xs), min(ys), max(xs), max(ys)))
                    key = (round(x * STEP), round(y * STEP))
                    self.at.setdefault(key, []).append((x, y, letter, hit))

    def find(self, char: Char) -> Hit | None:
        """The extracted character drawn where ``char`` is, or None when the
        extraction does not hold it."""
        x, y = char[2]
        letter = chr(char[0]) if 0 <= char[0] < 0x110000 else ""
        kx, ky = round(x * STEP), round(y * STEP)
        for ex, ey, other, hit in self.at.get((kx, ky), ()):
            if other == letter and abs(ex - x) <= NEAR and abs(ey - y) <= NEAR:
                return hit  # the usual case: the same letter, filed under the same key
        best: tuple[float, Hit] | None = None
        for dx in (0, -1, 1):
            for dy in (0, -1, 1):
                for ex, ey, other, hit in self.at.get((kx + dx, ky + dy), ()):
                    far = abs(ex - x) + abs(ey - y)
                    if abs(ex - x) > NEAR or abs(ey - y) > NEAR:
                        continue
                    if other != letter:
                        far += 1.0  # another letter at the place: only when none matches
                    if best is None or far < best[0]:
                        best = (far, hit)
        return None if best is None else best[1]

    def split(self, chars: list[Char]) -> tuple[list[Char], list[tuple[str, Box]]]:
        """The characters the extraction holds, and the runs of those it does not
        (their text as drawn, white space kept inside a run, and their box)."""
        held: list[Char] = []
        missing: list[tuple[str, Box]] = []
        open_run = False
        for char in chars:
            letter = chr(char[0]) if 0 <= char[0] < 0x110000 else ""
            if not letter.strip():
                if open_run:
                    missing[-1] = (missing[-1][0] + letter, missing[-1][1])
                else:
                    held.append(char)
                continue
            if self.find(char) is not None:
                held.append(char)
                open_run = False
                continue
            box = char[3]
            if open_run:
                text, (a0, b0, a1, b1) = missing[-1]
                missing[-1] = (
                    text + letter,
                    (min(a0, box[0]), min(b0, box[1]), max(a1, box[2]), max(b1, box[3])),
                )
            else:
                missing.append((letter, box))
                open_run = True
        return held, [(text.strip(), box) for text, box in missing]

    def drawn_size(self, chars: list[Char], size: float) -> float:
        """The size the characters are drawn at: ``size``, unless the extraction's
        boxes are more than SCALED times the trace's (then scaled by as much)."""
        scale = 0.0
        for char in chars:
            hit = self.find(char)
            traced = char[3][3] - char[3][1]
            if hit is None or traced <= 0:
                continue
            scale = max(scale, (hit[1][3] - hit[1][1]) / traced)
        return size * scale if scale > SCALED else size
