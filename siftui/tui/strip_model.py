"""The page strip as data: one cell per page (or per bucket of pages).

Pure: it reads a Doc's page sizes and an answer, and says for each cell which
pages it covers, how large they are and what the answer did with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from math import ceil

from siftui.doc import Doc
from siftui.docindex import index_of
from siftui.render import Rendered

LEVELS = "▁▂▃▄▅▆▇█"
_HIT = re.compile(r"^p\. ([0-9]+): ", re.MULTILINE)


class Kind(Enum):
    WHOLE = "whole"  # the answer holds the page whole
    CUT = "cut"  # the answer holds the start of the page only
    HIT = "hit"  # grep shows a match on the page
    EMPTY = "empty"  # the page has no text (image-only or scanned)
    OTHER = "other"  # extracted, not in this answer
    MISSING = "missing"  # in the file, not extracted (max_pages)


# When a bucket holds pages of several kinds, the first kind here names it.
_PRIORITY = (Kind.CUT, Kind.WHOLE, Kind.HIT, Kind.OTHER, Kind.EMPTY, Kind.MISSING)


@dataclass(frozen=True)
class Cell:
    first: int
    last: int
    runes: int
    glyph: str
    kind: Kind

    @property
    def pages(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True)
class PageFacts:
    """What the strip needs of a Doc: each page's R1 block length and emptiness."""

    block_sizes: tuple[int, ...]
    empty: tuple[bool, ...]
    page_count: int

    @property
    def empty_pages(self) -> list[int]:
        return [page for page, blank in enumerate(self.empty, 1) if blank]


def page_kinds(facts: PageFacts, answer: Rendered, blocks_end: dict[int, bool]) -> list[Kind]:
    """The kind of every page 1..page_count for ``answer``.

    ``blocks_end`` says, for the answer's last page, whether the content ends
    with that page's whole block (False means it was cut).
    """
    kinds = [Kind.EMPTY if blank else Kind.OTHER for blank in facts.empty]
    kinds += [Kind.MISSING] * (facts.page_count - len(kinds))
    if answer.first >= 1:
        for page in range(answer.first, answer.last + 1):
            kinds[page - 1] = Kind.WHOLE
        if not blocks_end.get(answer.last, True):
            kinds[answer.last - 1] = Kind.CUT
    else:
        for found in _HIT.finditer(answer.content):
            page = int(found.group(1))
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
        result.append(Cell(start, end, runes, _glyph(biggest, largest, kind), kind))
    return result


def _glyph(size: int, largest: int, kind: Kind) -> str:
    if kind is Kind.MISSING:
        return "·"
    if kind is Kind.EMPTY:
        return "×"
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


def kinds_for(doc: Doc, facts: PageFacts, answer: Rendered) -> list[Kind]:
    """Every page's kind for ``answer`` (a cut last page is told by the content's end)."""
    ends_whole: dict[int, bool] = {}
    if answer.first >= 1:
        block = index_of(doc).blocks[answer.last - 1]
        ends_whole[answer.last] = answer.content.endswith(block)
    return page_kinds(facts, answer, ends_whole)


def cap_page(doc: Doc, answer: Rendered, start: int, out_cap: int) -> int | None:
    """The first page from ``start`` that would no longer fit in ``out_cap``, if any."""
    index = index_of(doc)
    if not 1 <= start <= index.extracted:
        return None
    fitting = index.last_fitting(start, index.extracted, out_cap)
    return fitting + 1 if fitting < index.extracted else None
