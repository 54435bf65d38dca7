"""One page of a listing continued by cursors (E11 on a document or a working copy,
E12): as many items as the budget and the page size allow, and the cursor that
goes on from the first item left out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from siftui.core.evidence.records import Cursor
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_largest

__all__ = ["cursor_page"]

_Item = TypeVar("_Item")


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
