"""The page strip as data: one cell per page (or per bucket of pages).

Pure: it reads a Doc's page sizes and an answer's layout, and says for each
cell which pages it covers, how large they are and what the answer did with
them. Nothing here reads the answer's content. For a Word document the units
are the story's paragraph blocks (siftui.core.word.layout), not pages.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from math import ceil
from typing import TYPE_CHECKING

from siftui.core.doc import Doc
from siftui.core.kind_view import StripUnits
from siftui.core.kinds import kind_of
from siftui.core.layout import Layout
from siftui.core.unreadable import UnreadablePage

if TYPE_CHECKING:  # loaded when first used (a Word document's open, a hidden-text scan, a walk)
    from siftui.core.findings import Inspection
    from siftui.core.unreachable import Unreachable
    from siftui.core.word.model import DocxDoc

LEVELS = "▁▂▃▄▅▆▇█"


class PageState(Enum):
    WHOLE = "whole"  # the answer holds the page whole
    CUT = "cut"  # the answer holds the start of the page only
    HIT = "hit"  # grep shows a match on the page
    EMPTY = "empty"  # the page has no text (images on it, or not known)
    BLANK = "blank"  # the page has no text and no images: blank by design
    UNREADABLE = "unreadable"  # the page could not be read (damaged): its text is empty
    OTHER = "other"  # extracted, not in this answer
    MISSING = "missing"  # in the file, not extracted (max_pages)


# When a bucket holds pages of several kinds, the first kind here names it.
_PRIORITY = (
    PageState.CUT,
    PageState.WHOLE,
    PageState.HIT,
    PageState.UNREADABLE,
    PageState.OTHER,
    PageState.EMPTY,
    PageState.BLANK,
    PageState.MISSING,
)
UNREADABLE_GLYPH = "!"
HIDDEN_GLYPH = "◆"
UNREACHABLE_GLYPH = "»"


@dataclass(frozen=True)
class Cell:
    first: int
    last: int
    runes: int
    glyph: str
    kind: PageState
    empty: bool = False  # every page of the cell has no text
    unreadable: tuple[UnreadablePage, ...] = ()  # its pages that could not be read
    hidden: int = 0  # hidden-text findings (alarms) on its pages
    unreachable: int = 0  # runes of its pages no pages= call shows at the answer's OutCap
    heading: int = 0  # Word: the highest heading level (smallest number) of its paragraphs

    @property
    def pages(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def span_label(unit: str, first: int, last: int) -> str:
    """How the strip names units first..last: "p. 3-5" (pages) or "P12-P20" (paragraphs)."""
    if unit == "paragraph":
        return f"P{first}" if first == last else f"P{first}-P{last}"
    return f"p. {first}" if first == last else f"p. {first}-{last}"


def units_label(unit: str, first: int, last: int) -> str:
    """ "page 3", "pages 3-5", "paragraph 12", "paragraphs 12-20"."""
    return f"{unit} {first}" if first == last else f"{unit}s {first}-{last}"


@dataclass(frozen=True)
class PageFacts:
    """What the strip needs of a Doc: each page's R1 block length and emptiness, the
    pages that could not be read, and (once known, from the sources layer) which
    pages without text hold images and the hidden-text findings (None: not known yet)."""

    block_sizes: tuple[int, ...]
    empty: tuple[bool, ...]
    page_count: int
    images: tuple[bool, ...] | None = None
    unreadable: tuple[UnreadablePage, ...] = ()
    hidden: Inspection | None = None
    # "page" for a PDF; "paragraph" for a Word story, whose units are its blocks 1..N.
    unit: str = "page"
    # Word: per unit, the heading level (1-6) of its paragraph, 0 for none.
    headings: tuple[int, ...] = ()
    # Found after the first answer was painted (siftui.tui.background): the pages whose
    # text OCR read, and each page's o200k_base tokens (the tooltips'; () until counted).
    ocr_pages: tuple[int, ...] = ()
    page_tokens: tuple[int, ...] = ()

    def heading_of(self, first: int, last: int) -> int:
        """The highest heading level (smallest number) among units first..last, 0 for none."""
        return min((level for level in self.headings[first - 1 : last] if level), default=0)

    def unreadable_on(self, first: int, last: int) -> tuple[UnreadablePage, ...]:
        return tuple(item for item in self.unreadable if first <= item.page <= last)

    def hidden_on(self, first: int, last: int) -> int:
        """How many hidden-text alarms pages first..last hold."""
        if self.hidden is None:
            return 0
        return sum(1 for found in self.hidden.alarms if first <= found.page <= last)

    @property
    def empty_pages(self) -> list[int]:
        return [page for page, blank in enumerate(self.empty, 1) if blank]

    def with_images(self, images: tuple[bool, ...]) -> PageFacts:
        return replace(self, images=images)

    def no_text_kind(self, page: int) -> PageState:
        """UNREADABLE (damaged), EMPTY (images on it, or not known) or BLANK (no images:
        blank by design)."""
        if any(item.page == page for item in self.unreadable):
            return PageState.UNREADABLE
        if self.images is not None and page <= len(self.images) and not self.images[page - 1]:
            return PageState.BLANK
        return PageState.EMPTY


def page_kinds(facts: PageFacts, layout: Layout) -> list[PageState]:
    """The kind of every page 1..page_count for an answer's layout."""
    kinds = [
        facts.no_text_kind(page) if blank else PageState.OTHER
        for page, blank in enumerate(facts.empty, 1)
    ]
    kinds += [PageState.MISSING] * (facts.page_count - len(kinds))
    for page in layout.whole:
        if page <= len(kinds):
            kinds[page - 1] = PageState.WHOLE
    if 1 <= layout.cut <= len(kinds):
        kinds[layout.cut - 1] = PageState.CUT
    for page in layout.hits:
        if 1 <= page <= len(kinds):
            kinds[page - 1] = PageState.HIT
    return kinds


def cells(
    facts: PageFacts, kinds: list[PageState], width: int, reach: Unreachable | None = None
) -> list[Cell]:
    """At most ``width`` cells covering every page, in order (``reach``: the pages with
    a tail no pages= call shows at the answer's OutCap)."""
    total = facts.page_count
    if total == 0 or width < 1:
        return []
    per_cell = ceil(total / width)
    largest = max(facts.block_sizes, default=0)
    tails = {page.page: page.runes for page in reach.pages} if reach is not None else {}
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
        unreadable = facts.unreadable_on(start, end)
        hidden = facts.hidden_on(start, end)
        tail = sum(tails.get(page, 0) for page in range(start, end + 1))
        # One mark per cell, the gravest first: a damaged page, hidden text, a lost tail.
        if unreadable:
            glyph = UNREADABLE_GLYPH
        elif hidden:
            glyph = HIDDEN_GLYPH
        elif tail:
            glyph = UNREACHABLE_GLYPH
        heading = facts.heading_of(start, end)
        result.append(
            Cell(start, end, runes, glyph, kind, empty, unreadable, hidden, tail, heading)
        )
    return result


def _glyph(size: int, largest: int, kind: PageState, empty: bool, no_text: PageState) -> str:
    if kind is PageState.MISSING:
        return "·"
    if empty or kind in (PageState.EMPTY, PageState.BLANK, PageState.UNREADABLE):
        return "□" if no_text is PageState.BLANK else "×"
    if largest == 0 or size == 0:
        return LEVELS[0]
    return LEVELS[min(len(LEVELS) - 1, (size * len(LEVELS) - 1) // largest)]


def units_facts(units: StripUnits, unreadable: tuple[UnreadablePage, ...] = ()) -> PageFacts:
    """The strip's facts of the units a kind's view draws (siftui.core.kind_view)."""
    return PageFacts(
        block_sizes=units.block_sizes,
        empty=units.empty,
        page_count=units.count,
        unreadable=unreadable,
        unit=units.unit,
        headings=units.headings,
    )


def facts_of(doc: Doc, unreadable: tuple[UnreadablePage, ...] = ()) -> PageFacts:
    """A Doc's pages."""
    return units_facts(kind_of(doc).view.strip(doc, "body"), unreadable)


def docx_facts_of(doc: DocxDoc, scope: str = "body") -> PageFacts:
    """The strip's facts of a Word story: its blocks 1..N (block n = the tables after
    P<n-1>, then paragraph n's line), each one's text length, whether it has no line,
    and the heading level of paragraph n. A story without paragraphs has no unit."""
    return units_facts(kind_of(doc).view.strip(doc, scope))
