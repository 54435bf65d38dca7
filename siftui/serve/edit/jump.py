"""E20 pdf_page_jump: a page of an open document shown in the reader tab showing it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from siftui.core.edit.operations import Quad
from siftui.core.edit.placement import PageGlyphs, place_piece
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.state import SessionState
from siftui.serve.edit.reader_link import ReaderAway, ReaderLink, ShownTab

NO_READER = "no reader is attached"


Glyphs = Callable[[int], PageGlyphs]
"""A page's glyphs in the document's working copy (to place a ref's text on it)."""


def _page(state: SessionState, document_id: str, arguments: Mapping[str, Any]) -> int:
    """The page to show: ``page``, or the first page of ``refId``'s text."""
    document = state.document(document_id)
    page, ref_id = arguments.get("page"), arguments.get("refId")
    if (page is None) == (ref_id is None):
        raise EvidenceError("give page or refId")
    if ref_id is not None:
        ref = state.ref(ref_id)
        if ref.document_id != document_id:
            raise EvidenceError(f"{ref_id} belongs to {ref.document_id}, not {document_id}")
        return min(piece.page for piece in ref.pieces)
    assert isinstance(page, int)
    if not 1 <= page <= document.page_count:
        raise EvidenceError(f"page out of range (1-{document.page_count})")
    return page


def _marks(
    state: SessionState, arguments: Mapping[str, Any], page: int, glyphs: Glyphs
) -> tuple[Quad, ...]:
    """The quads of the ref's text on ``page`` (the page a jump by refId shows), as a
    highlight of it would have them; none for a page jump, an OCR ref or text the
    page's glyphs do not draw (the jump itself is never refused for that)."""
    ref_id = arguments.get("refId")
    if ref_id is None:
        return ()
    ref = state.ref(ref_id)
    if ref.source != "native":
        return ()
    document = state.document(ref.document_id)
    quads: list[Quad] = []
    for piece in ref.pieces:
        if piece.page == page and piece.units:
            try:
                quads += place_piece(ref_id, piece, document.texts[page - 1], glyphs(page))
            except EvidenceError:
                continue
    return tuple(quads)


def _tab(tabs: list[ShownTab], real_path: str, document_id: str, tab_id: str | None) -> str:
    if tab_id is not None:
        for tab in tabs:
            if tab.tab_id == tab_id:
                if tab.path != real_path:
                    raise EvidenceError(f"{tab_id} shows another file")
                return tab_id
        raise EvidenceError(f'unknown tabId "{tab_id}" (pdf_current lists them)')
    showing = [tab for tab in tabs if tab.path == real_path]
    if not showing:
        raise EvidenceError(f"{document_id} is not open in the reader (the person opens it)")
    if len(showing) > 1:
        raise EvidenceError(
            f"{document_id} is open in {len(showing)} tabs: give tabId (pdf_current lists them)"
        )
    return showing[0].tab_id


def page_jump(
    state: SessionState, reader: ReaderLink | None, arguments: Mapping[str, Any], glyphs: Glyphs
) -> dict[str, object]:
    """E20 for the arguments the agent sent (checked against the schema); a ref's text is
    marked on the page shown."""
    document_id = arguments["documentId"]
    page = _page(state, document_id, arguments)
    if reader is None:
        raise EvidenceError(NO_READER)
    real_path = state.document(document_id).real_path
    tab_id = _tab(list(reader.tabs()), real_path, document_id, arguments.get("tabId"))
    marks = _marks(state, arguments, page, glyphs)
    try:
        back = reader.jump(tab_id, page, marks)
    except LookupError:
        raise EvidenceError(f"{tab_id} has closed in the reader") from None
    except ReaderAway:
        raise EvidenceError(NO_READER) from None
    return {"documentId": document_id, "tabId": tab_id, "page": page, "back": back}
