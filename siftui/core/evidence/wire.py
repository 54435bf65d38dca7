"""Results on the wire: EVIDENCE.md's compact JSON, and the OutCap rule.

Every result's serialized text is at most OutCap in the budget's unit: code
points, or the UTF-8 bytes of the text when the server counts in bytes
(``--unit bytes``). A result with a list or a continuation gives fewer items
(or less text) to fit; the others fit whole or fail. Builders are called with a
size and return a finished result, so fitting never commits anything:
identities are issued afterwards.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from siftui.core.budget import CHARS, Unit
from siftui.core.evidence.errors import EvidenceError

__all__ = ["Budget", "EscapeIndex", "dumps", "fit_largest", "fit_whole", "too_small"]

T = TypeVar("T")

# What ``json.dumps(..., ensure_ascii=False)`` writes as more than one character:
# the seven with a short escape (two characters) and the other controls (``\u00XX``).
_ESCAPED = re.compile('[\x00-\x1f"\\\\]')
_SHORT_ESCAPES = frozenset('"\\\b\f\n\r\t')


def dumps(result: Any) -> str:
    """A result's text as MCP sends it: compact, non-ASCII kept, keys in order."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Budget:
    """What every result must fit: ``out_cap`` counted in ``unit`` (code points, or the
    UTF-8 bytes of the result's JSON text)."""

    out_cap: int
    unit: Unit = CHARS

    def size(self, result: Any) -> int:
        """The size of ``result``'s text in the budget's unit."""
        return self.unit.size(dumps(result))


class EscapeIndex:
    """A text's escaped characters, so the JSON length of any slice of it is known
    without serializing it: a page read checks the OutCap with two bisections per
    piece instead of a second ``dumps`` of up to 20,000 units."""

    __slots__ = ("_added", "_at")

    def __init__(self, text: str) -> None:
        self._at: list[int] = []
        # ``_added[k]``: what the first k escapes add to the length.
        self._added: list[int] = [0]
        for found in _ESCAPED.finditer(text):
            self._at.append(found.start())
            self._added.append(self._added[-1] + (1 if found.group() in _SHORT_ESCAPES else 5))

    def added(self, start: int, end: int) -> int:
        """What escaping adds to the code points ``[start, end)`` of the text."""
        if not self._at:
            return 0
        return self._added[bisect_left(self._at, end)] - self._added[bisect_left(self._at, start)]


def too_small(out_cap: int) -> EvidenceError:
    return EvidenceError(f"OutCap {out_cap} is too small for this result")


def fit_whole(result: T, budget: Budget, *, serialize: Callable[[T], Any] = lambda r: r) -> T:
    """``result`` if its text fits in ``budget``; otherwise the OutCap error."""
    if budget.size(serialize(result)) > budget.out_cap:
        raise too_small(budget.out_cap)
    return result


def fit_largest(
    build: Callable[[int], T],
    most: int,
    budget: Budget,
    *,
    least: int = 1,
    serialize: Callable[[T], Any] = lambda r: r,
    measure: Callable[[T], int] | None = None,
) -> T:
    """``build(n)`` for the largest ``n`` in ``least..most`` whose text fits, found by
    bisection (a result grows with ``n``); the OutCap error when ``build(least)``
    does not fit either. ``measure`` gives a built result's text size in the budget's
    unit when the builder knows it (``budget.size(serialize(result))`` exactly) without
    serializing."""

    def fits(result: T) -> bool:
        if measure is not None:
            return measure(result) <= budget.out_cap
        return budget.size(serialize(result)) <= budget.out_cap

    whole = build(most)
    if fits(whole):
        return whole
    smallest = build(least)
    if not fits(smallest):
        raise too_small(budget.out_cap)
    # Invariant: ``low`` fits, ``high`` does not.
    low, high, best = least, most, smallest
    while high - low > 1:
        middle = (low + high) // 2
        candidate = build(middle)
        if fits(candidate):
            low, best = middle, candidate
        else:
            high = middle
    return best
