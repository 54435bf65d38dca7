"""The page strip as data: one cell per page (or per bucket of pages).

Pure: it reads a Doc's page sizes and an answer's layout, and says for each
cell which pages it covers, how large they are and what the answer did with
them. Nothing here reads the answer's content.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from math import ceil

from siftui.doc import Doc
from siftui.docindex import index_of
from siftui.layout import Layout

LEVELS = "▁▂▃▄▅▆▇█"


class Kind(Enum):
    WHOLE = "whole"  # the answer holds the page whole
    CUT = "cut"  # the answer holds the start of the page only
    HIT = "hit"  # grep shows a match on the page
    EMPTY = "empty"  # the page has no text (images on it, or not known)
    BLANK = "blank"  # the page has no text and no images: blank by design
    OTHER = "other"  # extracted, not in this answer
    MISSING = "missing"  # in the file, not extracted (max_pages)


# When a bucket holds pages of several kinds, the first kind here names it.
_PRIORITY = (Kind.CUT, Kind.WHOLE, Kind.HIT, Kind.OTHER, Kind.EMPTY, Kind.BLANK, Kind.MISSING)


@dataclass(frozen=True)
class Cell:
    first: int
    last: int
    runes: int
    glyph: str
    kind: Kind
    empty: bool = False  # every page of the cell has no text

    @property
    def pages(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True)
class PageFacts:
    """What the strip needs of a Doc: each page's R1 block length and emptiness, and
    (once known, from the sources layer) which pages without text hold images."""

    block_sizes: tuple[int, ...]
    empty: tuple[bool, ...]
    page_count: int
    images: tuple[bool, ...] | None = None

    @property
    def empty_pages(self) -> list[int]:
        return [page for page, blank in enumerate(self.empty, 1) if blank]

    def with_images(self, images: tuple[bool, ...]) -> PageFacts:
        return replace(self, images=images)

    def no_text_kind(self, page: int) -> Kind:
        """EMPTY (images on it, or not known) or BLANK (no images: blank by design)."""
        if self.images is not None and page <= len(self.images) and not self.images[page - 1]:
            return Kind.BLANK
        return Kind.EMPTY


def page_kinds(facts: PageFacts, layout: Layout) -> list[Kind]:
    """The kind of every page 1..page_count for an answer's layout."""
    kinds = [
        facts.no_text_kind(page) if blank else Kind.OTHER
        for page, blank in enumerate(facts.empty, 1)
    ]
    kinds += [Kind.MISSING] * (facts.page_count - len(kinds))
    for page in layout.whole:
        if page <= len(kinds):
            kinds[page - 1] = Kind.WHOLE
    if 1 <= layout.cut <= len(kinds):
        kinds[layout.cut - 1] = Kind.CUT
    for page in layout.hits:
        if 1 <= page <= len(kinds):
            kinds[page - 1] = Kind.HIT
    return kinds


def cells(facts: PageFacts, kinds: list[Kind], width: int) -> list[Cell]:
    """At most ``width`` cells covering every page, in order."""
    total = facts.page_count
    if total == 0 or width < 1:
        return []
    per_cell = ceil(total / width)
    largest = max(facts.block_sizes, default=0)
    result = []
    for start in range(1, total + 1, per_cell):
        end = min(total, start + per_cell - 1)
        sizes = facts.block_sizes[start - 1 : end]
        runes = sum(sizes)
        biggest = max(sizes, default=0)
        present = {kinds[page - 1] for page in range(start, end + 1)}
        kind = next(k for k in _PRIORITY if k in present)
        # A page without text keeps its mark in the answer too (coloured as shown).
        empty = all(facts.empty[page - 1] for page in range(start, min(end, len(facts.empty)) + 1))
        empty = empty and start <= len(facts.empty)
        glyph = _glyph(biggest, largest, kind, empty, facts.no_text_kind(start))
        result.append(Cell(start, end, runes, glyph, kind, empty))
    return result


def _glyph(size: int, largest: int, kind: Kind, empty: bool, no_text: Kind) -> str:
    if kind is Kind.MISSING:
        return "·"
    if empty or kind in (Kind.EMPTY, Kind.BLANK):
        return "□" if no_text is Kind.BLANK else "×"
    if largest == 0 or size == 0:
        return LEVELS[0]
    return LEVELS[min(len(LEVELS) - 1, (size * len(LEVELS) - 1) // largest)]


def facts_of(doc: Doc) -> PageFacts:
    index = index_of(doc)
    return PageFacts(
        block_sizes=tuple(len(block) for block in index.blocks),
        empty=tuple(not text.strip() for text in doc.pages),
        page_count=doc.page_count,
    )
