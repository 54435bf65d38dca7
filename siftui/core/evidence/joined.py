"""A document's page texts joined into one string, so one C-level ``find`` loop
searches them all instead of a Python loop over every page."""

from __future__ import annotations

from bisect import bisect_right
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

    def find_all(self, query: str, first: int, last: int) -> list[tuple[int, int, int]]:
        """Leftmost non-overlapping ``(page, start, end)`` in pages ``first..last``,
        as code-point indexes of each page; ``query`` must not hold SEPARATOR."""
        if first > last:
            return []
        text, starts = self.text, self._starts
        low = starts[first - 1]
        high = starts[last] - 1 if last < len(starts) else len(text)
        step = len(query)
        found: list[tuple[int, int, int]] = []
        at = text.find(query, low, high)
        while at >= 0:
            page = bisect_right(starts, at)
            local = at - starts[page - 1]
            found.append((page, local, local + step))
            at = text.find(query, at + step, high)
        return found
