# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Which drawn characters a page's text extraction holds (for siftui.sources.hidden.detect).

The agent reads the page's ``get_text()``, and MuPDF leaves characters out of
it: those clipped away by a clip path, those outside the page. A hidden
character the extraction does not hold is no text an agent reads, so it is
no alarm. The drawn characters (the text trace) are matched with the
extraction's own (those of the text page ``get_text()`` reads, as PyMuPDF's raw
dictionary lists them) by where they
are drawn, their origin; each extracted character also has its place in the
page's text, so that a finding is spelt as there.

The extraction's boxes also give the height a character is drawn at: the
text trace measures a glyph by the font size operand alone, which a Type 3
font's matrix may scale many times (0.24 pt text drawn 13 pt high).
"""

from __future__ import annotations

from typing import Any

from siftui.core.findings import Box
from siftui.sources.hidden.glyphs import Char

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

ExtractedChar = tuple[int, Box]
"""An extracted character: its offset in the page's text (-1 when it cannot be
placed there) and its box."""


class Extracted:
    """The page's extracted text and its characters by where they are drawn."""

    def __init__(self, page: Any) -> None:
        import pymupdf

        # The flags get_text() uses by default: the contract's extraction.
        textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
        self.text: str = textpage.extractText()
        self.at: dict[tuple[int, int], list[tuple[float, float, str, ExtractedChar]]] = {}
        text, cursor = self.text, 0
        # PyMuPDF's text page is in the unrotated page space, as the trace is.
        for block in textpage.extractRAWDICT()["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    chars = span["chars"]
                    # A span's letters are placed together (the text may hold
                    # letters between spans that the raw dictionary leaves out).
                    joined = "".join(char["c"] for char in chars)
                    start = text.find(joined, cursor) if joined else -1
                    for char in chars:
                        letter = char["c"]
                        if start >= 0:
                            offset, start = start, start + len(letter)
                        else:
                            offset = text.find(letter, cursor, cursor + WINDOW + len(letter))
                        if offset >= 0:
                            cursor = offset + len(letter)
                        x, y = char["origin"]
                        box = char["bbox"]
                        hit = (offset, (box[0], box[1], box[2], box[3]))
                        key = (round(x * STEP), round(y * STEP))
                        self.at.setdefault(key, []).append((x, y, letter, hit))

    def find(self, char: Char) -> ExtractedChar | None:
        """The extracted character drawn where ``char`` is, or None when the
        extraction does not hold it."""
        x, y = char[2]
        letter = chr(char[0]) if 0 <= char[0] < 0x110000 else ""
        kx, ky = round(x * STEP), round(y * STEP)
        for ex, ey, other, hit in self.at.get((kx, ky), ()):
            if other == letter and abs(ex - x) <= NEAR and abs(ey - y) <= NEAR:
                return hit  # the usual case: the same letter, filed under the same key
        best: tuple[float, ExtractedChar] | None = None
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
        if best is not None:
            return best[1]
        x0, y0, x1, y1 = char[3]
        if x1 <= x0 or y1 <= y0:
            # PyMuPDF's raw dictionary leaves out characters whose box is empty
            # (text at zero horizontal scale), which get_text() keeps: such a
            # character counts as extracted, its place in the text unknown.
            return (-1, char[3])
        return None

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
            hit = self.find(char)
            box = char[3]
            if hit is not None and hit[0] < 0 and (box[2] <= box[0] or box[3] <= box[1]):
                # Of unknown place (an empty box: a ligature's later letters, text
                # at zero scale): it goes with the run it is in.
                if open_run:
                    missing[-1] = (missing[-1][0] + letter, missing[-1][1])
                else:
                    held.append(char)
                continue
            if hit is not None:
                held.append(char)
                open_run = False
                continue
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
