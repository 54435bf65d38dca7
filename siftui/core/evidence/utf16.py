"""Offsets in UTF-16 code units over Python strings (which count code points).

EVIDENCE.md counts every offset and length in UTF-16 units, as JavaScript does.
Most page texts hold no character outside the BMP, where units and code points
coincide, so ``Utf16Text`` only builds its conversion tables for the others.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from siftui.core.budget import CHARS, Unit
from siftui.core.evidence.wire import EscapeIndex
from siftui.core.text import LONE_SURROGATE

__all__ = ["Utf16Text", "has_lone_surrogate", "unit_length"]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def unit_length(text: str) -> int:
    """The number of UTF-16 code units of ``text``."""
    if text.isascii():
        return len(text)
    return len(text) + len(_ASTRAL.findall(text))


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a surrogate code point.

    A decoded JSON string joins every valid pair into one code point, so any
    surrogate left in a Python str is a lone half: not valid text.
    """
    return LONE_SURROGATE.search(text) is not None


class Utf16Text:
    """A text with conversions between code-point indexes and UTF-16 unit offsets."""

    __slots__ = ("_astral_indexes", "_astral_units", "_escapes", "length", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # Code-point indexes of the characters outside the BMP, and the unit
        # offsets where each begins: both sorted, so conversions are bisections.
        self._astral_indexes: list[int] = []
        self._astral_units: list[int] = []
        if not text.isascii():
            self._astral_indexes = [m.start() for m in _ASTRAL.finditer(text)]
            self._astral_units = [index + k for k, index in enumerate(self._astral_indexes)]
        self.length = len(text) + len(self._astral_indexes)
        self._escapes: EscapeIndex | None = None  # built when a result first holds a slice

    def json_length(self, start: int, end: int, unit: Unit = CHARS) -> int:
        """The size in ``unit`` of what ``dumps`` writes for units ``[start, end)``, quotes
        excluded. An escape replaces an ASCII character with ASCII ones, so it adds
        as many bytes as code points."""
        if self._escapes is None:
            self._escapes = EscapeIndex(self.text)
        first, last = self.index_of(start), self.index_of(end)
        added = self._escapes.added(first, last)
        if unit is CHARS:
            return last - first + added
        return unit.size(self.text[first:last]) + added

    @property
    def bmp_only(self) -> bool:
        return not self._astral_indexes

    def unit_of(self, index: int) -> int:
        """The unit offset where code point ``index`` begins (``len`` maps to the end)."""
        if not self._astral_indexes:
            return index
        return index + bisect_left(self._astral_indexes, index)

    def index_of(self, unit: int) -> int:
        """The code-point index at unit offset ``unit`` (inside a pair: the pair's)."""
        if not self._astral_units:
            return unit
        # Each pair wholly or half before ``unit`` counts two units for one index.
        return unit - bisect_left(self._astral_units, unit)

    def splits_pair(self, unit: int) -> bool:
        """Whether ``unit`` falls between the two halves of a surrogate pair."""
        if not self._astral_units:
            return False
        before = bisect_left(self._astral_units, unit)
        return bool(before) and self._astral_units[before - 1] == unit - 1

    def slice(self, start: int, end: int) -> str:
        """Units ``[start, end)``; both must be on character boundaries."""
        if not self._astral_units:
            return self.text[start:end]
        return self.text[self.index_of(start) : self.index_of(end)]

    def start_at(self, unit: int) -> int:
        """A start offset under the surrogate rule: inside a pair, one unit later."""
        return unit + 1 if self.splits_pair(unit) else unit

    def end_at(self, unit: int, *, start: int | None = None) -> int:
        """An end offset under the surrogate rule: inside a pair, one unit earlier.

        With ``start`` (a piece that must hold a character), an end that would
        empty the piece moves one unit later instead, so reading moves on.
        """
        if not self.splits_pair(unit):
            return unit
        if start is not None and unit - 1 <= start:
            return unit + 1
        return unit - 1
