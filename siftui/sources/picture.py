# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""An image the tools returned (a page image's PNG) as RGB pixels for the terminal.

MuPDF decodes it; a large one is halved until it is at most ``LARGEST`` pixels each
way, since a terminal shows a few hundred cells at most and the half blocks
(siftui.core.halfblocks) average the rest in Python.
"""

from __future__ import annotations

from siftui.core.halfblocks import Pixels
from siftui.sources.pdf_open import quiet_pymupdf

LARGEST = 640
"""Pixels each way a decoded image is halved down to (MuPDF's shrink, in C)."""


def png_pixels(png: bytes, largest: int = LARGEST) -> Pixels | None:
    """The picture in ``png`` (any format MuPDF reads), or None when it cannot be read."""
    pymupdf = quiet_pymupdf()
    try:
        pixmap = pymupdf.Pixmap(png)
        if pixmap.alpha:
            pixmap = pymupdf.Pixmap(pixmap, 0)
        if pixmap.colorspace is None or pixmap.colorspace.n != 3:
            pixmap = pymupdf.Pixmap(pymupdf.csRGB, pixmap)
        while max(pixmap.width, pixmap.height) > largest:
            pixmap.shrink(1)
        return Pixels(pixmap.width, pixmap.height, bytes(pixmap.samples))
    except Exception:  # MuPDF raises bare RuntimeErrors and ValueErrors for bad images
        return None
