# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""How an extraction helper (siftui.sources.parallel) finds its pages: by walking the
page tree, each page checked against the object number this process's map of the
tree gives it (:func:`page_xrefs`)."""

from __future__ import annotations

from typing import Any

from siftui.sources.pdf_open import page_text, quiet_pymupdf, read_page


class PageWalk:
    """A helper's pages, found by walking the page tree down to each one.

    MuPDF maps the whole page tree at the first page asked for, parsing every page's
    object (pgfmanual: ~0.17 s, an eighth of a helper's work), which this process has
    done already for the outline; a helper asks MuPDF for its pages by walking instead.
    Walking gives some of it back (the page a link points to is then found by a walk
    too): on pgfmanual a helper still does ~6% less.

    A walk can find another page than the map where the tree is damaged (a wrong
    /Count), so each page's object number is checked against the one this process's
    map gave (``xref``); at the first page without one or with another one, the helper
    maps the tree as this process does, and reads every page from then on that way."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.walking = _page_map(document, False)

    def read(self, number: int, xref: int | None) -> tuple[str, str | None]:
        if self.walking:
            page = _walked_page(self.document, number, xref)
            if page is not None:
                return page_text(page)
            self.walking = not _page_map(self.document, True)
        return read_page(self.document, number)


def _walked_page(document: Any, number: int, xref: int | None) -> Any:
    """Page ``number`` (0-based) found by a walk when its object is number ``xref``,
    else None (no ``xref``, another object, or the walk finds no page)."""
    if xref is None:
        return None
    try:
        page = document[number]
        mupdf = quiet_pymupdf().mupdf
        found = mupdf.pdf_to_num(mupdf.pdf_page_from_fz_page(page.this).obj())
    except Exception:  # the map, which this process read the page with, decides
        return None
    return page if found == xref else None


def _page_map(document: Any, on: bool) -> bool:
    """Turn MuPDF's map of a PDF's page tree on or off; whether it could (a PDF, and a
    MuPDF that knows the switch)."""
    mupdf = quiet_pymupdf().mupdf
    switch = getattr(mupdf, "pdf_set_page_tree_cache", None)
    if switch is None or not document.is_pdf:
        return False
    switch(mupdf.pdf_document_from_fz_document(document.this), 1 if on else 0)
    return True


def _page_xref(document: Any, number: int) -> int | None:
    """The object number of page ``number`` (0-based) in this process, or None."""
    try:
        return int(document.page_xref(number))
    except Exception:  # a damaged page tree: the page is read (and refused) as always
        return None


def page_xrefs(document: Any, start: int, end: int) -> tuple[tuple[int, ...] | None]:
    """What a chunk's message carries after (start, end) for an extraction helper: the
    object numbers of pages start..end-1 in this process's map of the page tree (None
    for a document that is not a PDF or a page MuPDF cannot find)."""
    if not document.is_pdf:
        return (None,)
    xrefs: list[int] = []
    for number in range(start, end):
        xref = _page_xref(document, number)
        if xref is None:
            return (None,)
        xrefs.append(xref)
    return (tuple(xrefs),)
