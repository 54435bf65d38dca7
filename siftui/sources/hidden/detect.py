# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Find the text of a page that is extracted but not visible (sources layer, PyMuPDF).

How, per page (see siftui.core.findings for the kinds):

1. One run of the page (siftui.sources.hidden.paint) gives every span as drawn, as
   ``page.get_texttrace()`` gives it: render mode, opacity, size, colour,
   box, and its place in the drawing order (``seqno``); and, as
   ``page.get_bboxlog()`` would, the box of everything painted, in the same
   order. Render mode 3 is ``invisible`` and opacity 0 ``transparent``
   (either is an ``ocr_layer`` over an image, or over shapes drawing its own
   glyphs: siftui.sources.hidden.shapes), under 1 pt or squeezed to a smear is
   ``tiny``, a box mostly outside the crop box is ``off_page``; glyphs that
   draw nothing are ``invisible``, glyphs named other letters than extraction
   reads ``remapped`` (siftui.sources.hidden.glyphs). Under an opaque plain
   rectangle drawn later, text is ``covered``.
2. A span with nothing painted under or over it lies on the white page: it
   is ``low_contrast`` when its colour is close to white. One partly over
   painted boxes is drawn, and judged character by character.
3. A span on an opaque rectangle of one plain colour far from its own, with
   nothing painted over it since (siftui.sources.hidden.plain), is seen.
4. Only the other spans with something painted under them or drawn over
   them need the page drawn: one low-resolution render of the part of the
   page holding them. In the span's box, the most frequent colour is what a
   reader sees there. The text is ``covered`` when a later image or filled
   shape covers its box and the render shows no pixel of the text's colour,
   ``low_contrast`` when its colour is that of the background.

5. A hidden piece whose words a shown span drawn over the same place also
   reads (a copy under the visible text: a shadow, a text set twice) tells
   the agent nothing a reader does not see: it is no finding.

Each hidden character is then looked for in the page's extraction
(siftui.sources.hidden.extracted): a finding is text the extraction holds,
spelt as in the page's ``get_text()``, so it is exactly the text the agent
reads; hidden text it does not hold is listed apart, as no alarm.
"""

from __future__ import annotations

import math
from typing import Any

from siftui.core.findings import Box, Finding
from siftui.sources.hidden.extracted import Extracted
from siftui.sources.hidden.glyphs import GlyphCheck, by_glyphs, glyph_height, span_fonts
from siftui.sources.hidden.looks import (
    WHITE,
    HiddenCandidate,
    render_check,
    same_colour,
    share_inside,
)
from siftui.sources.hidden.paint import Paints, paint_log
from siftui.sources.hidden.place import apart, located, located_by_text, shown_copy
from siftui.sources.hidden.plain import PlainCheck
from siftui.sources.hidden.shapes import drawn_apart, overlapped

IMAGES = frozenset({"fill-image", "fill-imgmask"})

TINY = 1.0
"""Text under this size (pt) is ``tiny``."""

OFF_PAGE = 0.5
"""A span with less than this share of its box inside the crop box is ``off_page``."""

COVERS = 0.9
"""A later object covering this share of a span's box may hide it."""

UNDER = 0.5
"""Something painted earlier under this share of a span's box may be its background."""

OCR_OVERLAP = 0.5
"""Invisible text with this share of its box over an image is an ``ocr_layer``."""

OPAQUE = 1 / 255

SQUEEZED = 0.1
"""Text whose letters advance less than this share of its size each, and less
than SQUEEZED_PT (a horizontal scaling of 1-3%, ``1 Tz``: a smear a point or
two long), is ``tiny``. (The size alone does not tell the drawn height: a font
matrix may draw 58 pt text 7 pt high, pdf.js's issue6605.pdf.)"""

SQUEEZED_PT = 1.0

UNPAINTED = frozenset({"invisible", "transparent"})
"""Kinds of text that paints nothing itself: over an image (or over shapes that
draw its glyphs, siftui.sources.hidden.shapes) it is an ``ocr_layer``."""


def _page_bound(page: Any) -> Box:
    """The crop box in the unrotated page space texttrace and bboxlog use."""
    rect = page.rect
    width, height = float(rect.width), float(rect.height)
    if page.rotation % 180:
        width, height = height, width
    return (0.0, 0.0, width, height)


def _span_kind(span: dict[str, Any]) -> str | None:
    """What the span's own drawing says: invisible, transparent, tiny, or None."""
    if span["type"] == 3:
        return "invisible"
    if span["opacity"] < OPAQUE:
        return "transparent"
    size = span["size"]
    if size < TINY:
        return "tiny"
    box = span["bbox"]
    if (box[2] - box[0]) + (box[3] - box[1]) >= 2 * SQUEEZED_PT * len(span["chars"]):
        # The usual case, told by the span's box: the letters' path is at least
        # half its width and height, so over SQUEEZED_PT a letter.
        return None
    return "tiny" if _squeezed(span["chars"], size, box) else None


def _squeezed(chars: Any, size: float, box: Box) -> bool:
    """Whether the letters and digits of text of this size are drawn squeezed
    together (SQUEEZED)."""
    step = min(SQUEEZED * size, SQUEEZED_PT)
    if len(chars) < 2 or max(box[2] - box[0], box[3] - box[1]) >= step * len(chars):
        return False  # (the usual case, told by the span's box)
    length, count, last = 0.0, 0, None
    for char in chars:
        if 0 < char[0] < 0x110000 and chr(char[0]).isalnum():
            if last is not None:
                length += math.hypot(char[2][0] - last[0], char[2][1] - last[1])
            last = char[2]
            count += 1
    return count >= 2 and length < step * (count - 1)


def _pieces(span: dict[str, Any], bound: Box) -> list[HiddenCandidate]:
    """The span as the agent reads it: whole when it is inside the page, else
    runs of the characters extraction keeps (those whose box touches the crop
    box), those mostly outside it being ``off_page``."""
    chars = span["chars"]
    if not chars:
        return []
    box: Box = span["bbox"]
    if box[0] >= bound[0] and box[1] >= bound[1] and box[2] <= bound[2] and box[3] <= bound[3]:
        return [HiddenCandidate(span, None, box, _span_kind(span))]
    runs: list[tuple[str, Box, bool, list[Any]]] = []
    for char in chars:
        x0, y0, x1, y1 = char[3]
        share = share_inside((x0, y0, x1, y1), bound)
        if share <= 0:
            continue  # MuPDF's extraction drops it: the agent never reads it
        off = share < OFF_PAGE
        if runs and runs[-1][2] == off:
            text, (a0, b0, a1, b1), _, kept = runs[-1]
            merged = (min(a0, x0), min(b0, y0), max(a1, x1), max(b1, y1))
            kept.append(char)
            runs[-1] = (text + chr(char[0]), merged, off, kept)
        else:
            runs.append((chr(char[0]), (x0, y0, x1, y1), off, [char]))
    kind = _span_kind(span)
    return [
        HiddenCandidate(span, text, run_box, "off_page" if off else kind, kept)
        for text, run_box, off, kept in runs
        if text.strip()
    ]


def _classify(piece: HiddenCandidate, paints: Paints) -> bool:
    """Settle a piece from the painted boxes alone; False when the page must be drawn."""
    near = paints.fills.near(piece.bbox)
    if piece.kind in UNPAINTED:
        if any(
            kind in IMAGES and share_inside(piece.bbox, box) >= OCR_OVERLAP for _, kind, box in near
        ):
            piece.kind = "ocr_layer"
        return True
    if piece.kind is not None:
        return True
    if piece.masks:
        return False  # what shows through it decides: the page is drawn
    x0, y0, x1, y1 = piece.bbox
    area = (x1 - x0) * (y1 - y0)
    seqno = piece.seqno
    partly = False
    for index, kind, box in near:
        b0, b1, b2, b3 = box
        if b0 >= x1 or b2 <= x0 or b1 >= y1 or b3 <= y0:
            continue  # beside it, not under or over it
        if area > 0:  # the share of the piece's box in the painted one
            share = (
                ((x1 if x1 < b2 else b2) - (x0 if x0 > b0 else b0))
                * ((y1 if y1 < b3 else b3) - (y0 if y0 > b1 else b1))
                / area
            )
        else:
            share = share_inside(piece.bbox, box)
        if index < seqno:
            if share >= UNDER and (piece.under is None or index > piece.under[0]):
                piece.under = (index, kind)
            elif share < UNDER:
                # Partly over it: drawn when it may hide part of the text (its
                # colour unknown, or the text's), or the text is white.
                partly = True
                colour = paints.plain.get(index)
                if colour is None or (piece.rgb is not None and same_colour(piece.rgb, colour)):
                    piece.straddles = True
        elif kind != "fill-unbounded" and share >= COVERS:
            piece.covered_by = True
            if index in paints.plain:
                # An opaque plain rectangle: whatever is drawn on it later
                # (other text, XXXX), this text is no longer seen.
                piece.kind = "covered"
                return True
    if piece.under is not None or piece.covered_by:
        return False
    if partly and piece.rgb is not None and same_colour(piece.rgb, WHITE):
        piece.straddles = True  # white, partly on the white page
    if piece.straddles:
        return False
    if piece.rgb is not None and same_colour(piece.rgb, WHITE):
        piece.kind = "low_contrast"  # on the white page
    return True


def inspect_page(
    page: Any, number: int, glyphs: GlyphCheck | None = None
) -> tuple[list[Finding], list[Finding]]:
    """The findings of one PyMuPDF page (``number`` is its 1-based number), and
    apart the hidden text its extraction does not hold (see
    siftui.sources.hidden.place). ``glyphs`` is the check of the document's
    fonts, shared by its pages (a new one when None)."""
    bound = _page_bound(page)
    painted = paint_log(page)
    spans = painted.spans
    pieces = [piece for span in spans for piece in _pieces(span, bound)]
    if not pieces:
        return [], []
    if painted.span_fonts:
        pieces = by_glyphs(pieces, painted, page, glyphs)
    for piece in pieces:
        piece.masks = piece.seqno in painted.masks
    extracted: Extracted | None = None
    if any(piece.kind == "tiny" and piece.size < TINY for piece in pieces):
        extracted = Extracted(page)
        fonts = span_fonts(painted) if painted.span_fonts else {}
        for piece in pieces:
            if piece.kind == "tiny" and piece.size < TINY:
                font = fonts.get(id(piece.span_chars))
                drawn = 0.0 if font is None else glyph_height(painted.fonts[font], piece.chars)
                _resize(piece, extracted, drawn * piece.size)
    judge = _Judge(page, painted, bound)
    judge([piece for piece in pieces if piece.kind is None or piece.kind in UNPAINTED])
    judge.drawn_apart([piece for piece in pieces if piece.kind in UNPAINTED])
    hidden = [piece for piece in _hidden(pieces) if not shown_copy(piece, pieces)]
    if not hidden:
        return [], []
    if extracted is None and all(piece.kind == "ocr_layer" for piece in hidden):
        # No alarm to place: the page's text is searched instead of its
        # characters being read one by one (a scan's OCR layer has thousands).
        return located_by_text(hidden, str(page.get_text()), number)
    extracted = extracted or Extracted(page)
    kept: list[HiddenCandidate] = []
    again: list[HiddenCandidate] = []
    missed: list[Finding] = []
    for piece in hidden:
        held, missing = extracted.split(piece.chars)
        missed.extend(apart(piece, missing, number))
        if not missing:
            kept.append(piece)
        elif held:
            # Only part of it is read: that part is judged on its own (the
            # rest of the box may be what hides the text, the part be seen).
            drawn = piece.kind in DRAWN
            (kept if drawn else again).append(piece.part(held, piece.kind if drawn else None))
    judge(again)
    kept.extend(_hidden(again))
    kept.sort(key=lambda piece: piece.seqno)
    kept = [piece for piece in kept if not shown_copy(piece, pieces)]
    return located(kept, extracted, number), missed


DRAWN = frozenset({"invisible", "ocr_layer", "transparent", "tiny", "off_page", "remapped"})
"""Kinds a span's own drawing decides, which hold for any part of it."""


def _hidden(pieces: list[HiddenCandidate]) -> list[HiddenCandidate]:
    return [
        piece
        for piece in pieces
        if piece.kind is not None and any(char.isalnum() for char in piece.letters())
    ]


class _Judge:
    """Classifies pieces of one page (the painted objects filed once, when first needed)."""

    def __init__(self, page: Any, painted: Any, bound: Box) -> None:
        self.page, self.painted, self.bound = page, painted, bound
        self.paints: Paints | None = None
        self.plain: PlainCheck | None = None
        self.drawing: Any = None  # the page's display list, made when first needed

    def __call__(self, pieces: list[HiddenCandidate]) -> None:
        if not pieces:
            return
        if self.paints is None:
            self.paints = Paints(self.painted, self.bound)
        to_draw = [piece for piece in pieces if not _classify(piece, self.paints)]
        if to_draw and self.plain is None:
            self.plain = PlainCheck(self.paints, self.painted.spans, self.bound)
        if to_draw:
            assert self.plain is not None
            to_draw = [piece for piece in to_draw if not self.plain.seen(piece)]
        if to_draw:
            render_check(self.page, to_draw, self.bound)

    def drawn_apart(self, pieces: list[HiddenCandidate]) -> None:
        """Text that paints nothing over shapes drawing its glyphs is the
        picture's: an ``ocr_layer`` (siftui.sources.hidden.shapes)."""
        kept = self.painted.unpainted
        pieces = [piece for piece in pieces if piece.seqno in kept]
        if not pieces:
            return
        if self.paints is None:
            self.paints = Paints(self.painted, self.bound)
        fills, strokes = self.paints.fills, self.paints.strokes
        for piece in pieces:
            if overlapped(piece, fills.near(piece.bbox)) or overlapped(
                piece, strokes.near(piece.bbox)
            ):
                if self.drawing is None:
                    self.drawing = self.page.get_displaylist()
                if drawn_apart(self.page, self.drawing, piece, kept[piece.seqno]):
                    piece.kind = "ocr_layer"


def _resize(piece: HiddenCandidate, extracted: Extracted, drawn: float) -> None:
    """Tiny by its font size, but maybe drawn larger (a Type 3 font's matrix):
    then it is measured by the extraction's boxes, or by its glyphs' own
    height (``drawn``, pt: a Type 3 font's glyphs, with its matrix), and
    classified as any text."""
    size = max(extracted.drawn_size(piece.chars, piece.size), drawn)
    if size < TINY or _squeezed(piece.chars, size, piece.bbox):
        # (The trace's size is the text's width: a horizontal scaling of 1%
        # gives 12 pt letters a size of 0.12 and the height of 12 pt.)
        return
    boxes = [hit[1] for hit in map(extracted.find, piece.chars) if hit is not None]
    piece.kind = None
    piece.size = size
    if boxes:
        piece.bbox = (
            min(box[0] for box in boxes),
            min(box[1] for box in boxes),
            max(box[2] for box in boxes),
            max(box[3] for box in boxes),
        )
