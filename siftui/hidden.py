# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.extract in pyproject.toml)
"""Find the text of a page that is extracted but not visible (sources layer, PyMuPDF).

How, per page (see siftui.findings for the kinds):

1. ``page.get_texttrace()`` gives every span as drawn: render mode, opacity,
   size, colour, box, and its place in the drawing order (``seqno``).
   Render mode 3 is ``invisible`` (``ocr_layer`` over an image), opacity 0 is
   ``transparent``, under 1 pt is ``tiny``, a box mostly outside the crop box
   is ``off_page``.
2. ``page.get_bboxlog()`` gives the box of everything painted, in the same
   drawing order. A span with nothing painted under or over it lies on the
   white page: it is ``low_contrast`` when its colour is close to white.
3. Only spans with something painted under them or drawn over them (most
   pages have none) need the page drawn: one low-resolution render of the
   part of the page holding them. In the span's box, the most frequent colour
   is what a reader sees there. The text is ``covered`` when a later image or
   filled shape covers its box and the render shows no pixel of the text's
   colour, ``low_contrast`` when its colour is that of the background.

The findings' text is located in the page's ``get_text()``, so it is exactly
the text the agent reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from siftui.findings import Box, Finding, locate

PAINTS = frozenset({"fill-path", "fill-image", "fill-imgmask", "fill-shade"})
IMAGES = frozenset({"fill-image", "fill-imgmask"})

CONTRAST_RATIO = 1.05
"""Text is ``low_contrast`` when the WCAG contrast ratio of its colour and its
background is under this (1 = the same luminance; readable body text needs
4.5) and the two colours are also close in RGB (``CONTRAST``), so that red
on a green of the same luminance is not reported. On white, 1.05 is a grey
of 249/255; on black, one of 8/255: colours a reader cannot tell apart. The
faint but readable items of beamer's "transparent" overlays (1.07-1.2 in
beameruserguide.pdf) are not reported."""

CONTRAST = 0.12
"""See CONTRAST_RATIO: the Euclidean distance of RGB in 0..1 (white to black is 1.73)."""

QUANTUM = 16
"""Rendered colours are counted in steps of 16/255, so that a gradient behind
the text has a most frequent colour as a flat background does."""

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

INK = 0.02
"""The share of a box's pixels in the text's colour from which the text is seen."""

MIN_PIXELS = 12.0
"""The render is sharp enough that the smallest span to check is this many pixels high."""

MAX_ZOOM = 3.0
GROUP_SAMPLES = 3
OPAQUE = 1 / 255


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _inter(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _share_inside(box: Box, within: Box) -> float:
    """The share of ``box`` inside ``within``; a box without area counts by its centre."""
    area = _area(box)
    if area <= 0:
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return 1.0 if within[0] <= x <= within[2] and within[1] <= y <= within[3] else 0.0
    return _area(_inter(box, within)) / area


def _rgb(color: Sequence[float], components: int) -> tuple[float, float, float] | None:
    """A texttrace colour as RGB in 0..1; None for colours that are not plain."""
    if components == 1 and len(color) == 1:
        return (color[0], color[0], color[0])
    if components == 3 and len(color) == 3:
        return (color[0], color[1], color[2])
    if components == 4 and len(color) == 4:
        c, m, y, k = color
        return (1 - min(1.0, c + k), 1 - min(1.0, m + k), 1 - min(1.0, y + k))
    return None


def _distance(a: Sequence[float], b: Sequence[float]) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)))


def _luminance(rgb: Sequence[float]) -> float:
    """WCAG relative luminance of an sRGB colour in 0..1."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def same_colour(text: Sequence[float], background: Sequence[float]) -> bool:
    """Whether a reader cannot tell text of this colour from this background."""
    if _distance(text, background) >= CONTRAST:
        return False
    lighter, darker = sorted((_luminance(text), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05) < CONTRAST_RATIO


WHITE = (1.0, 1.0, 1.0)


class _Piece:
    """A span (or the part of one) that may be hidden, before it is located."""

    __slots__ = ("bbox", "chars", "covered_by", "kind", "rgb", "seqno", "text", "under")

    def __init__(self, span: dict[str, Any], text: str | None, bbox: Box, kind: str | None) -> None:
        self.text = text  # None: the span's characters, joined only when needed
        self.chars = span["chars"]
        self.bbox = bbox
        self.kind = kind
        self.rgb = _rgb(span["color"], span["colorspace"])
        self.seqno = int(span["seqno"])
        self.covered_by = False
        self.under: tuple[int, str] | None = None  # the topmost object painted under it

    def letters(self) -> str:
        if self.text is None:
            self.text = "".join([chr(char[0]) for char in self.chars])
        return self.text


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


def _pieces(span: dict[str, Any], bound: Box) -> list[_Piece]:
    """The span as the agent reads it: whole when it is inside the page, else
    runs of the characters extraction keeps (those whose box touches the crop
    box), those mostly outside it being ``off_page``."""
    chars = span["chars"]
    if not chars:
        return []
    box: Box = span["bbox"]
    if box[0] >= bound[0] and box[1] >= bound[1] and box[2] <= bound[2] and box[3] <= bound[3]:
        return [_Piece(span, None, box, _span_kind(span))]
    runs: list[tuple[str, Box, bool]] = []
    for char in chars:
        x0, y0, x1, y1 = char[3]
        share = _share_inside((x0, y0, x1, y1), bound)
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
        _Piece(span, text, run_box, "off_page" if off else kind)
        for text, run_box, off in runs
        if text.strip()
    ]


UNBOUNDED = 1e9
"""A painted box reaching this far (MuPDF logs a clipped shading as +-2**31) is unbounded."""

BAND = 32.0
"""Height (pt) of the horizontal bands painted objects are filed in, so that a
span is compared only with what is painted at its height."""


class _Paints:
    """The painted objects of a page (images, filled paths, shadings), by band."""

    def __init__(self, log: list[tuple[str, Any]], bound: Box) -> None:
        self.bands: dict[int, list[tuple[int, str, Box]]] = {}
        self.bottom = bound[3] + BAND
        for index, (kind, rect) in enumerate(log):
            if kind not in PAINTS:
                continue
            raw = (float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3]))
            if max(abs(value) for value in raw) >= UNBOUNDED:
                # A shading filling its clip path: the box does not say where it is
                # (it may be under the text, never certainly over it).
                kind = "fill-unbounded"
            # Only what is painted on the page matters.
            x0, y0, x1, y1 = _inter(raw, bound)
            if x1 <= x0 or y1 <= y0:
                continue
            item = (index, kind, (x0, y0, x1, y1))
            for band in range(int(y0 // BAND), int(y1 // BAND) + 1):
                self.bands.setdefault(band, []).append(item)

    def near(self, box: Box) -> list[tuple[int, str, Box]]:
        found: dict[int, tuple[int, str, Box]] = {}
        top, bottom = max(box[1], -BAND), min(box[3], self.bottom)
        for band in range(int(top // BAND), int(bottom // BAND) + 1):
            for item in self.bands.get(band, ()):
                found[item[0]] = item
        return list(found.values())


def _classify(piece: _Piece, paints: _Paints) -> bool:
    """Settle a piece from the painted boxes alone; False when the page must be drawn."""
    near = paints.near(piece.bbox)
    if piece.kind == "invisible":
        if any(
            kind in IMAGES and _share_inside(piece.bbox, box) >= OCR_OVERLAP
            for _, kind, box in near
        ):
            piece.kind = "ocr_layer"
        return True
    if piece.kind is not None:
        return True
    for index, kind, box in near:
        if index < piece.seqno:
            if _share_inside(piece.bbox, box) >= UNDER and (
                piece.under is None or index > piece.under[0]
            ):
                piece.under = (index, kind)
        elif kind != "fill-unbounded" and _share_inside(piece.bbox, box) >= COVERS:
            piece.covered_by = True
    if piece.under is not None or piece.covered_by:
        return False
    if piece.rgb is not None and same_colour(piece.rgb, WHITE):
        piece.kind = "low_contrast"  # on the white page
    return True


def _render_check(page: Any, pieces: list[_Piece], bound: Box) -> None:
    """Decide the pieces that need the page drawn, from one render of their area
    at 72 dpi (and a sharper one of each box a later object may cover), both
    from one display list of the page."""
    import pymupdf

    area = (
        max(bound[0], min(piece.bbox[0] for piece in pieces)),
        max(bound[1], min(piece.bbox[1] for piece in pieces)),
        min(bound[2], max(piece.bbox[2] for piece in pieces)),
        min(bound[3], max(piece.bbox[3] for piece in pieces)),
    )
    if area[2] <= area[0] or area[3] <= area[1]:
        return
    rotation = page.rotation_matrix
    drawing = page.get_displaylist()
    pixmap = drawing.get_pixmap(clip=pymupdf.Rect(area) * rotation, alpha=False)
    view = _View(pixmap)
    # Text of one colour on one filled shape: the shape is nearly always of one
    # colour, so a few of its spans decide for all when they agree.
    groups: dict[tuple[Any, ...], list[_Piece]] = {}
    alone: list[_Piece] = []
    for piece in pieces:
        if piece.covered_by or piece.under is None or piece.under[1] != "fill-path":
            alone.append(piece)
        else:
            groups.setdefault((piece.under[0], piece.rgb), []).append(piece)
    for group in groups.values():
        sample = group[:: max(1, len(group) // GROUP_SAMPLES)][:GROUP_SAMPLES]
        _check(page, drawing, view, sample, area)
        if len(group) > len(sample) and len({piece.kind for piece in sample}) > 1:
            _check(page, drawing, view, [p for p in group if p not in sample], area)
        else:
            for piece in group:
                piece.kind = sample[0].kind
    _check(page, drawing, view, alone, area)


def _check(page: Any, drawing: Any, view: _View, pieces: list[_Piece], area: Box) -> None:
    import pymupdf

    rotation = page.rotation_matrix
    for piece in pieces:
        box = _inter(piece.bbox, area)
        if piece.rgb is None or box[2] <= box[0] or box[3] <= box[1]:
            continue
        if page.rotation % 360:
            box = tuple(pymupdf.Rect(box) * rotation)
        background = view.background(box)
        if background is None:
            continue
        if same_colour(piece.rgb, background):
            piece.kind = "covered" if piece.covered_by else "low_contrast"
        elif piece.covered_by:
            height = min(box[3] - box[1], box[2] - box[0])
            zoom = min(MAX_ZOOM, max(1.0, MIN_PIXELS / max(height, 0.1)))
            sharp = drawing.get_pixmap(
                matrix=rotation * pymupdf.Matrix(zoom, zoom),
                clip=pymupdf.Rect(piece.bbox) * rotation,
                alpha=False,
            )
            if _ink(sharp.color_count(colors=True), piece.rgb, background) < INK:
                piece.kind = "covered"


class _View:
    """A rendered pixmap's samples, read without a PyMuPDF call per pixel."""

    def __init__(self, pixmap: Any) -> None:
        self.samples = bytes(pixmap.samples)
        self.stride, self.n = pixmap.stride, pixmap.n
        self.x, self.y, self.width, self.height = pixmap.x, pixmap.y, pixmap.w, pixmap.h

    def background(self, box: Box) -> tuple[float, float, float] | None:
        """The colour a reader sees around a span: the most frequent (in steps of
        QUANTUM) of the pixels on the edges of its box, where glyphs rarely reach."""
        x0 = max(0, math.floor(box[0]) - self.x)
        y0 = max(0, math.floor(box[1]) - self.y)
        x1 = min(self.width, math.ceil(box[2]) - self.x) - 1
        y1 = min(self.height, math.ceil(box[3]) - self.y) - 1
        if x1 < x0 or y1 < y0:
            return None
        xm, ym = (x0 + x1) // 2, (y0 + y1) // 2
        points = {(x, y) for x in (x0, xm, x1) for y in (y0, y1)} | {(x0, ym), (x1, ym)}
        steps: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
        samples, stride, n = self.samples, self.stride, self.n
        for x, y in points:
            at = y * stride + x * n
            red, green, blue = samples[at], samples[at + 1], samples[at + 2]
            steps.setdefault((red // QUANTUM, green // QUANTUM, blue // QUANTUM), []).append(
                (red, green, blue)
            )
        common = max(steps.values(), key=len)
        return (
            sum(c[0] for c in common) / len(common) / 255,
            sum(c[1] for c in common) / len(common) / 255,
            sum(c[2] for c in common) / len(common) / 255,
        )


def _ink(counts: dict[bytes, int], text: tuple[float, float, float], background: Any) -> float:
    """The share of pixels closer to the text's colour than to the background's."""
    total = sum(counts.values())
    ink = 0
    for color, count in counts.items():
        rgb = (color[0] / 255, color[1] / 255, color[2] / 255)
        if _distance(rgb, text) < _distance(rgb, background):
            ink += count
    return ink / total if total else 0.0


def inspect_page(page: Any, number: int, page_text: str | None = None) -> list[Finding]:
    """The findings of one PyMuPDF page; ``number`` is its 1-based number.

    ``page_text`` is the page's ``get_text()`` when the caller has it (else it
    is read here, only for a page with findings).
    """
    bound = _page_bound(page)
    pieces = [piece for span in page.get_texttrace() for piece in _pieces(span, bound)]
    if not pieces:
        return []
    if any(piece.kind is None or piece.kind == "invisible" for piece in pieces):
        paints = _Paints(page.get_bboxlog(), bound)
        to_draw = [piece for piece in pieces if not _classify(piece, paints)]
        if to_draw:
            _render_check(page, to_draw, bound)
    # A hidden bracket or dash (a character under a picture's edge) says nothing:
    # a finding holds at least one letter or digit.
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


def _located(pieces: list[_Piece], page_text: str, number: int) -> list[Finding]:
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
            findings.append(Finding(number, kind, page_text[begin:end], box))

    for piece in pieces:
        assert piece.kind is not None
        text = piece.letters()
        where = locate(page_text, text, cursor) or locate(page_text, text)
        if where is None:
            if piece.kind != "off_page":  # spelt otherwise by extraction: kept as drawn
                flush()
                current = None
                findings.append(Finding(number, piece.kind, text, piece.bbox))
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
    return findings
