"""Which pages hold images: the sources layer's one fact the page strip needs beyond text.

A page without text is either blank by design (nothing on it) or image-only
(a scan, a figure): the strip tells them apart by whether the page has images.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from siftui.sources.pdf_open import open_document


def pages_with_images(
    path: str | os.PathLike[str], pages: Iterable[int], password: str | None = None
) -> dict[int, bool]:
    """For each 1-based page number in ``pages``: does the page show an image?

    Raises what :func:`siftui.sources.pdf_open.open_document` raises for a file it cannot open.
    """
    document = open_document(path, password)
    try:
        found: dict[int, bool] = {}
        for page in pages:
            if 1 <= page <= document.page_count:
                try:
                    found[page] = bool(document[page - 1].get_images(full=False))
                except Exception:  # a damaged page: its images are not known, say none
                    found[page] = False
        return found
    finally:
        document.close()
