"""E7's matching: every exact or normalized match of a query over a document's pages.

A search keeps its matches as found (code-point indexes of the page text, or
of the normalized text) and maps one to UTF-16 units only when a result
returns it as a hit: a search that counts thousands of matches pays for the
twenty it shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.joined import SEPARATOR, JoinedPages
from siftui.core.evidence.normalize import NormalizedText, normalize
from siftui.core.evidence.utf16 import Utf16Text

__all__ = [
    "CONTEXT_UNITS",
    "MATCH_KINDS",
    "DocumentSearcher",
    "Hit",
    "Match",
    "normalized_query",
]

CONTEXT_UNITS = 60
MATCH_KINDS = ("exact", "normalized")

Match = tuple[int, int, int]
"""(page, start, end): a half-open range of one page (see each function for its units)."""


@dataclass(frozen=True, slots=True)
class Hit:
    page: int
    start: int
    end: int
    text: str
    before: str
    after: str


def normalized_query(query: str) -> str:
    """The query as normalized search looks for it; refuses one that becomes empty."""
    folded = normalize(query)
    if not folded:
        raise EvidenceError("the query is empty once normalized")
    return folded


class DocumentSearcher:
    """Searches one open document; keeps what later searches reuse (joined and
    normalized texts), built on first use."""

    __slots__ = ("_joined", "_normalized", "_normalized_joined", "texts")

    def __init__(self, texts: Sequence[Utf16Text]) -> None:
        self.texts = texts
        self._joined: JoinedPages | None = None
        self._normalized: dict[int, NormalizedText] = {}
        self._normalized_joined: JoinedPages | None = None

    def normalized_page(self, page: int) -> NormalizedText:
        found = self._normalized.get(page)
        if found is None:
            found = self._normalized[page] = NormalizedText(self.texts[page - 1].text)
        return found

    def exact(self, pages: range, query: str) -> list[Match]:
        """Leftmost non-overlapping matches, code points of the page text.

        A valid query begins and ends on whole characters, so searching code
        points finds exactly the unit matches that do not split a pair.
        """
        if SEPARATOR in query:
            return _find_each(((page, self.texts[page - 1].text) for page in pages), query)
        if self._joined is None:
            self._joined = JoinedPages([text.text for text in self.texts])
        return self._joined.find_all(query, pages.start, pages.stop - 1)

    @property
    def prepared(self) -> bool:
        """Whether every page's normalized text (and their join) is built."""
        return self._normalized_joined is not None

    def prepare_normalized(self, stop: Callable[[], bool] = lambda: False) -> bool:
        """Builds what normalized searches reuse (every page's normalized text, then
        their join) before the first one asks, page by page; False when ``stop`` said
        to stop (asked between pages). The serving side runs it in the background when
        a document opens; a search gives the same result whether it ran or not, and
        two threads running it at once build equal values."""
        for page in range(1, len(self.texts) + 1):
            if stop():
                return False
            self.normalized_page(page)
        self._every_normalized()
        return True

    def _every_normalized(self) -> JoinedPages:
        joined = self._normalized_joined
        if joined is None:
            every = range(1, len(self.texts) + 1)
            joined = JoinedPages([self.normalized_page(page).text for page in every])
            self._normalized_joined = joined
        return joined

    def normalized(self, pages: range, folded: str) -> list[Match]:
        """Leftmost non-overlapping matches of the normalized query, normalized indexes."""
        if SEPARATOR in folded or (
            self._normalized_joined is None and len(pages) < len(self.texts)
        ):
            return _find_each(((page, self.normalized_page(page).text) for page in pages), folded)
        return self._every_normalized().find_all(folded, pages.start, pages.stop - 1)

    def exact_units(self, match: Match) -> Match:
        page, start, end = match
        text = self.texts[page - 1]
        return page, text.unit_of(start), text.unit_of(end)

    def normalized_units(self, match: Match) -> Match:
        page, start, end = match
        first, last = self.normalized_page(page).original_span(start, end)
        text = self.texts[page - 1]
        return page, text.unit_of(first), text.unit_of(last)

    def hit(self, match: Match) -> Hit:
        """A unit match with its text and up to CONTEXT_UNITS units of context either side."""
        page, start, end = match
        text = self.texts[page - 1]
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


def _find_each(pages: Iterable[tuple[int, str]], query: str) -> list[Match]:
    found: list[Match] = []
    step = len(query)
    for page, text in pages:
        at = text.find(query)
        while at >= 0:
            found.append((page, at, at + step))
            at = text.find(query, at + step)
    return found
