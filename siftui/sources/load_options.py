"""How a document is loaded, as one value: :class:`LoadOptions`.

What is asked of a loaded document (pages, grep, OutCap) is
:class:`siftui.core.render.Options`; how it is read (its password, how many pages,
OCR and its language, the disk cache, the time it may take, the processes it may
use) is this, handed down whole from the surface that was given it to the code
that reads the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE

__all__ = ["DEFAULT_LOAD", "PARALLEL_MIN_PAGES", "LoadOptions"]

PARALLEL_MIN_PAGES = 256
"""Documents with at least this many pages to extract use helper processes too.

A helper costs one interpreter start plus ``import pymupdf`` before its first
page (~0.3 s on a quiet core, 0.7-2.7 s measured here under a load average of
5-8), while this process goes on extracting; it can only pay off once the
serial extraction takes well over that. At ~2 ms a page (pgfmanual) that is
a few hundred pages; on a loaded 2-core machine, 64-256 pages in two
processes measured 1.3-1.6x slower than one (bench/extract_parallel.py
--sweep), so small and mid-sized files stay in one process."""


@dataclass(frozen=True)
class LoadOptions:
    """How one document is read.

    ``password``: a PDF's (never cached with one). ``max_pages``: pages 1..E only
    (None: every page). ``ocr``: an empty page gets the text Tesseract reads in its
    image, in ``ocr_language`` (Tesseract's codes, ``deu+eng``). ``use_cache``: the
    disk cache of extracted Docs is read and written. ``timeout``: seconds the whole
    reading may take (None: no limit). ``workers``: processes reading at once, this
    one included (None: the usable cores, at most 4), from ``parallel_min_pages``
    pages on. A Word document uses none of them."""

    password: str | None = None
    max_pages: int | None = None
    ocr: bool = False
    ocr_language: str = DEFAULT_OCR_LANGUAGE
    use_cache: bool = True
    timeout: float | None = None
    workers: int | None = None
    parallel_min_pages: int = PARALLEL_MIN_PAGES

    @property
    def cached(self) -> bool:
        """Whether the disk cache may hold what this reads: asked to, and no password
        (the decrypted text would sit in a file long after the password was typed)."""
        return self.use_cache and self.password is None


DEFAULT_LOAD = LoadOptions()
"""Every page, no password, no OCR, through the disk cache, no time limit."""
