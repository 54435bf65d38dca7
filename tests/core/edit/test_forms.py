"""E17's inspections and E18's checks as pure values: when an inspection goes out of
date (EDITING.md), and the values a fill takes, normalized as the draft reads them."""

from __future__ import annotations

import pytest

from siftui.core.edit.forms import FormWidget, Inspections, Touched, check_fill, touched_by
from siftui.core.edit.operations import AddAnnotation, FillField, Transaction
from siftui.core.evidence.errors import EvidenceError

TEXT = FormWidget("name", "text", None, None, False, 3, "")
LIST = FormWidget(
    "colors", "listbox", ("red", "green", "blue"), None, False, None, (), multiple=True
)
NOTE = AddAnnotation(2, "Text", (), (1, 1, 9, 9), "#ffff00", "", "n", "a", "D:2026")


def made(inspections: Inspections, page: int = 1, revision: int = 0) -> str:
    return inspections.issue("doc-1", page, revision, (TEXT, LIST)).inspection_id


def out_of_date(inspections: Inspections, inspection_id: str, revision: int) -> bool:
    try:
        inspections.check_current(inspections.get(inspection_id), revision)
    except EvidenceError as refused:
        assert refused.message == f"{inspection_id} is out of date: inspect page 1 again"
        return True
    return False


def test_changes_elsewhere_keep_it_and_its_page_or_fields_do_not() -> None:
    inspections = Inspections()
    first = made(inspections)
    assert first == "insp-1" and made(inspections) == "insp-2"
    inspections.told("doc-1", touched_by(1, "write", Transaction((NOTE,), "t")))
    assert not out_of_date(inspections, first, 1)  # an annotation on page 2
    other = FillField(2, "city", "text", "Oslo")
    inspections.told("doc-1", touched_by(2, "write", Transaction((other,), "t")))
    assert not out_of_date(inspections, first, 2)  # a fill of another page's field
    inspections.told("doc-2", Touched(3, "undo", frozenset(), frozenset()))
    assert not out_of_date(inspections, first, 2)  # another document
    shared = FillField(2, "colors", "listbox", ("red",))
    inspections.told("doc-1", touched_by(3, "write", Transaction((shared,), "t")))
    assert out_of_date(inspections, first, 3)  # a field it lists, filled from page 2


@pytest.mark.parametrize("kind", ["undo", "redo", "discard", "save"])
def test_an_undo_redo_discard_or_save_makes_it_out_of_date(kind: str) -> None:
    inspections = Inspections()
    first = made(inspections)
    inspections.told("doc-1", Touched(1, kind, frozenset(), frozenset()))
    assert out_of_date(inspections, first, 1)


def test_a_change_not_told_or_the_copy_let_go_of_makes_it_out_of_date() -> None:
    inspections = Inspections()
    first = made(inspections)
    assert out_of_date(inspections, first, 1)  # revision 1 was never told
    second = made(inspections, revision=1)
    inspections.forget("doc-1")
    assert out_of_date(inspections, second, 1)
    assert not out_of_date(inspections, made(inspections, revision=1), 1)  # made after


def test_the_values_taken_are_those_the_draft_reads_back() -> None:
    inspection = Inspections().issue("doc-1", 1, 0, (TEXT, LIST))
    checked = check_fill(
        inspection, [{"label": "F2", "value": ["blue", "red"]}, {"label": "F1", "value": "abc"}]
    )
    assert [(label, value) for label, _, value in checked] == [
        ("F2", ("red", "blue")),  # in the options' order, as /V reads back
        ("F1", "abc"),
    ]
    with pytest.raises(EvidenceError, match=r"^F1: at most 3 characters$"):
        check_fill(inspection, [{"label": "F1", "value": "abcd"}])
    with pytest.raises(EvidenceError, match=r"^F1: the value is not valid text$"):
        check_fill(inspection, [{"label": "F1", "value": "\ud800"}])
    with pytest.raises(EvidenceError, match=r'^missing argument "fields\[1\]\.value"$'):
        check_fill(inspection, [{"label": "F1"}])
    empty = Inspections().issue("doc-1", 1, 0, ())
    with pytest.raises(EvidenceError, match=r'^unknown label "F1" \(insp-1 has no labels\)$'):
        check_fill(empty, [{"label": "F1", "value": ""}])
