"""Results on the wire: EVIDENCE.md's compact JSON, and the OutCap rule.

Every result's serialized text is at most OutCap code points. A result with
a list or a continuation gives fewer items (or less text) to fit; the others
fit whole or fail. Builders are called with a size and return a finished
result, so fitting never commits anything: identities are issued afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from siftui.core.evidence.errors import EvidenceError

__all__ = ["dumps", "fit_largest", "fit_whole", "too_small"]

T = TypeVar("T")


def dumps(result: Any) -> str:
    """A result's text as MCP sends it: compact, non-ASCII kept, keys in order."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def too_small(out_cap: int) -> EvidenceError:
    return EvidenceError(f"OutCap {out_cap} is too small for this result")


def fit_whole(result: T, out_cap: int, *, serialize: Callable[[T], Any] = lambda r: r) -> T:
    """``result`` if its text fits in ``out_cap``; otherwise the OutCap error."""
    if len(dumps(serialize(result))) > out_cap:
        raise too_small(out_cap)
    return result


def fit_largest(
    build: Callable[[int], T],
    most: int,
    out_cap: int,
    *,
    least: int = 1,
    serialize: Callable[[T], Any] = lambda r: r,
) -> T:
    """``build(n)`` for the largest ``n`` in ``least..most`` whose text fits, found by
    bisection (a result grows with ``n``); the OutCap error when ``build(least)``
    does not fit either."""

    def fits(result: T) -> bool:
        return len(dumps(serialize(result))) <= out_cap

    whole = build(most)
    if fits(whole):
        return whole
    smallest = build(least)
    if not fits(smallest):
        raise too_small(out_cap)
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
