"""A document's page texts joined into one string, so one C-level ``count`` counts a
query's matches in them all instead of a Python loop over every page."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["SEPARATOR", "JoinedPages"]

SEPARATOR = "\x00"
"""Between pages: a query without it cannot match across two pages."""


class JoinedPages:
    __slots__ = ("_starts", "text")

    def __init__(self, pages: Sequence[str]) -> None:
        self.text = SEPARATOR.join(pages)
        starts = [0]
        for page in pages[:-1]:
            starts.append(starts[-1] + len(page) + 1)
        self._starts = starts

    def count(self, query: str, first: int, last: int) -> int:
        """How many leftmost non-overlapping matches ``query`` (without SEPARATOR) has
        in pages ``first..last``, counted in C without listing them."""
        if first > last:
            return 0
        starts = self._starts
        high = starts[last] - 1 if last < len(starts) else len(self.text)
        return self.text.count(query, starts[first - 1], high)
