# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Property: a random fill of a form's fields (any subset, one label per field, any value
its field takes) is what the draft reads back, from the working copy and from the
file's bytes with the fill replayed (a kept draft restored, an undo and redo); and
a random value a field does not take is refused with nothing filled."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.forms import CORPUS_EDIT, make_form_pdf

from siftui.core.edit.forms import FormWidget, Inspections, check_fill
from siftui.core.edit.operations import (
    FillField,
    Transaction,
    transaction_from_json,
    transaction_to_json,
)
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit.apply import apply_operation
from siftui.sources.edit.forms import page_widgets
from siftui.sources.edit.forms_copy import FormsOf
from siftui.sources.edit.working_copy import WorkingCopy

Draw = Callable[..., Any]
TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=24)


def value_for(widget: FormWidget) -> st.SearchStrategy[Any]:
    """Values the field takes (E18)."""
    options = list(widget.options or ())
    if widget.type == "checkbox":
        return st.booleans()
    if widget.type == "listbox":
        if widget.multiple:
            return st.lists(st.sampled_from(options), unique=True)
        return st.lists(st.sampled_from(options), max_size=1)
    if widget.type == "text":
        limit = widget.max_length
        return TEXT if limit is None else TEXT.filter(lambda text: len(text) <= limit)
    if widget.type == "combobox" and widget.editable:
        return st.one_of(st.sampled_from(options), TEXT)
    return st.sampled_from(["", *options])


def wanted_fill(draw: Draw, widgets: tuple[FormWidget, ...]) -> list[dict[str, Any]]:
    firsts: dict[str, int] = {}
    for number, widget in enumerate(widgets, 1):
        firsts.setdefault(widget.name, number)
    chosen = draw(st.lists(st.sampled_from(sorted(firsts)), min_size=1, unique=True))
    fields = []
    for name in chosen:
        labels = [n for n, widget in enumerate(widgets, 1) if widget.name == name]
        label = draw(st.sampled_from(labels))
        fields.append({"label": f"F{label}", "value": draw(value_for(widgets[label - 1]))})
    return fields


FORMS = {"field-types": (CORPUS_EDIT / "field-types.pdf", 1)}


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    made = make_form_pdf(tmp_path_factory.mktemp("forms") / "made.pdf")
    return {**FORMS, "made-1": (made, 1), "made-2": (made, 2)}


def check_fill_read_back(path: Path, page: int, draw: Draw) -> None:
    copy = WorkingCopy(str(path), path.read_bytes())
    try:
        forms = FormsOf(copy)
        widgets = forms.form(page, image=False).widgets
        inspection = Inspections().issue("doc-1", page, 0, widgets)
        fields = wanted_fill(draw, widgets)
        checked = check_fill(inspection, fields)
        operations = tuple(FillField(page, w.name, w.type, value) for _, w, value in checked)
        transaction = Transaction(operations, "fill")
        copy.commit(0, transaction)
        expected = {widget.name: value for _, widget, value in checked}
        read = {widget.name: widget.value for widget in forms.form(page, image=False).widgets}
        assert {name: read[name] for name in expected} == expected
        untouched = {w.name: w.value for w in widgets if w.name not in expected}
        assert {name: read[name] for name in untouched} == untouched
        # The same fill replayed on the file's bytes, through the kept draft's JSON.
        again = transaction_from_json(transaction_to_json(transaction))
        with pymupdf.open(stream=copy.data, filetype="pdf") as document:
            for operation in again.operations:
                apply_operation(document, operation)
            replayed = {widget.name: widget.value for widget in page_widgets(document, page)}
        assert replayed == read
        copy.undo()
        copy.redo()
        assert {w.name: w.value for w in forms.form(page, image=False).widgets} == read
    finally:
        copy.close()


def check_refused(path: Path, page: int, draw: Draw) -> None:
    """A value of the wrong type or outside the options is refused: nothing filled."""
    with pymupdf.open(path) as document:
        widgets = tuple(page_widgets(document, page))
    inspection = Inspections().issue("doc-1", page, 0, widgets)
    number = draw(st.integers(1, len(widgets)))
    widget = widgets[number - 1]
    wrong: Any = draw(st.one_of(st.integers(), st.none(), st.dictionaries(TEXT, TEXT, max_size=1)))
    if widget.options and not widget.editable:
        wrong = draw(
            st.one_of(st.just(wrong), TEXT.filter(lambda t: t not in ("", *widget.options)))
        )
        if isinstance(wrong, str) and widget.type == "listbox":
            wrong = [wrong]
    with pytest.raises(EvidenceError):
        check_fill(inspection, [{"label": f"F{number}", "value": wrong}])


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), which=st.sampled_from(["field-types", "made-1", "made-2"]))
def test_a_random_fill_is_what_the_draft_reads_back(
    forms: dict[str, tuple[Path, int]], data: st.DataObject, which: str
) -> None:
    check_fill_read_back(*forms[which], data.draw)
    check_refused(*forms[which], data.draw)


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), which=st.sampled_from(["field-types", "made-1", "made-2"]))
def test_a_random_fill_is_what_the_draft_reads_back_long(
    forms: dict[str, tuple[Path, int]], data: st.DataObject, which: str
) -> None:
    check_fill_read_back(*forms[which], data.draw)
    check_refused(*forms[which], data.draw)
