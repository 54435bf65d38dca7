# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""What a span's glyphs draw, against the letters extraction reads (for hidden.detect).

Extraction reads a character's Unicode value from the font's ToUnicode map (or
its encoding); the page draws the font's glyph. Two honest checks, without
reading the picture of a glyph:

- a glyph whose outline is empty draws nothing (a Type 3 font whose glyph
  procedures paint nothing, a font whose letters are blank): a letter or digit
  drawn with one is ``invisible``, as text in render mode 3 is;
- a glyph that has a name in the font (Type 1 and CFF fonts, TrueType fonts
  with glyph names; a base-14 font's substitute) names the letter it draws: a
  letter or digit that extraction reads as another letter or digit than that
  name's is ``remapped`` (a ToUnicode map making visible "Hello" read as
  "IGNORE"; a letter drawn with the glyph of a space is ``remapped`` too). A
  ligature's glyph ("fi"), a glyph without a name, one named by number (Type
  3) or one whose name is no letter is never compared; case is not compared
  either (a small-caps glyph named "a.sc" may read as "A").

A font whose glyphs draw other shapes than their names say (an outline of
"H" named "I") is not seen: only the picture tells, and no OCR is run.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

Char = tuple[int, int, tuple[float, float], tuple[float, float, float, float]]

EMPTY = 1e-3
"""A glyph whose bounds are under this (in units of the font size) each way draws nothing."""


class GlyphCheck:
    """Checks the characters of one page's spans against their fonts (see the module)."""

    def __init__(self, fonts: dict[int, Any]) -> None:
        self.fonts = fonts
        self.verdicts: dict[tuple[int, int, int], str | None] = {}
        self.named: dict[int, bool] = {}  # per font: whether its glyph names are compared

    def kinds(self, font: int, chars: list[Char]) -> list[str | None]:
        """Per character: ``invisible``, ``remapped`` or None (drawn as read, or
        not a letter or digit)."""
        verdicts = self.verdicts
        found: list[str | None] = []
        for char in chars:
            key = (font, char[1], char[0])
            verdict = verdicts.get(key, "")
            if verdict == "":
                verdict = verdicts[key] = self._verdict(font, char[1], char[0])
            found.append(verdict)
        return found

    def _verdict(self, key: int, gid: int, unicode: int) -> str | None:
        from pymupdf import mupdf

        if gid < 0 or not 0 < unicode < 0x110000 or not chr(unicode).isalnum():
            return None
        font = self.fonts[key]
        named = self.named.get(key)
        if named is None:
            named = self.named[key] = not font.m_internal.t3procs
        if named:  # (a Type 3 font's glyphs are named by their codes)
            drawn = _named(mupdf.fz_get_glyph_name2(font, gid))
            shape = _letters(chr(drawn)) if 0 < drawn < 0x110000 and drawn != 0xFFFD else ""
            drawable = len(shape) == 1 and (shape.isalnum() or shape.isspace())
            if drawable and shape != _letters(chr(unicode)):
                return "remapped"  # another letter, or a space, is drawn
        bounds = mupdf.fz_bound_glyph(font, gid, mupdf.FzMatrix())
        if bounds.x1 - bounds.x0 < EMPTY and bounds.y1 - bounds.y0 < EMPTY:
            return "invisible"
        return None


UNI = re.compile(r"(?:uni([0-9A-F]{4})|u([0-9A-F]{4,6}))")


def _named(name: str) -> int:
    """The Unicode value a glyph name stands for (the Adobe Glyph List's names,
    ``uniXXXX`` and ``uXXXX``, a suffix such as ``.sc`` aside), 0 when none:
    names that are numbers (a subset font's ``186``) stand for nothing."""
    from pymupdf import mupdf

    base = name.split(".", 1)[0]
    if not base:
        return 0
    code = UNI.fullmatch(base)
    if code is not None:
        return int(code.group(1) or code.group(2), 16)
    return int(mupdf.fz_unicode_from_glyph_name_strict(base))


def _letters(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
