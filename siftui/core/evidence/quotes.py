"""E10's quotes: narrowing a reference to a quote, and resolving a quoted range."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from siftui.core.arguments import echoed
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.normalize import NormalizedText, normalize
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.utf16 import Utf16Text

__all__ = [
    "MAX_RANGE_PAGES",
    "MAX_RANGE_UNITS",
    "QuoteEnd",
    "narrow",
    "occurrences",
    "resolve_range",
]

MAX_RANGE_PAGES = 10
MAX_RANGE_UNITS = 8000


@dataclass(frozen=True, slots=True)
class QuoteEnd:
    """One end of a range: a quote on a page."""

    page: int
    quote: str


def occurrences(text: str, quote: str) -> list[int]:
    """Every code-point index where ``quote`` begins in ``text``, overlapping ones too."""
    found: list[int] = []
    at = text.find(quote)
    while at >= 0:
        found.append(at)
        at = text.find(quote, at + 1)
    return found


def narrow(
    ref_id: str, pieces: Sequence[Piece], source_texts: Sequence[Utf16Text], quote: str
) -> Piece:
    """The one place ``quote`` occurs in the pieces (each within one piece).

    ``source_texts[i]`` is the whole text that ``pieces[i]`` indexes (a page's
    text, or the kept OCR text).
    """
    places: list[tuple[int, int]] = []
    for number, piece in enumerate(pieces):
        places += [(number, at) for at in occurrences(piece.text, quote)]
    if not places:
        raise EvidenceError(f"quote not found in {ref_id}{_normalized_hint(pieces, quote)}")
    if len(places) > 1:
        raise EvidenceError(f"quote occurs {len(places)} times in {ref_id}: quote more of it")
    number, at = places[0]
    piece = pieces[number]
    whole = source_texts[number]
    first = whole.unit_of(whole.index_of(piece.start) + at)
    last = whole.unit_of(whole.index_of(piece.start) + at + len(quote))
    return Piece(piece.page, first, last, whole.slice(first, last))


def _normalized_hint(pieces: Sequence[Piece], quote: str) -> str:
    """For a quote not found: when its normalized form (E7's, as a normalized search
    makes it) occurs exactly once in the pieces, the text it stands for there, so the
    agent can quote it exactly (a ligature, a hyphen at a line end); else nothing."""
    wanted = normalize(quote)
    if not wanted:
        return ""
    found: list[tuple[str, NormalizedText, int]] = []
    for piece in pieces:
        normalized = NormalizedText(piece.text)
        found += [(piece.text, normalized, at) for at in occurrences(normalized.text, wanted)]
        if len(found) > 1:
            return ""
    if not found:
        return ""
    text, normalized, at = found[0]
    first, last = normalized.original_span(at, at + len(wanted))
    return f' (its normalized form occurs once: the text has "{echoed(text[first:last])}")'


def _find_once(texts: Sequence[Utf16Text], end: QuoteEnd, name: str) -> tuple[int, int]:
    text = texts[end.page - 1]
    places = occurrences(text.text, end.quote)
    if not places:
        raise EvidenceError(f"{name} quote not found on page {end.page}")
    if len(places) > 1:
        raise EvidenceError(
            f"{name} quote occurs {len(places)} times on page {end.page}: quote more of it"
        )
    return text.unit_of(places[0]), text.unit_of(places[0] + len(end.quote))


def resolve_range(texts: Sequence[Utf16Text], start: QuoteEnd, end: QuoteEnd) -> list[Piece]:
    """E10's range: pieces from the start quote's first unit to the later quote end.

    Checks run in EVIDENCE.md's order: pages in range, end page before start
    page, page count, the start quote, the end quote, the order on one page,
    the unit count.
    """
    count = len(texts)
    for page in (start.page, end.page):
        if not 1 <= page <= count:
            raise EvidenceError(f"page out of range (1-{count})")
    if end.page < start.page:
        raise EvidenceError("end quote comes before the start quote")
    spanned = end.page - start.page + 1
    if spanned > MAX_RANGE_PAGES:
        raise EvidenceError(f"range too large: {spanned} pages (at most {MAX_RANGE_PAGES})")
    start_first, start_last = _find_once(texts, start, "start")
    end_first, end_last = _find_once(texts, end, "end")
    if start.page == end.page and end_first < start_first:
        raise EvidenceError("end quote comes before the start quote")
    pieces: list[Piece] = []
    for page in range(start.page, end.page + 1):
        text = texts[page - 1]
        first = start_first if page == start.page else 0
        last = text.length
        if page == end.page:
            last = max(start_last, end_last) if page == start.page else end_last
        pieces.append(Piece(page, first, last, text.slice(first, last)))
    units = sum(piece.units for piece in pieces)
    if units > MAX_RANGE_UNITS:
        raise EvidenceError(
            f"range too large: {units} UTF-16 units (at most {MAX_RANGE_UNITS}); narrow it"
        )
    return pieces
