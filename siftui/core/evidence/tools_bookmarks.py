"""E11 pdf_bookmark_list: the outline a page at a time, continued by cursors."""

from __future__ import annotations

from siftui.core.arguments import echoed
from siftui.core.evidence.bookmarks import bookmark_items
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.paging import cursor_page
from siftui.core.evidence.records import Cursor
from siftui.core.evidence.state import SessionState

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
    return cursor_page(
        state,
        {"documentId": document_id},
        (items, _as_listed),
        position,
        page_size,
        lambda at: Cursor(document_id, at, page_size),
    )


def _as_listed(item: object) -> object:
    return item
