"""E9 ocr_recognize's text part: OCR text kept per image, read in bounded pieces.

Running OCR is the sources layer's job: it comes in as ``recognize``, called
at most once per image; its text is kept and every later call reads it.
"""

from __future__ import annotations

from collections.abc import Callable

from siftui.core.arguments import echoed
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.records import Image, OcrResult
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.utf16 import Utf16Text
from siftui.core.evidence.wire import fit_largest

__all__ = ["DEFAULT_OCR_MAX_CHARS", "NO_TESSERACT", "Recognizer", "recognize_image"]

DEFAULT_OCR_MAX_CHARS = 8000
NO_TESSERACT = "OCR is not available: Tesseract is not installed"

Recognizer = Callable[[Image], tuple[str, str]]
"""Runs OCR on an image: (text, engine such as "tesseract 5.3.0"); may raise EvidenceError."""


def recognize_image(
    state: SessionState,
    *,
    image_handle: str | None = None,
    max_chars: int | None = None,
    result_id: str | None = None,
    offset: int | None = None,
    recognize: Recognizer | None = None,
) -> dict[str, object]:
    """E9: a first call ``{imageHandle, maxChars?}`` or a continuation ``{resultId, offset}``."""
    if result_id is not None:
        if image_handle is not None or max_chars is not None:
            raise EvidenceError("a continuation takes {resultId, offset} alone")
        if offset is None:
            raise EvidenceError('missing argument "offset"')
        kept = state.ocr_results.get(result_id)
        if kept is None:
            raise EvidenceError(f'unknown resultId "{echoed(result_id)}"')
        state.document(kept.document_id)
        return _read(state, result_id, kept, offset, new=False)
    if offset is not None:
        raise EvidenceError("a continuation takes {resultId, offset} alone")
    if image_handle is None:
        raise EvidenceError('missing argument "imageHandle"')
    image, document = state.image(image_handle)
    if image.ocr is None:
        if recognize is None:
            raise EvidenceError(NO_TESSERACT)
        text, engine = recognize(image)
        image.ocr = (Utf16Text(text), engine)
    kept_text, engine = image.ocr
    kept = OcrResult(
        image_handle,
        document.document_id,
        image.page,
        engine,
        kept_text,
        DEFAULT_OCR_MAX_CHARS if max_chars is None else max_chars,
    )
    return _read(state, state.counters.peek("ocr"), kept, 0, new=True)


def _read(
    state: SessionState, result_id: str, kept: OcrResult, offset: int, *, new: bool
) -> dict[str, object]:
    text = kept.text
    if not 0 <= offset <= text.length:
        raise EvidenceError(f"offset out of range (0-{text.length})")
    start = text.start_at(offset)

    def build(budget: int) -> tuple[Piece, dict[str, object]]:
        end = text.length
        if end - start > budget:
            end = text.end_at(start + budget, start=start)
        piece = Piece(kept.page, start, end, text.slice(start, end))
        return piece, {
            "resultId": result_id,
            "imageHandle": kept.image_handle,
            "documentId": kept.document_id,
            "page": kept.page,
            "engine": kept.engine,
            "derived": True,
            "offset": start,
            "nextOffset": end if end < text.length else None,
            "text": piece.text,
            "refId": state.counters.peek("ref") if piece.units else None,
        }

    # Over the OutCap, less text: ``nextOffset`` then continues where it stopped.
    piece, result = fit_largest(build, kept.max_chars, state.budget, serialize=lambda b: b[1])
    if new:
        state.ocr_results.put(state.counters.issue("ocr"), kept)
    if piece.units:
        state.issue_ref(kept.document_id, (piece,), text)
    return result
