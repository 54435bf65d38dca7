"""The reader's form fields (EDITING.md's reader; E17's labels): the page's writable
fields beside it with the labels an agent's inspection gives them, the draft's
values and the agent's fills marked, the save dialog's old -> new values, and a
snapshot of the reader on qpdf's field-types.pdf after a fill."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.forms import CORPUS_EDIT
from support.tui_support import idle, wait_until
from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent

from siftui.core.edit.operations import FillField, Transaction
from siftui.core.reader import ChangeLine, FieldRow
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.registry import WorkingCopies
from siftui.tui.reader.app import ReaderApp
from siftui.tui.reader.copies import CopiesBackend

SnapCompare = Callable[..., bool]
FILL = Transaction(
    (
        FillField(1, "text", "text", "hello"),
        FillField(1, "r1", "radio", "3"),
        FillField(1, "checkbox1", "checkbox", True),
        FillField(1, "list1", "listbox", ("six", "eight")),
    ),
    "pdf_form_fill",
)


@pytest.fixture
def form(tmp_path: Path) -> Path:
    return Path(shutil.copyfile(CORPUS_EDIT / "field-types.pdf", tmp_path / "field-types.pdf"))


def test_the_fields_beside_the_page_and_the_fills_in_the_save_dialog(
    tmp_path: Path, form: Path
) -> None:
    view = CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts"))).open(form, None)
    before = view.fields(1)
    assert [row.label for row in before] == [f"F{n}" for n in range(1, 16)]
    assert before[0] == FieldRow("F1", "text", "text", '""', False)
    assert before[5] == FieldRow("F6", "checkbox2", "checkbox", "on", False)
    view.copy.commit(0, FILL)
    after = {row.label: row for row in view.fields(1)}
    assert after["F1"] == FieldRow("F1", "text", "text", '"hello"', True)
    assert after["F2"].value == '"3"' and after["F2"].changed  # every widget of r1
    assert after["F5"] == FieldRow("F5", "checkbox1", "checkbox", "on", True)
    assert after["F13"].value == '["six", "eight"]' and after["F13"].changed
    assert not after["F11"].changed
    assert view.changes() == (
        ChangeLine(1, 'field "text": "" -> "hello"'),
        ChangeLine(1, 'field "r1": "1" -> "3"'),
        ChangeLine(1, 'field "checkbox1": off -> on'),
        ChangeLine(1, 'field "list1": [] -> ["six", "eight"]'),
    )
    view.undo()  # the whole fill goes back at once
    assert not any(row.changed for row in view.fields(1)) and view.changes() == ()


def test_snapshot_of_the_reader_on_a_form_page_with_its_fields(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    backend = CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts")))
    app = ReaderApp(backend, paths=[Path("field-types.pdf")])

    async def before(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: app.reader_screen.query("#page-line"))
        line = app.reader_screen.query_one("#page-line", Static)
        await wait_until(pilot, lambda: str(line.render()).startswith("page 1 of 1"))
        copy = backend.copies.get(str(form))
        assert copy is not None
        copy.commit(0, FILL)
        await wait_until(pilot, lambda: "revision 1" in str(line.render()))
        app.reader_screen.query_one("#side", TabbedContent).active = "fields-pane"
        await idle(app, pilot)
        app.clear_notifications()
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=(120, 34), run_before=before)
