"""A draft's changes as plain data: operations, grouped in transactions.

The draft of a working copy is the file's bytes plus the transactions that
survive (made and not undone), so replaying them on the bytes gives the draft.
Operations hold everything their effect depends on (the names, the author, the
date, the quads in PDF user space), so a replay makes the same annotations
again, and they round-trip through JSON for the drafts kept on disk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from siftui.core.edit.outline_ops import (
    OUTLINE_OPERATIONS,
    OutlineOperation,
    outline_from_json,
    outline_to_json,
)

__all__ = [
    "AGENT_AUTHOR",
    "AddAnnotation",
    "DeleteAnnotation",
    "FieldValue",
    "FillField",
    "Operation",
    "Quad",
    "Rect",
    "Transaction",
    "UpdateAnnotation",
    "operation_from_json",
    "operation_to_json",
    "transaction_from_json",
    "transaction_to_json",
]

AGENT_AUTHOR = "siftui agent"

Rect = tuple[float, float, float, float]
"""``[left, bottom, right, top]`` in PDF user space (points, y up)."""

Quad = tuple[float, float, float, float, float, float, float, float]
"""One ``/QuadPoints`` entry in user space: upper left, upper right, lower left, lower
right (x, y each), "upper" meaning the side above the text as it reads."""


@dataclass(frozen=True, slots=True)
class AddAnnotation:
    """A new annotation: a text markup (``quads``) or a Text note (``rect``)."""

    page: int  # 1-based
    subtype: str  # Highlight, Underline, StrikeOut, Squiggly or Text
    quads: tuple[Quad, ...]  # text markups; () for a note
    rect: Rect | None  # a note's /Rect; None for a markup (its rect follows the quads)
    color: str  # "#rrggbb"
    comment: str
    name: str  # its /NM, also its annotationId
    author: str  # its /T
    date: str  # its /CreationDate and /M, a PDF date string


@dataclass(frozen=True, slots=True)
class UpdateAnnotation:
    """A change in place: identity, author, rect and replies stay."""

    page: int  # the page that holds it
    annotation_id: str
    color: str | None  # None: unchanged
    comment: str | None  # None: unchanged
    date: str  # its new /M


@dataclass(frozen=True, slots=True)
class DeleteAnnotation:
    page: int
    annotation_id: str


FieldValue = str | bool | tuple[str, ...]
"""A form field's value: text, radio and combobox a string, checkbox a boolean,
listbox the export values chosen."""


@dataclass(frozen=True, slots=True)
class FillField:
    """A form field's new value (E18): the field named ``name`` wherever its widgets
    are; ``page`` is the page the fill was made from (its inspection's)."""

    page: int
    name: str  # the field's full name
    type: str  # "text", "checkbox", "radio", "combobox" or "listbox"
    value: FieldValue


Operation = AddAnnotation | UpdateAnnotation | DeleteAnnotation | FillField | OutlineOperation


@dataclass(frozen=True, slots=True)
class Transaction:
    """One write: all of its operations or none. ``tool`` names what made it (the
    served tool's name as its entry gives it, or the reader's action)."""

    operations: tuple[Operation, ...]
    tool: str
    origin: str = "agent"  # "agent" or "person"


def operation_to_json(operation: Operation) -> dict[str, Any]:
    if isinstance(operation, OUTLINE_OPERATIONS):
        return outline_to_json(operation)
    if isinstance(operation, AddAnnotation):
        return {
            "op": "annotation-add",
            "page": operation.page,
            "subtype": operation.subtype,
            "quads": [list(quad) for quad in operation.quads],
            "rect": None if operation.rect is None else list(operation.rect),
            "color": operation.color,
            "comment": operation.comment,
            "name": operation.name,
            "author": operation.author,
            "date": operation.date,
        }
    if isinstance(operation, UpdateAnnotation):
        return {
            "op": "annotation-update",
            "page": operation.page,
            "annotationId": operation.annotation_id,
            "color": operation.color,
            "comment": operation.comment,
            "date": operation.date,
        }
    if isinstance(operation, FillField):
        value = operation.value
        return {
            "op": "field-fill",
            "page": operation.page,
            "name": operation.name,
            "type": operation.type,
            "value": list(value) if isinstance(value, tuple) else value,
        }
    return {
        "op": "annotation-delete",
        "page": operation.page,
        "annotationId": operation.annotation_id,
    }


def operation_from_json(value: Mapping[str, Any]) -> Operation:
    """The operation ``operation_to_json`` wrote; ValueError for anything else."""
    try:
        kind = value["op"]
        outline = outline_from_json(value)
        if outline is not None:
            return outline
        if kind == "annotation-add":
            rect = value["rect"]
            return AddAnnotation(
                page=_integer(value["page"]),
                subtype=str(value["subtype"]),
                quads=tuple(_quad(quad) for quad in value["quads"]),
                rect=None if rect is None else _rect(rect),
                color=str(value["color"]),
                comment=str(value["comment"]),
                name=str(value["name"]),
                author=str(value["author"]),
                date=str(value["date"]),
            )
        if kind == "annotation-update":
            color, comment = value["color"], value["comment"]
            return UpdateAnnotation(
                page=_integer(value["page"]),
                annotation_id=str(value["annotationId"]),
                color=None if color is None else str(color),
                comment=None if comment is None else str(comment),
                date=str(value["date"]),
            )
        if kind == "annotation-delete":
            return DeleteAnnotation(
                page=_integer(value["page"]), annotation_id=str(value["annotationId"])
            )
        if kind == "field-fill":
            return FillField(
                page=_integer(value["page"]),
                name=str(value["name"]),
                type=str(value["type"]),
                value=_field_value(value["value"]),
            )
    except (KeyError, TypeError) as error:
        raise ValueError(f"not an operation: {error}") from None
    raise ValueError(f"unknown operation {kind!r}")


def transaction_to_json(transaction: Transaction) -> dict[str, Any]:
    return {
        "tool": transaction.tool,
        "origin": transaction.origin,
        "operations": [operation_to_json(operation) for operation in transaction.operations],
    }


def transaction_from_json(value: Mapping[str, Any]) -> Transaction:
    try:
        operations = value["operations"]
        if not isinstance(operations, list) or not operations:
            raise ValueError("a transaction holds at least one operation")
        return Transaction(
            operations=tuple(operation_from_json(operation) for operation in operations),
            tool=str(value["tool"]),
            origin=str(value["origin"]),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"not a transaction: {error}") from None


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"not an integer: {value!r}")
    return value


def _field_value(value: object) -> FieldValue:
    if isinstance(value, str | bool):
        return value
    if isinstance(value, list) and all(isinstance(one, str) for one in value):
        return tuple(value)
    raise ValueError(f"not a field value: {value!r}")


def _numbers(value: object, count: int) -> tuple[float, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != count:
        raise ValueError(f"not {count} numbers: {value!r}")
    numbers = []
    for item in value:
        if not isinstance(item, int | float) or isinstance(item, bool):
            raise ValueError(f"not a number: {item!r}")
        numbers.append(float(item))
    return tuple(numbers)


def _quad(value: object) -> Quad:
    a, b, c, d, e, f, g, h = _numbers(value, 8)
    return (a, b, c, d, e, f, g, h)


def _rect(value: object) -> Rect:
    left, bottom, right, top = _numbers(value, 4)
    return (left, bottom, right, top)
