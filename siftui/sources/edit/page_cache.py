"""What a working copy read of its pages, kept: each page's glyphs (read from the file),
the file's annotations and the draft's, per page.

The cache takes no lock of its own: the working copy calls it only while it holds its
lock (``documents.MUPDF``). That lock is what keeps a page and the document it was read
from one: the copy changes its documents under it too (a write, an undo, a save), and
forgets the pages a change touched before letting go, so no reader sees a page of the
draft as it was before a change. A second lock here could not give that, and taken
inside MuPDF's it would only add a lock order to keep. The one read outside the lock,
:meth:`has_glyphs`, is a hint (a page warmed twice is read once: ``glyphs`` looks again).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from siftui.core.edit.annotations import Annotation
from siftui.core.edit.placement import PageGlyphs
from siftui.sources.edit.glyphs import page_glyphs
from siftui.sources.edit.scan import page_annotations


class PageCache:
    """One working copy's pages as read: glyphs, and the file's and the draft's
    annotations. Call it under the copy's lock only (see the module's docstring)."""

    def __init__(self) -> None:
        self._glyphs: dict[int, PageGlyphs] = {}
        self._file: dict[int, list[Annotation]] = {}
        self._draft: dict[int, list[Annotation]] = {}

    def annotations(self, document: Any, pages: Iterable[int], *, draft: bool) -> list[Annotation]:
        """The annotations of ``pages`` in order, of the draft's ``document`` (``draft``)
        or the file's, each page read the first time it is asked for."""
        cache = self._draft if draft else self._file
        found: list[Annotation] = []
        for number in pages:
            if number not in cache:
                cache[number] = page_annotations(document, number)
            found.extend(cache[number])
        return found

    def glyphs(self, file: Any, page: int) -> PageGlyphs:
        """Page ``page``'s glyphs, read from the file's document ``file`` once."""
        found = self._glyphs.get(page)
        if found is None:
            found = self._glyphs[page] = page_glyphs(file[page - 1])
        return found

    def has_glyphs(self, page: int) -> bool:
        return page in self._glyphs

    def glyph_pages(self) -> list[int]:
        """The pages whose glyphs were read, in order."""
        return sorted(self._glyphs)

    def forget_draft(self, pages: Iterable[int] | None = None) -> None:
        """The draft changed on ``pages`` (None: on any page): read them again."""
        if pages is None:
            self._draft.clear()
            return
        for page in pages:
            self._draft.pop(page, None)

    def new_file(self) -> None:
        """The copy starts from new bytes (a save): every page's annotations are read
        again; the glyphs are kept, as the page text is the same (annotations are not
        text)."""
        self._file = {}
        self._draft = {}
