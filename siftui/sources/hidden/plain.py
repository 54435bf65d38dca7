"""Text on a plain rectangle, seen without drawing the page (for siftui.sources.hidden.detect).

Most text with something painted under it lies on a box of one plain colour
(a listing's background, a table's shaded row, a coloured frame). When that
box is an opaque rectangle, nothing has been painted over it since where the
text is (but the text itself, and lines or other text over a little of it),
and the text's colour is far from the box's, the text is seen: the page need
not be drawn to tell. The render (siftui.sources.hidden.looks) would find the box's
colour around the text and tell the same; it decides every other case.
"""

from __future__ import annotations

import math
from typing import Any

from siftui.core.findings import Box
from siftui.sources.hidden.looks import (
    CONTRAST,
    QUANTUM,
    RENDER_ZOOM,
    HiddenCandidate,
    box_area,
    distance,
    intersection,
    share_inside,
)
from siftui.sources.hidden.paint import BAND, RGB, Item, Paints

FAR = CONTRAST + math.sqrt(3) * QUANTUM / 255
"""Text this far (RGB distance) from the plain colour under it is seen: no
pixel of that colour could count as one of the text's colour in the render."""

MARGIN = 1 / RENDER_ZOOM
"""The render's pixels under a span reach this far (pt) beyond its box: the
rectangle must hold the box grown by this much."""

OTHER_INK = 0.25
"""Lines and other text drawn over more than this share of a span's box (the
sum of their shares) may change how it looks: the page is drawn then."""

LINE = 1.5
"""A span whose box is higher than this many times its size spans several lines."""

Rectangle = tuple[Box, RGB, list[Item]]


class PlainCheck:
    """Decides :meth:`seen` for the pieces of one page."""

    def __init__(self, paints: Paints, spans: list[dict[str, Any]], bound: Box) -> None:
        self.paints = paints
        self.spans = spans
        self.bound = bound
        # per plain rectangle: its box, colour and the strokes drawn over it
        # later; None when something else is painted over it later
        self.rectangles: dict[int, Rectangle | None] = {}
        self.far: dict[tuple[int, RGB], bool] = {}
        self.near_strokes: dict[tuple[int, int, int], list[Item]] = {}
        self.inked: dict[int, float] | None = None  # id(span chars) -> share under other text

    def seen(self, piece: HiddenCandidate) -> bool:
        """Whether the piece is certainly seen (see the module's doc)."""
        rgb = piece.rgb
        if (
            piece.covered_by
            or piece.under is None
            or rgb is None
            or piece.text is not None
            or piece.masks
        ):
            return False  # (a span cut at the page's edge: its box is not its lines')
        index = piece.under[0]
        if index not in self.paints.plain:
            return False
        rectangle = self._rectangle(index)
        if rectangle is None:
            return False
        where, colour, strokes = rectangle
        far = self.far.get((index, rgb))
        if far is None:
            far = self.far[(index, rgb)] = distance(rgb, colour) >= FAR
        if not far:
            return False
        # What is not the rectangle's colour or the text's glyphs there: what
        # lies beside the rectangle, lines and other text drawn over the text.
        x0, y0, x1, y1 = box = piece.bbox
        grown = (x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN)
        other = 0.0 if _inside(grown, where) else 1.0 - share_inside(grown, where)
        if strokes:
            lines: list[Box] | None = None
            for later, _, drawn in self._strokes(index, box):
                if _overlaps(drawn, box):
                    if lines is None:
                        lines = _lines(piece.chars, box, piece.size)
                    area = sum(box_area(line) for line in lines)
                    if area <= 0:
                        return False
                    hole = self.paints.holes.get(later)  # a frame's ink is around it only
                    inked = _covered(lines, drawn) - (_covered(lines, hole) if hole else 0.0)
                    other += inked / area
        if other > OTHER_INK:
            return False
        return other + self._inked().get(id(piece.chars), 0.0) <= OTHER_INK

    def _strokes(self, index: int, box: Box) -> list[Item]:
        """The strokes drawn after the rectangle in the bands the box reaches."""
        key = (index, int(box[1] // BAND), int(box[3] // BAND))
        found = self.near_strokes.get(key)
        if found is None:
            found = self.near_strokes[key] = [
                item for item in self.paints.strokes.near(box) if item[0] > index
            ]
        return found

    def _rectangle(self, index: int) -> Rectangle | None:
        """The plain rectangle's box on the page, its colour and the strokes
        drawn over it after it; None when it is not on the page, or a fill,
        an image or a shading is drawn over it after it (then it may not be
        the colour under the text: the render tells)."""
        if index in self.rectangles:
            return self.rectangles[index]
        found: Rectangle | None = None
        where = self.paints.boxes.get(index)
        if where is not None and not any(
            item[0] > index and _overlaps(item[2], where) for item in self.paints.fills.near(where)
        ):
            strokes = [
                item
                for item in self.paints.strokes.near(where)
                if item[0] > index and _overlaps(item[2], where)
            ]
            found = (where, self.paints.plain[index], strokes)
        self.rectangles[index] = found
        return found

    def _inked(self) -> dict[int, float]:
        """For each span, the share of its lines' area other spans' lines
        cover (in whatever order they are drawn), made when first asked."""
        if self.inked is not None:
            return self.inked
        covered: dict[int, float] = {}
        areas: dict[int, float] = {}
        boxes: list[tuple[float, float, float, float, int]] = []
        for span in self.spans:
            chars, bbox, size = span["chars"], span["bbox"], span["size"]
            key = id(chars)
            area = 0.0
            for line in _lines(chars, bbox, size) if bbox[3] - bbox[1] > LINE * size else [bbox]:
                x0, y0, x1, y1 = line
                if x1 > x0 and y1 > y0:
                    area += (x1 - x0) * (y1 - y0)
                    boxes.append((y0, x0, x1, y1, key))
            areas[key] = areas.get(key, 0.0) + area
        # Rows: runs of boxes (by top) that overlap in height; then, in each
        # row from left to right, each box against those starting before its end.
        boxes.sort()
        row: list[tuple[float, float, float, float, int]] = []
        end = -math.inf
        for item in [*boxes, (math.inf, 0.0, 0.0, math.inf, 0)]:
            if item[0] >= end:
                row.sort(key=_left)
                for i, (y0, _, x1, y1, key) in enumerate(row):
                    for j in range(i + 1, len(row)):
                        b0, a0, a1, b1, other = row[j]
                        if a0 >= x1:
                            break
                        top = y0 if y0 > b0 else b0
                        bottom = y1 if y1 < b1 else b1
                        if other != key and bottom > top:
                            shared = ((x1 if x1 < a1 else a1) - a0) * (bottom - top)
                            covered[key] = covered.get(key, 0.0) + shared
                            covered[other] = covered.get(other, 0.0) + shared
                row = []
                end = item[3]
            row.append(item)
            if item[3] > end:
                end = item[3]
        self.inked = {key: covered[key] / areas[key] if areas.get(key) else 1.0 for key in covered}
        return self.inked


def _lines(chars: Any, bbox: Box, size: float) -> list[Box]:
    """A span's box, or for a span over several lines (one font can draw many)
    the box of each of its lines."""
    if bbox[3] - bbox[1] <= LINE * max(size, 0.0) or len(chars) < 2:
        return [bbox]
    lines: list[Box] = []
    half = size / 2
    (a0, b0, a1, b1) = chars[0][3]
    for char in chars:
        x0, y0, x1, y1 = char[3]
        if y0 - b0 > half or b0 - y0 > half:
            lines.append((a0, b0, a1, b1))
            a0, b0, a1, b1 = x0, y0, x1, y1
            continue
        if x0 < a0:
            a0 = x0
        if x1 > a1:
            a1 = x1
        if y1 > b1:
            b1 = y1
    lines.append((a0, b0, a1, b1))
    return lines


def _left(item: tuple[float, float, float, float, int]) -> float:
    return item[1]


def _covered(lines: list[Box], box: Box) -> float:
    """The area of the lines under the box."""
    return sum(box_area(intersection(line, box)) for line in lines if _overlaps(line, box))


def _inside(box: Box, within: Box) -> bool:
    x0, y0, x1, y1 = box
    return within[0] <= x0 and within[1] <= y0 and x1 <= within[2] and y1 <= within[3]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
