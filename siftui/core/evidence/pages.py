"""CONTRACT.md R3's page-range syntax, as E7's ``pages`` takes it (no 100-page limit)."""

from __future__ import annotations

import re

from siftui.core.evidence.errors import EvidenceError

__all__ = ["parse_pages"]

_RANGE = re.compile(r"([0-9]+)(-([0-9]*))?")


def parse_pages(spec: str | None, count: int) -> range:
    """The pages ``spec`` names among ``count`` extracted pages (absent or blank: all).

    ``"a"``, ``"a-b"`` or ``"a-"`` (a to the last page), in ASCII digits; b past
    the last page is clamped to it.
    """
    if spec is None or not spec.strip():
        return range(1, count + 1)
    match = _RANGE.fullmatch(spec.strip())
    if match is None:
        raise EvidenceError(f'invalid pages "{spec}": use "a-b", "a" or "a-"')
    first = int(match.group(1))
    if match.group(2) is None:
        last = first
    elif match.group(3):
        last = int(match.group(3))
    else:
        last = count
    if first < 1 or last < first or first > count:
        raise EvidenceError(f"pages out of range (1-{count})")
    return range(first, min(last, count) + 1)
