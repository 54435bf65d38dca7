"""E6's reading: bounded pieces of consecutive pages' texts (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.utf16 import Utf16Text

__all__ = ["PageReading", "Piece", "check_read", "read_pages", "read_warnings"]

MAX_EXTRA_PAGES = 9


@dataclass(frozen=True, slots=True)
class Piece:
    """Units ``[start, end)`` of one page's text (``text`` holds them)."""

    page: int
    start: int
    end: int
    text: str

    @property
    def units(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class PageReading:
    pieces: tuple[Piece, ...]
    next: tuple[int, int] | None  # (page, offset) of the first unit not read
    units: int


def check_read(pages: Sequence[Utf16Text], page: int, last_page: int | None, offset: int) -> int:
    """E6's own rules in EVIDENCE.md's order; returns ``lastPage``, clamped to E."""
    count = len(pages)
    if not 1 <= page <= count:
        raise EvidenceError(f"page out of range (1-{count})")
    last = page if last_page is None else last_page
    if not page <= last <= page + MAX_EXTRA_PAGES:
        raise EvidenceError(f"lastPage must be {page}-{page + MAX_EXTRA_PAGES}")
    length = pages[page - 1].length
    if not 0 <= offset <= length:
        raise EvidenceError(f"offset out of range (0-{length})")
    return min(last, count)


def read_pages(
    pages: Sequence[Utf16Text], page: int, last_page: int, offset: int, max_chars: int
) -> PageReading:
    """Read from (``page``, ``offset``) through ``last_page`` within ``max_chars`` units.

    Arguments must have passed ``check_read``. A piece never splits a pair; one
    that would be empty for that reason takes the whole pair, so ``units`` may
    exceed ``max_chars`` by one and reading always moves on.
    """
    budget = max_chars
    pieces: list[Piece] = []
    current, start = page, offset
    while current <= last_page and budget > 0:
        text = pages[current - 1]
        start = text.start_at(start)
        end = text.length
        if end - start > budget:
            end = text.end_at(start + budget, start=start)
        pieces.append(Piece(current, start, end, text.slice(start, end)))
        budget -= end - start
        if end < text.length:
            units = sum(piece.units for piece in pieces)
            return PageReading(tuple(pieces), (current, end), units)
        current, start = current + 1, 0
    units = sum(piece.units for piece in pieces)
    following = (current, 0) if current <= last_page else None
    return PageReading(tuple(pieces), following, units)


def read_warnings(
    reading: PageReading,
    page_texts: Sequence[Utf16Text],
    hidden_spans: Mapping[int, int] | None = None,
) -> list[dict[str, object]]:
    """E6's warnings for the pages read: ``no_text``, then ``hidden_text`` when given.

    ``hidden_spans`` maps a page to its hidden-text findings other than
    ``ocr_layer`` (the sources layer counts them; only with ``--warn-hidden``).
    """
    warnings: list[dict[str, object]] = []
    for piece in reading.pieces:
        text = page_texts[piece.page - 1].text
        if not text or text.isspace():  # as ``not text.strip()``, without copying the page
            warnings.append({"page": piece.page, "kind": "no_text"})
        spans = (hidden_spans or {}).get(piece.page, 0)
        if spans > 0:
            warnings.append({"page": piece.page, "kind": "hidden_text", "spans": spans})
    return warnings
