"""E20 pdf_page_jump: a page of an open document shown in the reader tab showing it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.state import SessionState
from siftui.serve.edit.reader_link import ReaderAway, ReaderLink, ShownTab

NO_READER = "no reader is attached"


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
    state: SessionState, reader: ReaderLink | None, arguments: Mapping[str, Any]
) -> dict[str, object]:
    """E20 for the arguments the agent sent (checked against the schema)."""
    document_id = arguments["documentId"]
    page = _page(state, document_id, arguments)
    if reader is None:
        raise EvidenceError(NO_READER)
    real_path = state.document(document_id).real_path
    tab_id = _tab(list(reader.tabs()), real_path, document_id, arguments.get("tabId"))
    try:
        back = reader.jump(tab_id, page)
    except LookupError:
        raise EvidenceError(f"{tab_id} has closed in the reader") from None
    except ReaderAway:
        raise EvidenceError(NO_READER) from None
    return {"documentId": document_id, "tabId": tab_id, "page": page, "back": back}
