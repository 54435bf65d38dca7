# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""What a span's glyphs draw, against the letters extraction reads (for hidden.detect).

Extraction reads a character's Unicode value from the font's ToUnicode map (or
its encoding); the page draws the font's glyph. Two honest checks, without
reading the picture of a glyph:

- a glyph whose outline is empty draws nothing (a Type 3 font whose glyph
  procedures paint nothing, a font whose letters are blank): a letter or digit
  drawn with one is ``invisible``, as text in render mode 3 is;
- a font the PDF does not embed is drawn with a font of the viewer's (for
  MuPDF, its own base-14 fonts), whose glyph names say the letter each draws:
  a letter or digit that extraction reads as another letter or digit than
  that name's is ``remapped`` (a ToUnicode map making visible "Hello" read as
  "IGNORE"; a letter drawn with the glyph of a space is ``remapped`` too). A
  ligature's glyph ("fi"), or one whose name is no letter, is never compared;
  case is not compared either (a small-caps glyph named "a.sc" may read as "A").

An embedded font's glyph names are its maker's, and real files carry wrong
ones (pdf.js's german-umlaut-r.pdf names its "ü" Omega, issue5084.pdf its
digits one off, issue20232.pdf its Cyrillic letters by Latin names; each
reads as it shows): they are not compared. So a PDF that embeds a font and
gives it a lying ToUnicode map is not seen, nor a font whose glyphs draw other
shapes than their names say (an outline of "H" named "I"): only the picture
tells, and no OCR is run.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from siftui.sources.hidden.looks import HiddenCandidate
    from siftui.sources.hidden.paint import PaintLog

Char = tuple[int, int, tuple[float, float], tuple[float, float, float, float]]
"""A character of the text trace: (unicode, glyph, origin, box)."""

EMPTY = 1e-3
"""A glyph whose bounds are under this (in units of the font size) each way draws nothing."""


class GlyphCheck:
    """Checks the characters of a document's spans against their fonts (see the
    module); one for a whole document (siftui.sources.hidden.document), so that
    its fonts' glyphs are judged once, whatever page draws them."""

    def __init__(self) -> None:
        # The fonts, by address, kept alive while judged: an address is never
        # another font's while the first is kept.
        self.fonts: dict[int, Any] = {}
        self.tables: dict[int, tuple[set[tuple[int, int]], dict[tuple[int, int], str]]] = {}
        self.named: dict[int, bool] = {}  # per font: whether its glyph names are compared
        self.page: Any = None
        self.unembedded: set[str] | None = None  # the names of the page's fonts not embedded

    def hidden(self, font: int, pairs: set[tuple[int, int]]) -> dict[tuple[int, int], str]:
        """The font's (glyph, Unicode value) pairs judged ``invisible`` or
        ``remapped`` so far, after judging those of ``pairs`` not yet judged."""
        table = self.tables.get(font)
        if table is None:
            table = self.tables[font] = (set(), {})
        known, hidden = table
        new = pairs - known
        if new:
            for gid, unicode in new:
                verdict = self._verdict(font, gid, unicode)
                if verdict is not None:
                    hidden[(gid, unicode)] = verdict
            known |= new
        return hidden

    def _verdict(self, key: int, gid: int, unicode: int) -> str | None:
        from pymupdf import mupdf

        if gid < 0 or not 0 < unicode < 0x110000 or not chr(unicode).isalnum():
            return None
        font = self.fonts[key]
        if self._named(key):
            drawn = _named(mupdf.fz_get_glyph_name2(font, gid))
            shape = _letters(chr(drawn)) if 0 < drawn < 0x110000 and drawn != 0xFFFD else ""
            drawable = len(shape) == 1 and (shape.isalnum() or shape.isspace())
            if drawable and shape != _letters(chr(unicode)):
                return "remapped"  # another letter, or a space, is drawn
        bounds = mupdf.fz_bound_glyph(font, gid, mupdf.FzMatrix())
        if bounds.x1 - bounds.x0 < EMPTY and bounds.y1 - bounds.y0 < EMPTY:
            return "invisible"
        return None

    def _named(self, key: int) -> bool:
        """Whether the font's glyph names are compared: a font the PDF does
        not embed (not a Type 3 font, whose glyphs are named by their codes)."""
        from pymupdf import mupdf

        named = self.named.get(key)
        if named is None:
            font = self.fonts[key]
            if self.unembedded is None:
                self.unembedded = {
                    str(entry[3]) for entry in self.page.get_fonts(full=True) if entry[1] == "n/a"
                }
            named = not font.m_internal.t3procs and mupdf.fz_font_name(font) in self.unembedded
            self.named[key] = named
        return named


def glyph_check(check: GlyphCheck | None, page: Any, fonts: dict[int, Any]) -> GlyphCheck:
    """``check`` (the document's, or a new one), given the page and its fonts
    (PaintLog.fonts)."""
    if check is None:
        check = GlyphCheck()
    for key, font in fonts.items():
        check.fonts.setdefault(key, font)
    check.page, check.unembedded = page, None
    return check


def glyph_height(font: Any, chars: list[Char]) -> float:
    """The median height of the glyphs of these characters' letters and digits,
    in units of the font size (with a Type 3 font's matrix); 0 when none."""
    from pymupdf import mupdf

    heights = sorted(
        bounds.y1 - bounds.y0
        for bounds in (
            mupdf.fz_bound_glyph(font, char[1], mupdf.FzMatrix())
            for char in chars
            if char[1] >= 0 and 0 < char[0] < 0x110000 and chr(char[0]).isalnum()
        )
    )
    return heights[len(heights) // 2] if heights else 0.0


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


ALONE = 2
"""So many letters drawn as read, between letters of one hidden kind, are taken with them."""


def by_glyphs(
    pieces: list[HiddenCandidate], painted: PaintLog, page: Any, glyphs: GlyphCheck | None
) -> list[HiddenCandidate]:
    """The pieces drawn as their span's drawing says (kind None), cut where their
    glyphs draw nothing or other letters than extraction reads (see the module).
    The pieces of one font are checked together: nearly always all is well."""
    check = glyph_check(glyphs, page, painted.fonts)
    fonts = span_fonts(painted)
    groups: dict[int, list[HiddenCandidate]] = {}
    for piece in pieces:
        font = fonts.get(id(piece.span_chars))
        if piece.kind is None and font is not None:
            groups.setdefault(font, []).append(piece)
    cuts: dict[int, list[HiddenCandidate]] = {}
    for font, group in groups.items():
        pairs = {(char[1], char[0]) for piece in group for char in piece.chars}
        hidden = check.hidden(font, pairs)
        if not hidden or pairs.isdisjoint(hidden):
            continue
        for piece in group:
            kinds = [hidden.get((char[1], char[0])) for char in piece.chars]
            if any(kinds):
                cuts[id(piece)] = _cut(piece, kinds)
    if not cuts:
        return pieces
    return [part for piece in pieces for part in cuts.get(id(piece), [piece])]


def span_fonts(painted: PaintLog) -> dict[int, int]:
    """The font of each span, by the id of its characters' list (see PaintLog)."""
    spans = zip(painted.spans, painted.span_fonts, strict=True)
    return {id(span["chars"]): font for span, font in spans}


def _cut(piece: HiddenCandidate, kinds: list[str | None]) -> list[HiddenCandidate]:
    """The piece cut into runs of characters its glyphs draw as read (kind None)
    or not (``invisible``, ``remapped``); white space and signs go with the run
    they are in."""
    runs: list[tuple[str | None, list[Any]]] = []
    for char, kind in zip(piece.chars, kinds, strict=True):
        neutral = kind is None and not (0 < char[0] < 0x110000 and chr(char[0]).isalnum())
        if runs and (neutral or runs[-1][0] == kind):
            runs[-1][1].append(char)
        else:
            runs.append((kind, [char]))
    # A letter drawn as read amid letters that are not (an "i" read as "I" in
    # "INSTR") does not cut the run: the agent reads the whole.
    merged: list[tuple[str | None, list[Any]]] = []
    for kind, chars in runs:
        if (
            len(merged) >= 2
            and merged[-1][0] is None
            and merged[-2][0] == kind
            and sum(1 for char in merged[-1][1] if chr(char[0]).isalnum()) <= ALONE
        ):
            merged[-2][1].extend(merged.pop()[1] + chars)
        else:
            merged.append((kind, chars))
    return [piece.part(chars, kind) for kind, chars in merged]
