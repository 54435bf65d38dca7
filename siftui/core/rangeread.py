"""Which pages a page range's answer reads, so a first range extracts only those.

Pure: no I/O. R3's answer holds whole pages from ``a`` while they fit OutCap,
at most 100 of them, so it depends on pages ``a..k`` alone, ``k`` the first
page that does not fit (or the range's last page): the pages before ``a`` and
after ``k`` change neither what fits nor any note. A caller that has not
extracted the document yet (siftui.sources.lazy) asks :func:`range_span` for
the range, extracts its pages in order while :class:`RangeFill` says the
answer may take more, and renders :func:`partial_doc` with the same options:
``render`` itself then decides every byte of the answer and every error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from siftui.core.answer import check_out_cap
from siftui.core.budget import Unit, check_unit
from siftui.core.doc import Doc, OutlineItem
from siftui.core.docindex import SEPARATOR, page_block
from siftui.core.render import MAX_PAGES_PER_ANSWER, Options, parse_pages

__all__ = ["RangeFill", "partial_doc", "range_span"]


def range_span(options: Options, extracted: int) -> tuple[int, int] | None:
    """(a, k): the first page of ``options``' range and the last one its answer may
    hold (b clamped to E, at most 100 pages), for a page range without grep; None
    for any other request (a map, a grep, which read every page of their range).

    Raises what :func:`siftui.core.render.render` raises for the options on a
    document of ``extracted`` pages: a bad OutCap or unit, then
    :class:`~siftui.core.render.BadPages` (out of range is known from E alone).
    """
    check_out_cap(options.out_cap)
    check_unit(options.unit)
    if options.grep:
        return None
    span = parse_pages(options.pages, extracted)
    if span is None:
        return None
    first, last = span
    return first, min(last, first + MAX_PAGES_PER_ANSWER - 1)


@dataclass
class RangeFill:
    """The answer of a range from page ``first``, as its pages are extracted in order.

    :meth:`add` takes the next page's text and says whether the answer may still
    take the page after it: False once not even that page's block with no text
    (its marker) fits beside the pages added so far, joined as R3 joins them,
    within ``out_cap`` (in ``unit``).
    """

    first: int
    out_cap: int
    unit: Unit
    size: int = 0
    added: int = 0

    def add(self, text: str) -> bool:
        page = self.first + self.added
        size, gap = self.unit.size, self.unit.size(SEPARATOR)
        self.size += (gap if self.added else 0) + size(page_block(page, text))
        self.added += 1
        return self.size + gap + size(page_block(page + 1, "")) <= self.out_cap


def partial_doc(
    title: str,
    page_count: int,
    extracted: int,
    texts: Mapping[int, str],
    outline: tuple[OutlineItem, ...] = (),
) -> Doc:
    """A Doc of ``extracted`` pages whose pages in ``texts`` (1-based) are the real ones
    and the others empty: for rendering the one range :class:`RangeFill` read it for,
    never for a map, a grep or a cache."""
    pages = tuple(texts.get(page, "") for page in range(1, extracted + 1))
    return Doc(title=title, page_count=page_count, pages=pages, outline=outline)
