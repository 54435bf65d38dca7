"""Form fields as plain values (E17's items), the inspections a session made, and
E18's values checked against them (pure).

A page's writable widgets are read by ``siftui.sources.edit.forms`` in the page's
widget order, one :class:`FormWidget` each (a field with several widgets on the
page is one item per widget, each with the field's name, options and value). A
:class:`FormInspection` is that list as one snapshot, with the revision it was read
at; :class:`Inspections` (one per session) names them ``insp-<n>`` and keeps the
changes each working copy told since, so a fill knows whether its inspection is
still good (EDITING.md: no change since touched its page or a field it lists).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from siftui.core.arguments import echoed
from siftui.core.edit.operations import FieldValue, FillField, Rect, Transaction
from siftui.core.edit.outline_ops import annotation_pages
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.store import BoundedTable
from siftui.core.evidence.utf16 import has_lone_surrogate

__all__ = [
    "FIELD_TYPES",
    "FormInspection",
    "FormWidget",
    "Inspections",
    "Touched",
    "check_fill",
    "touched_by",
    "value_text",
]

FIELD_TYPES = ("text", "checkbox", "radio", "combobox", "listbox")
VALUE_TYPES = {
    "text": "string",
    "checkbox": "boolean",
    "radio": "string",
    "combobox": "string",
    "listbox": "string[]",
}
_MUST_BE = {"string": "a string", "boolean": "true or false", "string[]": "a list of strings"}

KEPT_INSPECTIONS = 1000
"""Inspections a session keeps (the oldest is forgotten first)."""
KEPT_CHANGES = 1000
"""Changes of one working copy the inspections remember (older ones: out of date)."""


@dataclass(frozen=True, slots=True)
class FormWidget:
    """One writable widget of a page: its field's name, type, options and value."""

    name: str  # the field's full name
    type: str  # one of FIELD_TYPES
    options: tuple[str, ...] | None  # export values (radio, combobox, listbox)
    option_labels: tuple[str, ...] | None  # what a viewer shows, None: the options
    required: bool
    max_length: int | None
    value: FieldValue  # the draft's: str, bool (checkbox) or tuple of str (listbox)
    editable: bool = False  # a combobox that takes any text
    multiple: bool = False  # a listbox that takes several options
    rect: Rect = (0.0, 0.0, 0.0, 0.0)  # its box on the page as drawn (points, y down)

    @property
    def value_type(self) -> str:
        return VALUE_TYPES[self.type]

    def item(self, label: str, with_value: bool) -> dict[str, object]:
        """E17's item, keys in EDITING.md's order."""
        item: dict[str, object] = {
            "label": label,
            "name": self.name,
            "type": self.type,
            "valueType": self.value_type,
            "options": None if self.options is None else list(self.options),
            "optionLabels": None if self.option_labels is None else list(self.option_labels),
            "required": self.required,
            "maxLength": self.max_length,
        }
        if with_value:
            item["value"] = wire_value(self.value)
        return item


def wire_value(value: FieldValue) -> object:
    return list(value) if isinstance(value, tuple) else value


def value_text(value: FieldValue) -> str:
    """A value as the reader and the save dialog show it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{one}"' for one in value) + "]"
    return f'"{value}"'


@dataclass(frozen=True, slots=True)
class FormInspection:
    inspection_id: str
    document_id: str
    page: int
    revision: int
    widgets: tuple[FormWidget, ...]
    epoch: int = 0  # the document's working copies let go of before it was made

    @property
    def names(self) -> frozenset[str]:
        return frozenset(widget.name for widget in self.widgets)

    def labels(self) -> str:
        return f"F1-F{len(self.widgets)}" if self.widgets else "no labels"


@dataclass(frozen=True, slots=True)
class Touched:
    """One change of a working copy as the inspections see it."""

    revision: int
    kind: str  # "write", or "undo", "redo", "discard", "save" (never good)
    pages: frozenset[int]
    names: frozenset[str]


def touched_by(revision: int, kind: str, transaction: Transaction | None) -> Touched:
    operations = transaction.operations if transaction is not None else ()
    return Touched(
        revision,
        kind,
        frozenset(annotation_pages(operations)),  # an outline operation touches no page
        frozenset(operation.name for operation in operations if isinstance(operation, FillField)),
    )


class Inspections:
    """One session's inspections, ``insp-1``, ``insp-2``, …, and the changes told since
    (told from whichever thread made them: one lock)."""

    def __init__(self, kept: int = KEPT_INSPECTIONS) -> None:
        self._lock = threading.Lock()
        self._made = 0
        self._table: BoundedTable[FormInspection] = BoundedTable(kept)
        self._told: dict[str, list[Touched]] = {}
        self._epochs: dict[str, int] = {}

    def issue(
        self, document_id: str, page: int, revision: int, widgets: Sequence[FormWidget]
    ) -> FormInspection:
        with self._lock:
            self._made += 1
            inspection = FormInspection(
                f"insp-{self._made}",
                document_id,
                page,
                revision,
                tuple(widgets),
                self._epochs.get(document_id, 0),
            )
            self._table.put(inspection.inspection_id, inspection)
        return inspection

    def get(self, inspection_id: str) -> FormInspection:
        with self._lock:
            found = self._table.get(inspection_id)
        if found is None:
            raise EvidenceError(f'unknown inspectionId "{echoed(inspection_id)}"')
        return found

    def told(self, document_id: str, touched: Touched) -> None:
        with self._lock:
            changes = self._told.setdefault(document_id, [])
            changes.append(touched)
            del changes[:-KEPT_CHANGES]

    def forget(self, document_id: str) -> None:
        """The document's working copy was let go of (or its source changed): every
        inspection of it made before is out of date."""
        with self._lock:
            self._epochs[document_id] = self._epochs.get(document_id, 0) + 1
            self._told.pop(document_id, None)

    def check_current(self, inspection: FormInspection, revision: int) -> None:
        """EDITING.md's out-of-date refusal unless nothing told since ``inspection``
        touched its page or a field it lists (``revision``: the copy's now)."""
        document_id = inspection.document_id
        with self._lock:
            told = list(self._told.get(document_id, ()))
            epoch = self._epochs.get(document_id, 0)
        since = [one for one in told if one.revision > inspection.revision]
        good = (
            inspection.epoch == epoch
            and {one.revision for one in since} >= set(range(inspection.revision + 1, revision + 1))
            and all(
                one.kind == "write"
                and inspection.page not in one.pages
                and not (one.names & inspection.names)
                for one in since
            )
        )
        if not good:
            raise EvidenceError(
                f"{inspection.inspection_id} is out of date: inspect page {inspection.page} again"
            )


def _quoted(options: Iterable[str]) -> str:
    return ", ".join(f'"{echoed(option)}"' for option in options)


def _checked_value(label: str, widget: FormWidget, value: object) -> FieldValue:
    """``value`` as the field takes it, or EDITING.md's refusal."""
    kind = widget.value_type
    wrong = EvidenceError(f"{label} is a {widget.type}: value must be {_MUST_BE[kind]}")
    if kind == "boolean":
        if not isinstance(value, bool):
            raise wrong
        return value
    if kind == "string[]":
        if not isinstance(value, list) or not all(isinstance(one, str) for one in value):
            raise wrong
        chosen: tuple[str, ...] = tuple(str(one) for one in value)
    else:
        if not isinstance(value, str):
            raise wrong
        chosen = (value,)
    for one in chosen:
        if has_lone_surrogate(one):
            raise EvidenceError(f"{label}: the value is not valid text")
    options = widget.options or ()
    choosing = widget.type in ("radio", "listbox") or (
        widget.type == "combobox" and not widget.editable
    )
    if choosing:
        for one in chosen:
            if one not in options and not (one == "" and kind == "string"):
                raise EvidenceError(
                    f'{label}: "{echoed(one)}" is not an option ({_quoted(options)})'
                )
    if kind == "string[]":
        if len(set(chosen)) > 1 and not widget.multiple:
            raise EvidenceError(f"{label}: one option at most (the listbox takes one)")
        return tuple(option for option in options if option in chosen)  # the options' order
    text = chosen[0]
    if widget.max_length is not None and len(text) > widget.max_length:
        raise EvidenceError(f"{label}: at most {widget.max_length} characters")
    return text


def check_fill(
    inspection: FormInspection, fields: Sequence[Mapping[str, object]]
) -> list[tuple[str, FormWidget, FieldValue]]:
    """E18's ``fields`` checked against ``inspection``: (label, widget, value) each, in
    the order given, or the first refusal (nothing is filled)."""
    widgets = {f"F{number}": widget for number, widget in enumerate(inspection.widgets, 1)}
    given: dict[str, str] = {}  # label -> its field's name
    checked: list[tuple[str, FormWidget, FieldValue]] = []
    for number, field in enumerate(fields, 1):
        where = f"fields[{number}]"
        for key in field:
            if key not in ("label", "value"):
                raise EvidenceError(
                    f'unknown argument "{where}.{echoed(key)}" ({where} takes label, value)'
                )
        for key in ("label", "value"):
            if key not in field:
                raise EvidenceError(f'missing argument "{where}.{key}"')
        label = field["label"]
        if not isinstance(label, str):
            raise EvidenceError(f'argument "{where}.label" must be a string')
        widget = widgets.get(label)
        if widget is None:
            raise EvidenceError(
                f'unknown label "{echoed(label)}" ({inspection.inspection_id} has '
                f"{inspection.labels()})"
            )
        if label in given:
            raise EvidenceError(f"{label} is given twice")
        same = next((other for other, name in given.items() if name == widget.name), None)
        if same is not None:
            raise EvidenceError(
                f'{same} and {label} are one field "{echoed(widget.name)}": give it once'
            )
        given[label] = widget.name
        checked.append((label, widget, _checked_value(label, widget, field["value"])))
    return checked
