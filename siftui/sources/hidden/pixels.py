"""A rendered pixmap's samples, read without a PyMuPDF call per pixel (for
siftui.sources.hidden.looks): the colour around a box, and the share of a box
in one colour."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from siftui.core.findings import Box

QUANTUM = 16
"""Rendered colours are counted in steps of 16/255, so that a gradient behind
the text has a most frequent colour as a flat background does."""


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)))


class View:
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


def ink_share(counts: dict[bytes, int], text: tuple[float, float, float], background: Any) -> float:
    """The share of pixels closer to the text's colour than to the background's."""
    total = sum(counts.values())
    ink = 0
    for color, count in counts.items():
        rgb = (color[0] / 255, color[1] / 255, color[2] / 255)
        if distance(rgb, text) < distance(rgb, background):
            ink += count
    return ink / total if total else 0.0
