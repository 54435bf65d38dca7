"""E11 pdf_bookmark_list: the outline a page at a time, continued by cursors."""

from __future__ import annotations

from siftui.core.evidence.bookmarks import bookmark_items
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.paging import CURSOR_ALONE, cursor_page, kept_cursor
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
        raise EvidenceError(CURSOR_ALONE)
    document = state.document(document_id)
    position, page_size = 0, DEFAULT_LIMIT if limit is None else limit
    if cursor is not None:
        kept = kept_cursor(state, cursor, Cursor, document_id)  # not E12's
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
