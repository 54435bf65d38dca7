"""E7's matching: every exact or normalized match of a query over a document's pages.

Matches are found once per search and kept as plain ``(page, start, end)``
unit ranges; hits (with text, context and a refId) are built only for the ones
a result returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.normalize import NormalizedText, normalize
from siftui.core.evidence.utf16 import Utf16Text

__all__ = [
    "CONTEXT_UNITS",
    "MATCH_KINDS",
    "Hit",
    "Match",
    "NormalizedPages",
    "exact_matches",
    "hit_of",
    "normalized_matches",
    "normalized_query",
]

CONTEXT_UNITS = 60
MATCH_KINDS = ("exact", "normalized")

Match = tuple[int, int, int]
"""(page, start, end): a match as half-open UTF-16 units of its page's text."""


@dataclass(frozen=True, slots=True)
class Hit:
    page: int
    start: int
    end: int
    text: str
    before: str
    after: str


class NormalizedPages:
    """A document's pages normalized on first use and kept (one per open document)."""

    __slots__ = ("_done", "_texts")

    def __init__(self, texts: Sequence[Utf16Text]) -> None:
        self._texts = texts
        self._done: dict[int, NormalizedText] = {}

    def page(self, number: int) -> NormalizedText:
        found = self._done.get(number)
        if found is None:
            found = self._done[number] = NormalizedText(self._texts[number - 1].text)
        return found


def normalized_query(query: str) -> str:
    """The query as normalized search looks for it; refuses one that becomes empty."""
    folded = normalize(query)
    if not folded:
        raise EvidenceError("the query is empty once normalized")
    return folded


def exact_matches(texts: Sequence[Utf16Text], pages: Iterable[int], query: str) -> list[Match]:
    """Leftmost non-overlapping code-unit matches of ``query``, pages in order.

    A valid query begins and ends on whole characters, so searching code points
    finds exactly the unit matches that do not split a pair.
    """
    found: list[Match] = []
    step = len(query)
    for page in pages:
        page_text = texts[page - 1]
        text = page_text.text
        at = text.find(query)
        if at < 0:
            continue
        if page_text.bmp_only:  # code points are units: no conversion
            while at >= 0:
                found.append((page, at, at + step))
                at = text.find(query, at + step)
        else:
            while at >= 0:
                found.append((page, page_text.unit_of(at), page_text.unit_of(at + step)))
                at = text.find(query, at + step)
    return found


def normalized_matches(
    texts: Sequence[Utf16Text], cache: NormalizedPages, pages: Iterable[int], folded: str
) -> list[Match]:
    """Leftmost non-overlapping matches of the normalized query in the normalized pages,
    each mapped back to the original units it comes from."""
    found: list[Match] = []
    step = len(folded)
    for page in pages:
        normalized = cache.page(page)
        at = normalized.text.find(folded)
        page_text = texts[page - 1]
        while at >= 0:
            first, last = normalized.original_span(at, at + step)
            found.append((page, page_text.unit_of(first), page_text.unit_of(last)))
            at = normalized.text.find(folded, at + step)
    return found


def hit_of(texts: Sequence[Utf16Text], match: Match) -> Hit:
    """A match with its text and up to CONTEXT_UNITS units of context either side."""
    page, start, end = match
    text = texts[page - 1]
    before = text.start_at(max(0, start - CONTEXT_UNITS))
    after = text.end_at(min(text.length, end + CONTEXT_UNITS))
    return Hit(
        page,
        start,
        end,
        text.slice(start, end),
        text.slice(before, start),
        text.slice(end, after),
    )
