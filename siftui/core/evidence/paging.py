"""One page of a listing continued by cursors (E11 on a document or a working copy,
E12): as many items as the budget and the page size allow, and the cursor that
goes on from the first item left out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from siftui.core.arguments import echoed
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import Cursor
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_largest

__all__ = ["CURSOR_ALONE", "cursor_page", "kept_cursor"]

_Item = TypeVar("_Item")
_Kept = TypeVar("_Kept", bound=Cursor)

CURSOR_ALONE = "a continuation takes {documentId, cursor} alone (the cursor keeps the limit)"
"""A listing's continuation sent with a first call's keys."""


def kept_cursor(state: SessionState, cursor: str, kind: type[_Kept], document_id: str) -> _Kept:
    """The cursor ``cursor`` of this listing (its record exactly of ``kind``: each
    listing's cursors are its own) on ``document_id``, or the refusal."""
    kept = state.cursors.get(cursor)
    if type(kept) is not kind or kept.document_id != document_id:
        raise EvidenceError(f'unknown cursor "{echoed(cursor)}": list again')
    return kept


def cursor_page(
    state: SessionState,
    head: Mapping[str, object],
    listed: tuple[Sequence[_Item], Callable[[_Item], object]],
    position: int,
    page_size: int,
    cursor_at: Callable[[int], Cursor],
) -> dict[str, object]:
    """``head``'s keys (``documentId``, and what a listing adds before ``total``), then
    ``total``, ``items`` (the listed items from ``position``, each as ``listed``'s
    function shows it) and ``nextCursor``; a cursor issued when items are left, kept
    as ``cursor_at(position of the first of them)`` makes it."""
    items, shown = listed
    most = min(page_size, len(items) - position)

    def build(count: int) -> dict[str, object]:
        more = position + count < len(items)
        return {
            **head,
            "total": len(items),
            "items": [shown(item) for item in items[position : position + count]],
            "nextCursor": state.counters.peek("cur") if more else None,
        }

    result = fit_largest(build, most, state.budget, least=min(1, most))
    if result["nextCursor"] is not None:
        returned = result["items"]
        assert isinstance(returned, list)
        state.cursors.put(state.counters.issue("cur"), cursor_at(position + len(returned)))
    return result
