"""When two annotations are the same one, and when they overlap (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from siftui.core.edit.operations import Quad, Rect

__all__ = ["TOLERANCE", "boxes_of", "overlap", "same_numbers"]

TOLERANCE = 0.01
"""Points two coordinates may differ by and still be the same (rects are listed with
two decimals)."""

OVERLAP_SHARE = 0.25
"""Two boxes overlap when their common area is at least this share of the smaller
one's: the boxes of two neighbouring lines, or of two words side by side, touch
(a glyph's box holds its ascent and descent) without marking the same text."""


def same_numbers(first: Sequence[float], second: Sequence[float]) -> bool:
    return len(first) == len(second) and all(
        abs(a - b) <= TOLERANCE for a, b in zip(first, second, strict=True)
    )


def boxes_of(quads: Sequence[Quad], rect: Rect) -> list[Rect]:
    """Each quad's bounding box, or the rect when there are no quads."""
    if not quads:
        return [_normalized(rect)]
    boxes = []
    for quad in quads:
        xs, ys = quad[0::2], quad[1::2]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def overlap(first: Sequence[Rect], second: Sequence[Rect]) -> bool:
    for a in first:
        for b in second:
            width = min(a[2], b[2]) - max(a[0], b[0])
            height = min(a[3], b[3]) - max(a[1], b[1])
            if width <= 0 or height <= 0:
                continue
            smaller = min(_area(a), _area(b))
            if smaller <= 0 or width * height >= OVERLAP_SHARE * smaller:
                return True
    return False


def _area(box: Rect) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _normalized(rect: Rect) -> Rect:
    left, bottom, right, top = rect
    return (min(left, right), min(bottom, top), max(left, right), max(bottom, top))
