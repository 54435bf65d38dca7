"""A picture as terminal cells of half blocks: each cell is two pixels, one above the other.

A cell drawn as ``▀`` with its foreground the upper pixel's colour and its
background the lower one's shows two square-ish pixels, since a terminal cell is
about twice as tall as it is wide. :func:`half_blocks` shrinks a picture (RGB
bytes, row after row) to fit a number of columns and rows, keeping its shape,
each cell pixel the average of the picture's pixels it covers, so thin lines
of text still show as grey rather than vanishing between samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Pixels:
    """A picture: ``width`` x ``height`` pixels, 3 bytes (R, G, B) each, row after row."""

    width: int
    height: int
    rgb: bytes

    def __post_init__(self) -> None:
        if self.width < 0 or self.height < 0 or len(self.rgb) != self.width * self.height * 3:
            raise ValueError(f"{len(self.rgb)} bytes are not {self.width}x{self.height} RGB pixels")


MARK: RGB = (255, 214, 0)
"""The colour text a jump marks is tinted with (a highlighter's yellow)."""


def tinted(
    pixels: Pixels, boxes: Sequence[tuple[int, int, int, int]], share: float = 0.45
) -> Pixels:
    """``pixels`` with each box ``(x0, y0, x1, y1)`` (pixels, end exclusive, clipped to the
    picture) blended ``share`` of the way towards :data:`MARK`: the text under it stays
    legible, as under a highlighter."""
    if not boxes:
        return pixels
    rgb = bytearray(pixels.rgb)
    keep = 1.0 - share
    tint = [share * channel for channel in MARK]
    for x0, y0, x1, y1 in boxes:
        left, right = max(x0, 0), min(x1, pixels.width)
        for y in range(max(y0, 0), min(y1, pixels.height)):
            start = (y * pixels.width + left) * 3
            end = (y * pixels.width + right) * 3
            for at in range(start, end, 3):
                for channel in range(3):
                    rgb[at + channel] = int(rgb[at + channel] * keep + tint[channel])
    return Pixels(pixels.width, pixels.height, bytes(rgb))


def fitted(width: int, height: int, columns: int, rows: int) -> tuple[int, int]:
    """The columns and pixel rows (two per cell row) a ``width`` x ``height`` picture takes
    within ``columns`` x ``rows`` cells, its shape kept; never larger than the picture."""
    if width <= 0 or height <= 0 or columns <= 0 or rows <= 0:
        return 0, 0
    scale = min(columns / width, 2 * rows / height, 1.0)
    return max(1, round(width * scale)), max(1, round(height * scale))


def _edges(size: int, parts: int) -> list[int]:
    """Where each of ``parts`` equal spans of ``size`` begins, and the end; every span
    holds at least one pixel (``parts`` is at most ``size``)."""
    return [round(part * size / parts) for part in range(parts + 1)]


def shrunk(pixels: Pixels, width: int, height: int) -> list[list[RGB]]:
    """``pixels`` as ``height`` rows of ``width`` colours, each the average of its area."""
    xs, ys = _edges(pixels.width, width), _edges(pixels.height, height)
    stride = pixels.width * 3
    data = pixels.rgb
    rows: list[list[RGB]] = []
    for top, bottom in pairwise(ys):
        sums = [[0, 0, 0] for _ in range(width)]
        for y in range(top, bottom):
            line = data[y * stride : (y + 1) * stride]
            for column, (left, right) in enumerate(pairwise(xs)):
                total = sums[column]
                # A strided slice sums one channel of the span in C, not pixel by pixel.
                total[0] += sum(line[left * 3 : right * 3 : 3])
                total[1] += sum(line[left * 3 + 1 : right * 3 : 3])
                total[2] += sum(line[left * 3 + 2 : right * 3 : 3])
        rows.append(
            [
                (
                    round(r / ((right - left) * (bottom - top))),
                    round(g / ((right - left) * (bottom - top))),
                    round(b / ((right - left) * (bottom - top))),
                )
                for (r, g, b), left, right in zip(sums, xs, xs[1:], strict=False)
            ]
        )
    return rows


def half_blocks(pixels: Pixels, columns: int, rows: int) -> list[list[tuple[RGB, RGB | None]]]:
    """The cells that draw ``pixels`` within ``columns`` x ``rows``: per cell row, per
    column, the upper and lower colour (the lower None under an odd last pixel row)."""
    width, height = fitted(pixels.width, pixels.height, columns, rows)
    if not width:
        return []
    picture = shrunk(pixels, width, height)
    cells: list[list[tuple[RGB, RGB | None]]] = []
    for y in range(0, height, 2):
        upper = picture[y]
        lower: list[RGB | None] = list(picture[y + 1]) if y + 1 < height else [None] * width
        cells.append(list(zip(upper, lower, strict=True)))
    return cells
