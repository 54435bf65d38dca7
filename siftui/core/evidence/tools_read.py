"""E6 pdf_page_read and E10 pdf_evidence_read over a session's state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import (
    PageReading,
    Piece,
    check_read,
    read_pages,
    read_warnings,
)
from siftui.core.evidence.quotes import QuoteEnd, narrow, resolve_range
from siftui.core.evidence.records import Document, Ref
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import dumps, fit_largest, fit_whole

__all__ = ["DEFAULT_MAX_CHARS", "evidence_read", "page_read"]

DEFAULT_MAX_CHARS = 8000


def page_read(
    state: SessionState,
    document_id: str,
    *,
    page: int,
    last_page: int | None = None,
    offset: int | None = None,
    max_chars: int | None = None,
    hidden_spans: Mapping[int, int] | None = None,
) -> dict[str, object]:
    """E6. ``hidden_spans`` (page -> findings) only when the server warns of hidden text."""
    document = state.document(document_id)
    start = 0 if offset is None else offset
    budget = DEFAULT_MAX_CHARS if max_chars is None else max_chars
    last = check_read(document.texts, page, last_page, start)

    def build(units: int) -> tuple[PageReading, dict[str, object], int]:
        reading = read_pages(document.texts, page, last, start, units)
        return (reading, *_reading_result(state, document, reading, hidden_spans))

    # Over the OutCap, read fewer units: ``next`` then continues where it stopped.
    reading, result, _ = fit_largest(build, budget, state.budget, measure=lambda built: built[2])
    for piece in reading.pieces:
        if piece.units:
            state.issue_ref(document_id, (piece,))
    return result


def _reading_result(
    state: SessionState,
    document: Document,
    reading: PageReading,
    hidden_spans: Mapping[int, int] | None,
) -> tuple[dict[str, object], int]:
    """The result and the size of its text in the session's unit, known without
    serializing the pieces: the rest of the result is serialized with no pieces, and
    each piece's size is counted (what dumps writes of it is fixed but for its numbers,
    text and refId, all ASCII but the text)."""
    pieces = reading.pieces
    names = state.peek_refs(list(pieces))
    result: dict[str, object] = {
        "documentId": document.document_id,
        "contentVersion": document.content_version,
        "pages": [],
        "next": _next_of(reading),
        "units": reading.units,
    }
    warnings = read_warnings(reading, document.texts, hidden_spans)
    if warnings:
        result["warnings"] = warnings
    unit = state.unit
    length = unit.size(dumps(result)) + max(0, len(pieces) - 1)  # the commas between pieces
    texts = document.texts
    entries = []
    for piece, name in zip(pieces, names, strict=True):
        entries.append(
            {
                "page": piece.page,
                "start": piece.start,
                "end": piece.end,
                "text": piece.text,
                "refId": name,
            }
        )
        # A refId is "ref-<n>" (nothing to escape) or null.
        length += (
            _PIECE_FRAME
            + len(str(piece.page))
            + len(str(piece.start))
            + len(str(piece.end))
            + texts[piece.page - 1].json_length(piece.start, piece.end, unit)
            + (4 if name is None else len(name) + 2)
        )
    result["pages"] = entries
    return result, length


_PIECE_FRAME = len(dumps({"page": 0, "start": 0, "end": 0, "text": "", "refId": None})) - 3 - 4
"""What dumps writes of a piece besides its three numbers, its text and its refId."""


def _next_of(reading: PageReading) -> dict[str, int] | None:
    if reading.next is None:
        return None
    page, offset = reading.next
    return {"page": page, "offset": offset}


def evidence_read(
    state: SessionState,
    document_id: str,
    *,
    ref_id: str | None = None,
    quote: str | None = None,
    range: Mapping[str, Mapping[str, Any]] | None = None,  # the tool's own argument name
) -> dict[str, object]:
    """E10 by reference (optionally narrowed by a quote) or by a quoted range."""
    if ref_id is not None and range is not None:
        raise EvidenceError("give refId or range, not both")
    if ref_id is None and range is None:
        raise EvidenceError("give refId or range")
    if range is not None and quote is not None:
        raise EvidenceError('argument "quote" goes with refId, not range')
    document = state.document(document_id)
    if range is not None:
        pieces = resolve_range(document.texts, _quote_end(range, "start"), _quote_end(range, "end"))
        return _issue(state, document, tuple(pieces), None, narrowed_from=None)
    assert ref_id is not None
    ref = state.ref(ref_id)
    if ref.document_id != document_id:
        raise EvidenceError(f"{ref_id} belongs to {ref.document_id}, not {document_id}")
    if quote is None:
        return fit_whole(_evidence(ref_id, document, ref.source, ref.pieces), state.budget)
    whole = [
        ref.ocr_text if ref.ocr_text is not None else document.texts[piece.page - 1]
        for piece in ref.pieces
    ]
    narrowed = narrow(ref_id, ref.pieces, whole, quote)
    return _issue(state, document, (narrowed,), ref, narrowed_from=ref_id)


def _quote_end(range_: Mapping[str, Mapping[str, Any]], end: str) -> QuoteEnd:
    page, quote = range_[end]["page"], range_[end]["quote"]
    if not isinstance(page, int) or not isinstance(quote, str):
        raise TypeError(f"range.{end} must hold an integer page and a string quote")
    return QuoteEnd(page, quote)


def _issue(
    state: SessionState,
    document: Document,
    pieces: tuple[Piece, ...],
    ref: Ref | None,
    *,
    narrowed_from: str | None,
) -> dict[str, object]:
    source = "native" if ref is None else ref.source
    result = _evidence(state.counters.peek("ref"), document, source, pieces)
    if narrowed_from is not None:
        result["narrowedFrom"] = narrowed_from
    fit_whole(result, state.budget)
    state.issue_ref(document.document_id, pieces, None if ref is None else ref.ocr_text)
    return result


def _evidence(
    ref_id: str, document: Document, source: str, pieces: tuple[Piece, ...]
) -> dict[str, object]:
    return {
        "refId": ref_id,
        "documentId": document.document_id,
        "contentVersion": document.content_version,
        "source": source,
        "pages": [
            {"page": piece.page, "start": piece.start, "end": piece.end, "text": piece.text}
            for piece in pieces
        ],
        "units": sum(piece.units for piece in pieces),
    }
