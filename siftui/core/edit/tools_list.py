"""E12 pdf_annotation_list: the draft's annotations a page of results at a time."""

from __future__ import annotations

from dataclasses import dataclass

from siftui.core.edit.annotations import Annotation
from siftui.core.edit.copy import EditableCopy
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.paging import CURSOR_ALONE, cursor_page, kept_cursor
from siftui.core.evidence.records import Cursor
from siftui.core.evidence.state import SessionState

__all__ = ["DEFAULT_LIMIT", "AnnotationCursor", "annotation_list"]

DEFAULT_LIMIT = 100


@dataclass(frozen=True, slots=True)
class AnnotationCursor(Cursor):
    """Where a listing goes on: the listing as it was (its revision's items), so
    following the cursors lists each of them once however the draft changes."""

    items: tuple[Annotation, ...] = ()
    revision: int = 0


def annotation_list(
    state: SessionState,
    copy: EditableCopy,
    document_id: str,
    *,
    page: int | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> dict[str, object]:
    """E12: a first call ``{documentId, page?, limit?}`` or ``{documentId, cursor}``."""
    if cursor is not None and (limit is not None or page is not None):
        raise EvidenceError(CURSOR_ALONE)
    state.document(document_id)
    if cursor is not None:
        kept = kept_cursor(state, cursor, AnnotationCursor, document_id)
        items, position, page_size, revision = kept.items, kept.position, kept.limit, kept.revision
    else:
        if page is not None and not 1 <= page <= copy.page_count:
            raise EvidenceError(f"page out of range (1-{copy.page_count})")
        items = tuple(copy.annotations(page))
        position, page_size, revision = 0, DEFAULT_LIMIT if limit is None else limit, copy.revision
    return cursor_page(
        state,
        {"documentId": document_id, "revision": revision},
        (items, Annotation.item),
        position,
        page_size,
        lambda at: AnnotationCursor(document_id, at, page_size, items, revision),
    )
