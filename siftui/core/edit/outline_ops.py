"""E16's operations as plain data, resolved: every id named, every index explicit.

pdf_bookmark_edit checks an agent's operations on the draft's outline
(``siftui.core.edit.outline``) and records them resolved, so replaying a
transaction on the file's bytes gives the same outline with the same ids (the
drafts kept on disk hold them as JSON). ``parent_id`` None is the top level;
``index`` is 0-based among the siblings, counted (for a move) after the item left
its place; ``page`` is 1-based.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "OUTLINE_OPERATIONS",
    "AddOutline",
    "DeleteOutline",
    "MoveOutline",
    "OutlineOperation",
    "UpdateOutline",
    "annotation_pages",
    "outline_from_json",
    "outline_to_json",
]


@dataclass(frozen=True, slots=True)
class AddOutline:
    outline_id: str
    title: str
    page: int  # its destination: the page's top
    parent_id: str | None
    index: int


@dataclass(frozen=True, slots=True)
class UpdateOutline:
    """A new title keeps the destination, style and open state; only ``page`` sets a
    new destination."""

    outline_id: str
    title: str | None  # None: unchanged
    page: int | None  # None: unchanged


@dataclass(frozen=True, slots=True)
class DeleteOutline:
    """The item and its subtree."""

    outline_id: str


@dataclass(frozen=True, slots=True)
class MoveOutline:
    outline_id: str
    parent_id: str | None
    index: int


OutlineOperation = AddOutline | UpdateOutline | DeleteOutline | MoveOutline
OUTLINE_OPERATIONS = (AddOutline, UpdateOutline, DeleteOutline, MoveOutline)


def annotation_pages(operations: Iterable[object]) -> set[int]:
    """The pages whose annotations (or fields) ``operations`` touch: an outline
    operation touches none (its ``page`` is a destination)."""
    pages: set[int] = set()
    for operation in operations:
        page = getattr(operation, "page", None)
        if not isinstance(operation, OUTLINE_OPERATIONS) and isinstance(page, int):
            pages.add(page)
    return pages


def outline_to_json(operation: OutlineOperation) -> dict[str, Any]:
    if isinstance(operation, AddOutline):
        return {
            "op": "outline-add",
            "outlineId": operation.outline_id,
            "title": operation.title,
            "page": operation.page,
            "parentId": operation.parent_id,
            "index": operation.index,
        }
    if isinstance(operation, UpdateOutline):
        return {
            "op": "outline-update",
            "outlineId": operation.outline_id,
            "title": operation.title,
            "page": operation.page,
        }
    if isinstance(operation, DeleteOutline):
        return {"op": "outline-delete", "outlineId": operation.outline_id}
    return {
        "op": "outline-move",
        "outlineId": operation.outline_id,
        "parentId": operation.parent_id,
        "index": operation.index,
    }


def outline_from_json(value: Mapping[str, Any]) -> OutlineOperation | None:
    """The operation ``outline_to_json`` wrote; None when ``value`` is no outline
    operation; KeyError, TypeError or ValueError for a damaged one."""
    kind = value["op"]
    if kind == "outline-add":
        return AddOutline(
            _text(value["outlineId"]),
            _text(value["title"]),
            _number(value["page"]),
            _maybe_text(value["parentId"]),
            _number(value["index"]),
        )
    if kind == "outline-update":
        page = value["page"]
        return UpdateOutline(
            _text(value["outlineId"]),
            _maybe_text(value["title"]),
            None if page is None else _number(page),
        )
    if kind == "outline-delete":
        return DeleteOutline(_text(value["outlineId"]))
    if kind == "outline-move":
        return MoveOutline(
            _text(value["outlineId"]), _maybe_text(value["parentId"]), _number(value["index"])
        )
    return None


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a string: {value!r}")
    return value


def _maybe_text(value: object) -> str | None:
    return None if value is None else _text(value)


def _number(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"not an integer: {value!r}")
    return value
