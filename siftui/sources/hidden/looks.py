# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""How text looks on its page, for siftui.sources.hidden.detect: colours, and the render that
settles the spans with something painted under or over them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from siftui.core.findings import Box
from siftui.sources.hidden.pixels import QUANTUM, View, distance, ink_share

__all__ = ["QUANTUM", "distance"]  # (siftui.sources.hidden.plain reads them here)

CONTRAST_RATIO = 1.15
"""Text is ``low_contrast`` when the WCAG contrast ratio of its colour and its
background is under this (1 = the same luminance; readable body text needs
4.5) and the two colours are also close in RGB (``CONTRAST``), so that red
on a green of the same luminance is not reported. On white, 1.15 is a grey
of 0.94 (240/255; 0.95-0.97 grey on white, 1.12-1.07, is not read by a person
looking at the page); on black, one of 0.09."""

CONTRAST = 0.12
"""See CONTRAST_RATIO: the Euclidean distance of RGB in 0..1 (white to black is 1.73)."""

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
        "span_chars",
        "straddles",
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
        self.span_chars = span["chars"]  # the whole span's (its font is found by them)
        self.bbox = bbox
        self.kind = kind
        self.rgb = _rgb(span["color"], span["colorspace"])
        self.seqno = int(span["seqno"])
        self.size = float(span["size"])
        self.covered_by = False
        self.under: tuple[int, str] | None = None  # the topmost object painted under it
        self.masks = False  # drawn as a soft mask's content (see PaintLog.masks)
        self.straddles = False  # over parts of several painted boxes, none under most of it

    def part(self, chars: Any, kind: str | None) -> HiddenCandidate:
        """The piece cut to some of its characters (boxed by them), judged anew."""
        part = HiddenCandidate.__new__(HiddenCandidate)
        for name in HiddenCandidate.__slots__:
            setattr(part, name, getattr(self, name))
        part.chars, part.text, part.kind = chars, None, kind
        part.covered_by, part.under, part.straddles = False, None, False
        part.bbox = (
            min(char[3][0] for char in chars),
            min(char[3][1] for char in chars),
            max(char[3][2] for char in chars),
            max(char[3][3] for char in chars),
        )
        return part

    def cut(self, chars: Any, kind: str) -> None:
        """Keep only these characters (those hidden), of this kind."""
        if len(chars) != len(self.chars):
            self.chars, self.text = chars, None
            self.bbox = (
                min(char[3][0] for char in chars),
                min(char[3][1] for char in chars),
                max(char[3][2] for char in chars),
                max(char[3][3] for char in chars),
            )
        self.kind = kind

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
    view = View(pixmap, RENDER_ZOOM)
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


def _check(page: Any, drawing: Any, view: View, pieces: list[HiddenCandidate], area: Box) -> None:
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
        elif piece.straddles or (
            same_colour(piece.rgb, background) and view.uniform(box, background) >= UNIFORM
        ):
            # Judged by the colour under each of its characters: a span may run
            # over several boxes (white labels on a row of swatches), its box's
            # edges on none of them.
            chars = _unseen_chars(piece, view, area, rotation if turned else None)
            if chars:
                piece.cut(chars, "covered" if piece.covered_by else "low_contrast")
            elif piece.covered_by:
                sharp.append((piece, background, box))
        elif piece.covered_by:
            sharp.append((piece, background, box))
    _sharp_check(page, drawing, sharp)


def _unseen_chars(piece: HiddenCandidate, view: View, area: Box, rotation: Any) -> list[Any]:
    """The piece's characters drawn in the colour around them (those of its
    letters and digits that are, and what lies between them; all of them when
    every letter and digit is); none when no letter or digit is."""
    import pymupdf

    assert piece.rgb is not None
    unseen: list[Any] = []
    pending: list[Any] = []  # signs and spaces after the last unseen letter
    seen = False
    for char in piece.chars:
        if not (0 < char[0] < 0x110000 and chr(char[0]).isalnum()):
            if unseen:
                pending.append(char)
            continue
        box = intersection(char[3], area)
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        if rotation is not None:
            box = tuple(pymupdf.Rect(box) * rotation)
        background = view.background(box)
        if (
            background is not None
            and same_colour(piece.rgb, background)
            and view.uniform(box, background) >= UNIFORM
        ):
            unseen.extend(pending)
            unseen.append(char)
        else:
            seen = True
        pending = []
    return unseen if seen else list(piece.chars) if unseen else []


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
        if ink_share(counts, piece.rgb, background) < INK:
            piece.kind = "covered"
