"""A working copy as E17 and E18 see it (``siftui.core.edit.tools_forms.FormCopy``),
and its field changes against the file for the reader's save dialog."""

from __future__ import annotations

from dataclasses import dataclass

from siftui.core.edit.operations import FieldValue, FillField, Transaction
from siftui.core.edit.tools_forms import FormSnapshot
from siftui.sources.edit.form_image import labelled_page
from siftui.sources.edit.forms import field_values, page_widgets, xfa_only
from siftui.sources.edit.working_copy import WorkingCopy

__all__ = ["FieldChange", "FormsOf", "field_changes"]


class FormsOf:
    """``copy``'s form fields: read from its draft, filled through its transactions."""

    def __init__(self, copy: WorkingCopy) -> None:
        self.copy = copy

    @property
    def revision(self) -> int:
        return self.copy.revision

    @property
    def page_count(self) -> int:
        return self.copy.page_count

    def form(self, page: int, *, image: bool) -> FormSnapshot:
        with self.copy.reading() as draft:
            revision = self.copy.revision  # read under the copy's lock: the same snapshot
            widgets = tuple(page_widgets(draft, page))
            xfa = xfa_only(draft)
            png = b""
            if image and not xfa:
                png = labelled_page(draft, page, [widget.rect for widget in widgets]).png
        return FormSnapshot(revision, widgets, xfa, png)

    def check(self, expected_revision: int) -> None:
        self.copy.check(expected_revision)

    def commit(self, expected_revision: int, transaction: Transaction) -> int:
        return self.copy.commit(expected_revision, transaction)


@dataclass(frozen=True, slots=True)
class FieldChange:
    """A field the draft fills otherwise than the file (the page it was filled from)."""

    page: int
    name: str
    before: FieldValue | None  # None: the file has no such field
    after: FieldValue | None


def field_changes(copy: WorkingCopy) -> list[FieldChange]:
    """The fields the draft's fills changed, in the order first filled."""
    pages: dict[str, int] = {}
    for transaction in copy.transactions:
        for operation in transaction.operations:
            if isinstance(operation, FillField):
                pages.setdefault(operation.name, operation.page)
    if not pages:
        return []
    names = list(pages)
    with copy.reading(file=True) as document:
        before = field_values(document, names)
    with copy.reading() as document:
        after = field_values(document, names)
    return [
        FieldChange(pages[name], name, before.get(name), after.get(name))
        for name in names
        if before.get(name) != after.get(name)
    ]
