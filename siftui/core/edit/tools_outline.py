"""E16 pdf_bookmark_edit, and E11 pdf_bookmark_list on a working copy (the draft's
outline): operations checked in order on a copy of the draft's tree, then applied
as one transaction, or nothing when one is refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from siftui.core.arguments import echoed
from siftui.core.edit.operations import Transaction
from siftui.core.edit.outline import OutlineEntry, OutlineTree
from siftui.core.edit.outline_ops import (
    AddOutline,
    DeleteOutline,
    MoveOutline,
    OutlineOperation,
    UpdateOutline,
)
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.paging import CURSOR_ALONE, cursor_page, kept_cursor
from siftui.core.evidence.records import Cursor
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_whole

__all__ = ["DEFAULT_LIMIT", "OutlineCopy", "OutlineCursor", "bookmark_edit", "bookmark_list"]

DEFAULT_LIMIT = 100

_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # op: (keys it needs, keys it may take), besides "op"
    "outline-add": (("title", "page"), ("parentId", "index")),
    "outline-update": (("outlineId",), ("title", "page")),
    "outline-delete": (("outlineId",), ()),
    "outline-move": (("outlineId", "index"), ("parentId",)),
}


class OutlineCopy(Protocol):
    """What E16 and E11 need of a working copy."""

    @property
    def revision(self) -> int: ...

    @property
    def page_count(self) -> int: ...

    def outline(self) -> OutlineTree:
        """The draft's outline: a copy the caller may change."""
        ...

    def check(self, expected_revision: int) -> None: ...

    def commit(self, expected_revision: int, transaction: Transaction) -> int: ...


def _shape(number: int, operation: Mapping[str, Any]) -> str:
    """The op of ``operation`` (the ``number``-th), its keys checked against it."""
    kind = operation["op"]
    if kind not in _KEYS:
        raise EvidenceError(f'operation {number}: unknown op "{echoed(kind)}"')
    needed, optional = _KEYS[kind]
    owner = f"operations[{number}]"
    for key in operation:
        if key != "op" and key not in needed and key not in optional:
            takes = ", ".join(("op", *needed, *optional))
            raise EvidenceError(f'unknown argument "{owner}.{key}" ({owner} takes {takes})')
    for key in needed:
        if key not in operation:
            raise EvidenceError(f'missing argument "{owner}.{key}"')
    if kind == "outline-update" and "title" not in operation and "page" not in operation:
        raise EvidenceError(f"operation {number}: give title or page")
    return str(kind)


class _Checking:
    """The operations checked one by one on ``tree``, each applied to it once good."""

    def __init__(self, tree: OutlineTree, pages: int) -> None:
        self.tree = tree
        self.pages = pages
        self.number = 0

    def refused(self, what: str) -> EvidenceError:
        return EvidenceError(f"operation {self.number}: {what}")

    def known(self, outline_id: str) -> str:
        if outline_id not in self.tree:
            raise self.refused(f'unknown outlineId "{echoed(outline_id)}"')
        return outline_id

    def parent(self, given: Mapping[str, Any]) -> str | None:
        parent_id = given.get("parentId")
        return None if parent_id is None else self.known(parent_id)

    def page(self, page: int) -> int:
        if not 1 <= page <= self.pages:
            raise self.refused(f"page out of range (1-{self.pages})")
        return page

    def index(self, index: int, most: int) -> int:
        if not 0 <= index <= most:
            raise self.refused(f"index out of range (0-{most})")
        return index

    def resolved(self, kind: str, given: Mapping[str, Any]) -> OutlineOperation:
        if kind == "outline-add":
            page = self.page(given["page"])
            parent_id = self.parent(given)
            most = len(self.tree.siblings(parent_id))
            index = self.index(given.get("index", most), most)
            return AddOutline(self.tree.next_id(), given["title"], page, parent_id, index)
        outline_id = self.known(given["outlineId"])
        if kind == "outline-update":
            new_page = given.get("page")
            return UpdateOutline(
                outline_id, given.get("title"), None if new_page is None else self.page(new_page)
            )
        if kind == "outline-delete":
            return DeleteOutline(outline_id)
        parent_id = self.parent(given)
        if parent_id is not None and parent_id in self.tree.subtree(outline_id):
            raise self.refused(f"cannot move {outline_id} into itself")
        siblings = self.tree.siblings(parent_id)
        most = len(siblings) - (1 if outline_id in siblings else 0)
        return MoveOutline(outline_id, parent_id, self.index(given["index"], most))

    def check(
        self, operations: Sequence[Mapping[str, Any]], kinds: list[str]
    ) -> list[OutlineOperation]:
        resolved: list[OutlineOperation] = []
        for self.number, (kind, given) in enumerate(zip(kinds, operations, strict=True), 1):
            one = self.resolved(kind, given)
            self.tree.apply(one)
            resolved.append(one)
        return resolved


def bookmark_edit(
    state: SessionState,
    copy: OutlineCopy,
    document_id: str,
    *,
    expected_revision: int,
    operations: Sequence[Mapping[str, Any]],
    tool: str = "",
    origin: str = "agent",
) -> dict[str, object]:
    """E16: ``operations`` (already checked against the entry's schema) in one
    transaction; the ids of the items added."""
    state.document(document_id)
    kinds = [_shape(number, one) for number, one in enumerate(operations, 1)]
    copy.check(expected_revision)
    checking = _Checking(copy.outline(), copy.page_count)
    resolved = checking.check(operations, kinds)
    result = fit_whole(
        {
            "documentId": document_id,
            "revision": expected_revision + 1,
            "total": len(checking.tree),
            "added": [one.outline_id for one in resolved if isinstance(one, AddOutline)],
        },
        state.budget,
    )
    copy.commit(expected_revision, Transaction(tuple(resolved), tool, origin))
    return result


@dataclass(frozen=True, slots=True)
class OutlineCursor(Cursor):
    """Where a listing of the draft's outline goes on: the listing as it was, so
    following the cursors lists each item once however the draft changes."""

    items: tuple[OutlineEntry, ...] = ()


def bookmark_list(
    state: SessionState,
    copy: OutlineCopy,
    document_id: str,
    *,
    limit: int | None = None,
    cursor: str | None = None,
) -> dict[str, object]:
    """E11 on a working copy: the draft's outline, E11's keys, cursors and messages."""
    if cursor is not None and limit is not None:
        raise EvidenceError(CURSOR_ALONE)
    state.document(document_id)
    if cursor is not None:
        kept = kept_cursor(state, cursor, OutlineCursor, document_id)
        items, position, page_size = kept.items, kept.position, kept.limit
    else:
        items = tuple(copy.outline().entries())
        position, page_size = 0, DEFAULT_LIMIT if limit is None else limit
    return cursor_page(
        state,
        {"documentId": document_id},
        (items, OutlineEntry.item),
        position,
        page_size,
        lambda at: OutlineCursor(document_id, at, page_size, items),
    )
