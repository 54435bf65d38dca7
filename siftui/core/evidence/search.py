"""E7's matching: every exact or normalized match of a query over a document's pages.

A search counts its matches once (``str.count``, which counts the same leftmost
non-overlapping matches as the find loop) and keeps only where to resume: each
continuation finds the next few from there (:meth:`DocumentSearcher.find_from`).
So what a session holds for a search is a few numbers, whether it has 3 matches
or 5,000,000 (it held every match: a crafted page's 5,000,000 took 650 MB). A
match is mapped to UTF-16 units only when a result returns it as a hit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

    def searched(self, match: str, page: int) -> str:
        """The text a search of kind ``match`` looks in on ``page``: the page's own
        text (exact) or its normalized text."""
        if match == "exact":
            return self.texts[page - 1].text
        return self.normalized_page(page).text

    def count(self, match: str, pages: range, query: str) -> int:
        """How many leftmost non-overlapping matches ``query`` has in ``pages``, in
        C-level counts over the joined pages when they are built (or cheap to)."""
        if SEPARATOR not in query:
            joined = self._joined_for(match, pages)
            if joined is not None:
                return joined.count(query, pages.start, pages.stop - 1)
        return sum(self.searched(match, page).count(query) for page in pages)

    def _joined_for(self, match: str, pages: range) -> JoinedPages | None:
        if match == "exact":
            if self._joined is None:
                self._joined = JoinedPages([text.text for text in self.texts])
            return self._joined
        if self._normalized_joined is None and len(pages) < len(self.texts):
            return None  # a few pages: normalize only those
        return self._every_normalized()

    def find_from(
        self, match: str, pages: range, query: str, at: tuple[int, int], limit: int
    ) -> list[Match]:
        """At most ``limit`` matches in ``pages`` from ``at`` (a page and an index in
        its searched text: where the previous one ended), in order."""
        found: list[Match] = []
        step = len(query)
        page, offset = at
        while page < pages.stop and len(found) < limit:
            text = self.searched(match, page)
            where = text.find(query, offset)
            while where >= 0 and len(found) < limit:
                found.append((page, where, where + step))
                where = text.find(query, where + step)
            page, offset = page + 1, 0
        return found

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
