"""The page-range syntax of read_pdf (docs/SPEC.md R3), as E7's ``pages`` takes it.

The same parser and messages as read_pdf's; the evidence search has no
100-page limit, so a range is used as given (its end clamped to the last page).
"""

from __future__ import annotations

from siftui.core.evidence.errors import EvidenceError
from siftui.core.render import BadPages
from siftui.core.render import parse_pages as parse_read_pages

__all__ = ["parse_pages"]


def parse_pages(spec: str | None, count: int) -> range:
    """The pages ``spec`` names among ``count`` extracted pages (absent or blank: all)."""
    try:
        span = parse_read_pages(spec or "", count)
    except BadPages as error:
        raise EvidenceError(str(error)) from None
    if span is None:
        return range(1, count + 1)
    return range(span[0], span[1] + 1)
