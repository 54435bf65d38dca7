"""A first page range read without extracting the whole document.

A ``pages=`` call (no grep) on a document not yet extracted opens it, takes
its page count, and extracts pages a, a+1, ... only while the answer may take
more (siftui.core.rangeread), with the page reader the whole extraction uses
(siftui.sources.pdf_open.read_page), so each page's text is the same. What the
whole extraction would refuse is refused the same way: the errors of opening
it, a document none of whose pages can be read (pages past the range are read
until one can be), an outline that cannot be read. Rendering the partial Doc
with the same options gives the whole extraction's answer, byte for byte,
R3's errors included.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from siftui.core.budget import check_unit
from siftui.core.messages import quoted
from siftui.core.rangeread import RangeFill, partial_doc, range_span
from siftui.core.render import BadPages, Options
from siftui.core.unreadable import Extraction, UnreadablePage
from siftui.sources.deadline import Deadline
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import (
    NotReadable,
    check_max_pages,
    nothing_readable,
    open_document,
    outline_of,
    read_page,
)
from siftui.sources.pdf_outline import title_of

__all__ = ["ColdRange", "is_range", "read_range"]


@dataclass(frozen=True)
class ColdRange:
    """The pages a range's answer needs: ``found.doc`` is a partial Doc (the pages in
    ``read`` are the document's, the others empty) for rendering these options only;
    ``found.unreadable`` lists the damaged pages among those read."""

    found: Extraction
    read: frozenset[int]


def is_range(options: Options) -> bool:
    """True for a page range without grep: the one request a partial read can answer."""
    return bool(options.pages.strip()) and not options.grep


def read_range(
    path: str | os.PathLike[str],
    options: Options,
    load: LoadOptions = DEFAULT_LOAD,
    *,
    data: bytes | None = None,
) -> ColdRange:
    """The pages of ``path`` (or ``data``, see open_document) that the answer to
    ``options`` (:func:`is_range`) reads, or the error the whole extraction raises;
    ``load``'s password, max_pages and timeout are the whole extraction's."""
    max_pages = load.max_pages
    check_max_pages(max_pages)
    deadline = Deadline.start(path, load.timeout)
    document = open_document(path, load.password, data=data)
    try:
        page_count = document.page_count
        extracted = page_count if max_pages is None else min(page_count, max_pages)
        texts: dict[int, str] = {}
        failed: dict[int, str] = {}

        def read(page: int) -> str:
            deadline.check()
            text, reason = read_page(document, page - 1)
            texts[page] = text
            if reason is not None:
                failed[page] = reason
            return text

        try:
            span = range_span(options, extracted)
        except BadPages:  # render() raises it from the page count alone
            span = None
        if span is not None:
            fill = RangeFill(span[0], options.out_cap, check_unit(options.unit))
            for page in range(span[0], span[1] + 1):
                if not fill.add(read(page)):
                    break
        if len(failed) == len(texts):  # no readable page yet: is there one at all?
            for page in range(1, extracted + 1):
                if page not in texts:
                    read(page)
                    if page not in failed:
                        break
            if failed and len(failed) == extracted:
                raise NotReadable(f"{quoted(path)}: {nothing_readable(failed, page_count)}")
        title = title_of(document)
        outline = tuple(outline_of(document, path))
    finally:
        document.close()
    doc = partial_doc(title, page_count, extracted, texts, outline)
    unreadable = tuple(UnreadablePage(page, failed[page]) for page in sorted(failed))
    return ColdRange(Extraction(doc, unreadable), frozenset(texts))
