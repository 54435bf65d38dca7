# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""How text looks on its page, for siftui.sources.hidden.detect: colours, and the render that
settles the spans with something painted under or over them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from siftui.core.findings import Box

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

INK = 0.02
"""The share of a box's pixels in the text's colour from which the text is seen."""

MIN_PIXELS = 12.0
"""The render is sharp enough that the smallest span to check is this many pixels high."""

RENDER_ZOOM = 0.5
"""The page is drawn at 36 dpi to find the colour under text: enough for the
edges of a box of 2 pt or more (tiny text is reported before any drawing)."""
MAX_ZOOM = 3.0
BATCH = 4
"""From this many pieces, they are drawn in one render (see _sharp_check)."""
UNIFORM = 0.9
"""Text in the colour of its background is hidden only when its box is (nearly)
all that colour: glyphs of another colour in it (a text framed by a thick border
of its colour, text shaping a soft mask) show it is seen."""
SLANT = 0.035
"""Text whose baseline leans more than this (sine; 2 degrees) is slanted."""
DROP = 0.15
"""How far under the baseline (times the size) a slanted text's background is sampled."""
GROUP_SAMPLES = 3


def box_area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def intersection(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def share_inside(box: Box, within: Box) -> float:
    """The share of ``box`` inside ``within``; a box without area counts by its centre."""
    area = box_area(box)
    if area <= 0:
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return 1.0 if within[0] <= x <= within[2] and within[1] <= y <= within[3] else 0.0
    return box_area(intersection(box, within)) / area


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


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)))


def _luminance(rgb: Sequence[float]) -> float:
    """WCAG relative luminance of an sRGB colour in 0..1."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def same_colour(text: Sequence[float], background: Sequence[float]) -> bool:
    """Whether a reader cannot tell text of this colour from this background."""
    if distance(text, background) >= CONTRAST:
        return False
    lighter, darker = sorted((_luminance(text), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05) < CONTRAST_RATIO


WHITE = (1.0, 1.0, 1.0)


class HiddenCandidate:
    """A span (or the part of one) that may be hidden, before it is located."""

    __slots__ = (
        "bbox",
        "chars",
        "covered_by",
        "kind",
        "masks",
        "rgb",
        "seqno",
        "size",
        "text",
        "under",
    )

    def __init__(
        self,
        span: dict[str, Any],
        text: str | None,
        bbox: Box,
        kind: str | None,
        chars: Any = None,
    ) -> None:
        self.text = text  # None: the span's characters, joined only when needed
        # A part of a span keeps its own characters; a whole span shares the
        # span's list, whose id the plain-rectangle check files it by.
        self.chars = span["chars"] if chars is None else chars
        self.bbox = bbox
        self.kind = kind
        self.rgb = _rgb(span["color"], span["colorspace"])
        self.seqno = int(span["seqno"])
        self.size = float(span["size"])
        self.covered_by = False
        self.under: tuple[int, str] | None = None  # the topmost object painted under it
        self.masks = False  # drawn as a soft mask's content (see PaintLog.masks)

    def part(self, chars: Any, kind: str | None) -> HiddenCandidate:
        """The piece cut to some of its characters (boxed by them), judged anew."""
        part = HiddenCandidate.__new__(HiddenCandidate)
        for name in HiddenCandidate.__slots__:
            setattr(part, name, getattr(self, name))
        part.chars, part.text, part.kind = chars, None, kind
        part.covered_by, part.under = False, None
        part.bbox = (
            min(char[3][0] for char in chars),
            min(char[3][1] for char in chars),
            max(char[3][2] for char in chars),
            max(char[3][3] for char in chars),
        )
        return part

    def slanted_points(self) -> list[tuple[float, float]] | None:
        """For text set at a slant (its box then holds much that is not under it):
        points just under the baseline of each character; None for level text."""
        if len(self.chars) < 2:
            return None
        (x0, y0), (x1, y1) = self.chars[0][2], self.chars[-1][2]
        length = math.hypot(x1 - x0, y1 - y0)
        if length <= 0 or min(abs(x1 - x0), abs(y1 - y0)) / length < SLANT:
            return None
        down = (-(y1 - y0) / length * DROP * self.size, (x1 - x0) / length * DROP * self.size)
        return [(char[2][0] + down[0], char[2][1] + down[1]) for char in self.chars]

    def letters(self) -> str:
        if self.text is None:
            self.text = "".join([chr(char[0]) for char in self.chars])
        return self.text


def render_check(page: Any, pieces: list[HiddenCandidate], bound: Box) -> None:
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
    zoom = pymupdf.Matrix(RENDER_ZOOM, RENDER_ZOOM)
    pixmap = drawing.get_pixmap(matrix=zoom, clip=pymupdf.Rect(area) * rotation, alpha=False)
    view = _View(pixmap, RENDER_ZOOM)
    # Text of one colour on one filled shape: the shape is nearly always of one
    # colour, so a few of its spans decide for all when they agree.
    groups: dict[tuple[Any, ...], list[HiddenCandidate]] = {}
    alone: list[HiddenCandidate] = []
    for piece in pieces:
        if piece.covered_by or piece.under is None or piece.under[1] != "fill-path":
            alone.append(piece)
        else:
            groups.setdefault((piece.under[0], piece.rgb), []).append(piece)
    for group in groups.values():
        sample = group[:: max(1, len(group) // GROUP_SAMPLES)][:GROUP_SAMPLES]
        _check(page, drawing, view, sample, area)
        if any(piece.kind is not None for piece in sample):  # rare: look at each
            _check(page, drawing, view, [p for p in group if p not in sample], area)
    _check(page, drawing, view, alone, area)


def _check(page: Any, drawing: Any, view: _View, pieces: list[HiddenCandidate], area: Box) -> None:
    import pymupdf

    rotation = page.rotation_matrix
    turned = bool(page.rotation % 360)
    sharp: list[tuple[HiddenCandidate, tuple[float, float, float], Box]] = []
    for piece in pieces:
        box = intersection(piece.bbox, area)
        if piece.rgb is None or box[2] <= box[0] or box[3] <= box[1]:
            continue
        if turned:
            box = tuple(pymupdf.Rect(box) * rotation)
        slant = None if turned else piece.slanted_points()
        background = view.background(box) if slant is None else view.around(slant)
        if background is None:
            continue
        if piece.masks:
            # Its own colour is never painted: it is seen when anything but the
            # background shows in its box (what is painted through it).
            if view.uniform(box, background) >= UNIFORM:
                piece.kind = "covered" if piece.covered_by else "low_contrast"
        elif same_colour(piece.rgb, background) and view.uniform(box, background) >= UNIFORM:
            piece.kind = "covered" if piece.covered_by else "low_contrast"
        elif piece.covered_by:
            sharp.append((piece, background, box))
    _sharp_check(page, drawing, sharp)


def _zoom(box: Box) -> float:
    """The zoom at which the box is at least MIN_PIXELS high (and wide), up to MAX_ZOOM."""
    height = min(box[3] - box[1], box[2] - box[0])
    return min(MAX_ZOOM, max(1.0, MIN_PIXELS / max(height, 0.1)))


def _sharp_check(
    page: Any, drawing: Any, pending: list[tuple[HiddenCandidate, tuple[float, float, float], Box]]
) -> None:
    """Text under a later object is ``covered`` when a sharper render of its box
    shows (nearly) no pixel of its colour. From BATCH pieces on, they are drawn
    together, in one render of the part of the page holding them at the largest
    zoom any of them needs: each render runs the whole display list again, which
    for a page holding a large picture means scaling it again."""
    import pymupdf

    if not pending:
        return
    rotation = page.rotation_matrix
    shared = None
    if len(pending) >= BATCH:
        zoom = max(_zoom(box) for _, _, box in pending)
        matrix = rotation * pymupdf.Matrix(zoom, zoom)
        union = pymupdf.Rect(pending[0][0].bbox)
        for piece, _, _ in pending[1:]:
            union |= pymupdf.Rect(piece.bbox)
        shared = drawing.get_pixmap(matrix=matrix, clip=union * rotation, alpha=False)
    for piece, background, box in pending:
        if shared is None:
            zoom = _zoom(box)
            matrix = rotation * pymupdf.Matrix(zoom, zoom)
            sharp = drawing.get_pixmap(
                matrix=matrix, clip=pymupdf.Rect(piece.bbox) * rotation, alpha=False
            )
            counts = sharp.color_count(colors=True)
        else:
            counts = shared.color_count(colors=True, clip=pymupdf.Rect(piece.bbox) * matrix)
        assert piece.rgb is not None
        if _ink(counts, piece.rgb, background) < INK:
            piece.kind = "covered"


class _View:
    """A rendered pixmap's samples, read without a PyMuPDF call per pixel."""

    def __init__(self, pixmap: Any, scale: float = 1.0) -> None:
        self.scale = scale
        self.pixmap = pixmap  # its memory holds the samples
        self.samples = pixmap.samples_mv
        self.stride, self.n = pixmap.stride, pixmap.n
        self.x, self.y, self.width, self.height = pixmap.x, pixmap.y, pixmap.w, pixmap.h

    def background(self, box: Box) -> tuple[float, float, float] | None:
        """The colour a reader sees around a span: the most frequent (in steps of
        QUANTUM) of the pixels on the edges of its box, where glyphs rarely reach."""
        x0, y0, x1, y1 = self._pixels(box)
        x1, y1 = x1 - 1, y1 - 1
        if x1 < x0 or y1 < y0:
            return None
        xm, ym = (x0 + x1) // 2, (y0 + y1) // 2
        points = {(x, y) for x in (x0, xm, x1) for y in (y0, y1)} | {(x0, ym), (x1, ym)}
        return self._common(points)

    def _pixels(self, box: Box) -> tuple[int, int, int, int]:
        """The pixmap's pixels (x0, y0, x1, y1, ends excluded) under a page box."""
        scale = self.scale
        return (
            max(0, math.floor(box[0] * scale) - self.x),
            max(0, math.floor(box[1] * scale) - self.y),
            min(self.width, math.ceil(box[2] * scale) - self.x),
            min(self.height, math.ceil(box[3] * scale) - self.y),
        )

    def uniform(self, box: Box, background: Sequence[float]) -> float:
        """The share of the box's pixels of the background's colour (within QUANTUM)."""
        x0, y0, x1, y1 = self._pixels(box)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        red, green, blue = (float(value) * 255 for value in background)
        samples, stride, n = self.samples, self.stride, self.n
        same = 0
        for y in range(y0, y1):
            row = y * stride
            for x in range(x0, x1):
                at = row + x * n
                if (
                    abs(samples[at] - red) <= QUANTUM
                    and abs(samples[at + 1] - green) <= QUANTUM
                    and abs(samples[at + 2] - blue) <= QUANTUM
                ):
                    same += 1
        return float(same / ((x1 - x0) * (y1 - y0)))

    def around(self, points: list[tuple[float, float]]) -> tuple[float, float, float] | None:
        """The most frequent colour at these page points (those inside the render)."""
        scale = self.scale
        pixels = {(int(x * scale) - self.x, int(y * scale) - self.y) for x, y in points}
        inside = {(x, y) for x, y in pixels if 0 <= x < self.width and 0 <= y < self.height}
        return self._common(inside) if inside else None

    def _common(self, points: set[tuple[int, int]]) -> tuple[float, float, float]:
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
        if distance(rgb, text) < distance(rgb, background):
            ink += count
    return ink / total if total else 0.0
