"""E17 and E18: a page's form fields inspected as one snapshot (an image with a label in
each writable widget, and the list of them), and a fill of that inspection's page
checked against it, made as one transaction, its values read back from the draft."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from siftui.core.edit.forms import FormWidget, Inspections, check_fill, wire_value
from siftui.core.edit.operations import FieldValue, FillField, Transaction
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_whole

__all__ = ["Fill", "FormCopy", "FormSnapshot", "form_fill", "form_inspect"]


@dataclass(frozen=True, slots=True)
class Fill:
    """E18's checked arguments (inspectionId aside), and who makes the change."""

    expected_revision: int
    fields: Sequence[Mapping[str, object]]
    tool: str = ""
    origin: str = "agent"

    @classmethod
    def asked(cls, arguments: Mapping[str, Any], tool: str) -> Fill:
        """The wire arguments as the tool's schema checked them."""
        return cls(arguments["expectedRevision"], arguments["fields"], tool)


@dataclass(frozen=True, slots=True)
class FormSnapshot:
    """A page of the draft at one revision: its writable widgets and, when asked, the
    labelled image (E17's first block)."""

    revision: int
    widgets: tuple[FormWidget, ...]
    xfa_only: bool
    png: bytes = b""


class FormCopy(Protocol):
    """What E17 and E18 need of a working copy (``siftui.sources.edit.forms_copy``)."""

    @property
    def revision(self) -> int: ...

    @property
    def page_count(self) -> int: ...

    def form(self, page: int, *, image: bool) -> FormSnapshot:
        """Page ``page``'s writable widgets (and its labelled image with ``image``), read
        from the draft as one snapshot."""
        ...

    def check(self, expected_revision: int) -> None: ...

    def commit(self, expected_revision: int, transaction: Transaction) -> int: ...


def form_inspect(
    state: SessionState,
    copy: FormCopy,
    inspections: Inspections,
    document_id: str,
    *,
    page: int,
    include_values: bool | None = None,
) -> tuple[bytes, dict[str, object]]:
    """E17: the labelled PNG and the JSON."""
    state.document(document_id)
    if not 1 <= page <= copy.page_count:
        raise EvidenceError(f"page out of range (1-{copy.page_count})")
    snapshot = copy.form(page, image=True)
    if snapshot.xfa_only:
        raise EvidenceError(f"the form on page {page} is XFA: not supported")
    made = inspections.issue(document_id, page, snapshot.revision, snapshot.widgets)
    result = fit_whole(
        {
            "inspectionId": made.inspection_id,
            "documentId": document_id,
            "revision": snapshot.revision,
            "page": page,
            "fields": [
                widget.item(f"F{number}", bool(include_values))
                for number, widget in enumerate(snapshot.widgets, 1)
            ],
        },
        state.budget,
    )
    return snapshot.png, result


def form_fill(
    state: SessionState,
    copy: FormCopy,
    inspections: Inspections,
    inspection_id: str,
    asked: Fill,
) -> dict[str, object]:
    """E18: all of ``asked.fields`` or nothing, one transaction."""
    inspection = inspections.get(inspection_id)
    document_id = inspection.document_id
    state.document(document_id)
    expected_revision = asked.expected_revision
    wanted = check_fill(inspection, asked.fields)
    inspections.check_current(inspection, copy.revision)
    copy.check(expected_revision)
    operations = tuple(
        FillField(inspection.page, widget.name, widget.type, value) for _, widget, value in wanted
    )

    def result(revision: int, values: Mapping[str, FieldValue]) -> dict[str, object]:
        return fit_whole(
            {
                "documentId": document_id,
                "revision": revision,
                "page": inspection.page,
                "fields": [
                    {"label": label, "name": widget.name, "value": wire_value(values[widget.name])}
                    for label, widget, _ in wanted
                ],
            },
            state.budget,
        )

    result(expected_revision + 1, {widget.name: value for _, widget, value in wanted})  # fits
    revision = copy.commit(expected_revision, Transaction(operations, asked.tool, asked.origin))
    read = copy.form(inspection.page, image=False).widgets
    return result(revision, {widget.name: widget.value for widget in read})
