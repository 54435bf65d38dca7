# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Find the text of a page that is extracted but not visible (sources layer, PyMuPDF).

How, per page (see siftui.core.findings for the kinds):

1. One run of the page (siftui.sources.hidden.paint) gives every span as drawn, as
   ``page.get_texttrace()`` gives it: render mode, opacity, size, colour,
   box, and its place in the drawing order (``seqno``); and, as
   ``page.get_bboxlog()`` would, the box of everything painted, in the same
   order. Render mode 3 is ``invisible`` (``ocr_layer`` over an image),
   opacity 0 is ``transparent``, under 1 pt is ``tiny``, a box mostly
   outside the crop box is ``off_page``.
2. A span with nothing painted under or over it lies on the white page: it
   is ``low_contrast`` when its colour is close to white.
3. A span on an opaque rectangle of one plain colour far from its own, with
   nothing painted over it since (siftui.sources.hidden.plain), is seen.
4. Only the other spans with something painted under them or drawn over
   them need the page drawn: one low-resolution render of the part of the
   page holding them. In the span's box, the most frequent colour is what a
   reader sees there. The text is ``covered`` when a later image or filled
   shape covers its box and the render shows no pixel of the text's colour,
   ``low_contrast`` when its colour is that of the background.

The findings' text is located in the page's ``get_text()``, so it is exactly
the text the agent reads.
"""

from __future__ import annotations

from typing import Any

from siftui.core.findings import Box, Finding, locate
from siftui.sources.hidden.looks import (
    WHITE,
    Piece,
    render_check,
    same_colour,
    share_inside,
)
from siftui.sources.hidden.paint import Paints, paint_log
from siftui.sources.hidden.plain import PlainCheck

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
    if span["size"] < TINY:
        return "tiny"
    return None


def _pieces(span: dict[str, Any], bound: Box) -> list[Piece]:
    """The span as the agent reads it: whole when it is inside the page, else
    runs of the characters extraction keeps (those whose box touches the crop
    box), those mostly outside it being ``off_page``."""
    chars = span["chars"]
    if not chars:
        return []
    box: Box = span["bbox"]
    if box[0] >= bound[0] and box[1] >= bound[1] and box[2] <= bound[2] and box[3] <= bound[3]:
        return [Piece(span, None, box, _span_kind(span))]
    runs: list[tuple[str, Box, bool]] = []
    for char in chars:
        x0, y0, x1, y1 = char[3]
        share = share_inside((x0, y0, x1, y1), bound)
        if share <= 0:
            continue  # MuPDF's extraction drops it: the agent never reads it
        off = share < OFF_PAGE
        if runs and runs[-1][2] == off:
            text, (a0, b0, a1, b1), _ = runs[-1]
            merged = (min(a0, x0), min(b0, y0), max(a1, x1), max(b1, y1))
            runs[-1] = (text + chr(char[0]), merged, off)
        else:
            runs.append((chr(char[0]), (x0, y0, x1, y1), off))
    kind = _span_kind(span)
    return [
        Piece(span, text, run_box, "off_page" if off else kind)
        for text, run_box, off in runs
        if text.strip()
    ]


MIN_LETTERS = 2
"""Hidden pieces with fewer letters or digits than this are no finding."""


def _classify(piece: Piece, paints: Paints) -> bool:
    """Settle a piece from the painted boxes alone; False when the page must be drawn."""
    near = paints.fills.near(piece.bbox)
    if piece.kind == "invisible":
        if any(
            kind in IMAGES and share_inside(piece.bbox, box) >= OCR_OVERLAP for _, kind, box in near
        ):
            piece.kind = "ocr_layer"
        return True
    if piece.kind is not None:
        return True
    x0, y0, x1, y1 = piece.bbox
    area = (x1 - x0) * (y1 - y0)
    seqno = piece.seqno
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
        elif kind != "fill-unbounded" and share >= COVERS:
            piece.covered_by = True
    if piece.under is not None or piece.covered_by:
        return False
    if piece.rgb is not None and same_colour(piece.rgb, WHITE):
        piece.kind = "low_contrast"  # on the white page
    return True


def inspect_page(page: Any, number: int, page_text: str | None = None) -> list[Finding]:
    """The findings of one PyMuPDF page; ``number`` is its 1-based number.

    ``page_text`` is the page's ``get_text()`` when the caller has it (else it
    is read here, only for a page with findings).
    """
    bound = _page_bound(page)
    painted = paint_log(page)
    spans = painted.spans
    pieces = [piece for span in spans for piece in _pieces(span, bound)]
    if not pieces:
        return []
    if any(piece.kind is None or piece.kind == "invisible" for piece in pieces):
        paints = Paints(painted, bound)
        to_draw = [piece for piece in pieces if not _classify(piece, paints)]
        if to_draw:
            plain = PlainCheck(paints, spans, bound)
            to_draw = [piece for piece in to_draw if not plain.seen(piece)]
        if to_draw:
            render_check(page, to_draw, bound)
    hidden = [
        piece
        for piece in pieces
        if piece.kind is not None and any(char.isalnum() for char in piece.letters())
    ]
    if not hidden:
        return []
    if page_text is None:
        page_text = str(page.get_text())
    return _located(hidden, page_text, number)


def _rounded(box: Box) -> Box:
    """To 1/100 pt, as the JSON and the cache keep it: a cached finding equals a new one."""
    return (round(box[0], 2), round(box[1], 2), round(box[2], 2), round(box[3], 2))


def _located(pieces: list[Piece], page_text: str, number: int) -> list[Finding]:
    """Findings with the page text's own spelling; neighbours of one kind joined.

    Two pieces in a row (in drawing order) of the same kind become one finding
    when the second follows the first in the page text with only white space
    between. A piece that cannot be located keeps the text as drawn, but for
    text off the page, which extraction may have dropped (then it is no finding).
    """
    findings: list[Finding] = []
    current: tuple[str, int, int, Box] | None = None  # kind, begin, end, box
    cursor = 0

    def flush() -> None:
        if current is not None:
            kind, begin, end, box = current
            findings.append(Finding(number, kind, page_text[begin:end], _rounded(box)))

    for piece in pieces:
        assert piece.kind is not None
        text = piece.letters()
        where = locate(page_text, text, cursor) or locate(page_text, text)
        if where is None:
            if piece.kind != "off_page":  # spelt otherwise by extraction: kept as drawn
                flush()
                current = None
                findings.append(Finding(number, piece.kind, text, _rounded(piece.bbox)))
            continue  # off the page and not extracted: the agent does not read it
        begin, end = where
        if (
            current is not None
            and current[0] == piece.kind
            and begin >= current[2]
            and not page_text[current[2] : begin].strip()
        ):
            box = current[3]
            joined = (
                min(box[0], piece.bbox[0]),
                min(box[1], piece.bbox[1]),
                max(box[2], piece.bbox[2]),
                max(box[3], piece.bbox[3]),
            )
            current = (piece.kind, current[1], end, joined)
        else:
            flush()
            current = (piece.kind, begin, end, piece.bbox)
        cursor = end
    flush()
    # A hidden bracket, or one letter under a picture's edge, says nothing to
    # an agent: a finding holds at least MIN_LETTERS letters or digits.
    return [f for f in findings if sum(char.isalnum() for char in f.text) >= MIN_LETTERS]
