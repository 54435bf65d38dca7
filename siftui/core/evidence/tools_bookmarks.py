"""E11 pdf_bookmark_list: the outline a page at a time, continued by cursors."""

from __future__ import annotations

from siftui.core.arguments import echoed
from siftui.core.evidence.bookmarks import bookmark_items
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import Cursor
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_largest

__all__ = ["DEFAULT_LIMIT", "bookmark_list"]

DEFAULT_LIMIT = 100


def bookmark_list(
    state: SessionState,
    document_id: str,
    *,
    limit: int | None = None,
    cursor: str | None = None,
) -> dict[str, object]:
    """E11: a first call ``{documentId, limit?}`` or a continuation ``{documentId, cursor}``.

    A cursor stays valid after use (passing it again lists the same items).
    """
    if cursor is not None and limit is not None:
        raise EvidenceError(
            "a continuation takes {documentId, cursor} alone (the cursor keeps the limit)"
        )
    document = state.document(document_id)
    position, page_size = 0, DEFAULT_LIMIT if limit is None else limit
    if cursor is not None:
        kept = state.cursors.get(cursor)
        if type(kept) is not Cursor or kept.document_id != document_id:  # not E12's
            raise EvidenceError(f'unknown cursor "{echoed(cursor)}": list again')
        position, page_size = kept.position, kept.limit
    items = bookmark_items(document.outline)
    most = min(page_size, len(items) - position)

    def build(count: int) -> dict[str, object]:
        more = position + count < len(items)
        return {
            "documentId": document_id,
            "total": len(items),
            "items": items[position : position + count],
            "nextCursor": state.counters.peek("cur") if more else None,
        }

    result = fit_largest(build, most, state.budget, least=min(1, most))
    if result["nextCursor"] is not None:
        returned = result["items"]
        assert isinstance(returned, list)
        name = state.counters.issue("cur")
        state.cursors.put(name, Cursor(document_id, position + len(returned), page_size))
    return result
