"""The reader's tabs on the host's own working copies (siftui.tui.reader.copies): the
draft drawn and listed, the person's changes as transactions, a kept draft said,
and the save dialog's changes; and a snapshot of the reader on an annotated PDF."""

# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.pdfs import USER_PASSWORD, make_encrypted_pdf, make_pdf
from support.tui_support import idle, wait_until
from textual.pilot import Pilot
from textual.widgets import Static

from siftui.core.edit.operations import AGENT_AUTHOR, AddAnnotation, Transaction
from siftui.core.edit.outline_ops import AddOutline, DeleteOutline, MoveOutline, UpdateOutline
from siftui.core.reader import ChangeLine, OutlineRow
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.registry import WorkingCopies
from siftui.tui.reader.app import ReaderApp
from siftui.tui.reader.copies import CopiesBackend, CopyView
from siftui.tui.reader.model import EditRefused, OpenRefused

SnapCompare = Callable[..., bool]
PAGES = ["Field notes on entropy\nThe first measurements were taken at dawn.", "Second page"]
TOC = [(1, "Field notes", 1), (2, "Later", 2)]
QUAD = (72.0, 780.0, 250.0, 780.0, 72.0, 766.0, 250.0, 766.0)


def with_own_note(path: Path) -> Path:
    """Two pages, an outline, and a sticky note of the file's own on page 1."""
    make_pdf(path, PAGES, toc=TOC, stable=True)
    document = pymupdf.open(path)
    page = document[0]
    note = page.add_text_annot((400, 120), "the file's own note")
    note.set_info(title="Ann Person")
    note.update()
    document.xref_set_key(note.xref, "NM", pymupdf.get_pdf_str("own-1"))
    document.save(path, incremental=True, encryption=0)
    document.close()
    return path


def highlight(name: str, comment: str) -> Transaction:
    """What pdf_annotation_create commits for one line of page 1."""
    added = AddAnnotation(
        1, "Highlight", (QUAD,), None, "#ffff00", comment, name, AGENT_AUTHOR, "D:20261203Z"
    )
    return Transaction((added,), "pdf_annotation_create")


@pytest.fixture
def backend(tmp_path: Path) -> CopiesBackend:
    return CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts")))


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return with_own_note(tmp_path / "notes.pdf")


def test_the_tab_shows_the_draft_and_tells_the_agents_annotations(
    backend: CopiesBackend, pdf: Path
) -> None:
    view = backend.open(pdf, None)
    assert (view.path, view.pages(), view.revision(), view.unsaved()) == (pdf, 2, 0, False)
    own = view.annotations(1)
    assert [(row.annotation_id, row.subtype, row.by_agent) for row in own] == [
        ("own-1", "Text", False)
    ]
    before = view.page_pixels(1)
    view.copy.commit(0, highlight("siftui-1-1", "found it"))
    rows = view.annotations(1)
    assert [(row.annotation_id, row.author, row.by_agent) for row in rows] == [
        ("own-1", "Ann Person", False),
        ("siftui-1-1", AGENT_AUTHOR, True),
    ]
    assert view.page_pixels(1).rgb != before.rgb  # the highlight is drawn
    assert [row.title for row in view.outline()] == ["Field notes", "Later"]
    assert view.changes() == (
        ChangeLine(1, 'added   Highlight siftui-1-1 by siftui agent "found it"'),
    )


def test_the_persons_changes_are_revisions(backend: CopiesBackend, pdf: Path) -> None:
    view = backend.open(pdf, None)
    view.copy.commit(0, highlight("siftui-1-1", "found it"))
    assert "revision 2" in view.delete_annotation("own-1")
    assert view.changes() == (
        ChangeLine(1, 'deleted Text own-1 by Ann Person "the file\'s own note"'),
        ChangeLine(1, 'added   Highlight siftui-1-1 by siftui agent "found it"'),
    )
    assert view.copy.transactions[-1].origin == "person"
    assert "revision 3" in view.undo()
    assert "revision 4" in view.redo()
    with pytest.raises(EditRefused, match="nothing to redo"):
        view.redo()
    with pytest.raises(EditRefused, match='unknown annotationId "nope"'):
        view.delete_annotation("nope")
    assert "revision 5" in view.discard()
    assert not view.unsaved() and [row.annotation_id for row in view.annotations(1)] == ["own-1"]


def test_the_outline_marks_the_drafts_bookmark_edits_and_the_dialog_lists_them(
    backend: CopiesBackend, pdf: Path
) -> None:
    view = backend.open(pdf, None)
    assert view.outline() == [OutlineRow(1, "Field notes", 1), OutlineRow(2, "Later", 2)]
    operations = (
        UpdateOutline("ol-1", "Notes", None),
        AddOutline("ol-3", "Extra", 2, None, 1),
        MoveOutline("ol-2", None, 2),
        AddOutline("ol-4", "Gone", 1, None, 0),
        DeleteOutline("ol-4"),
    )
    view.copy.commit(0, Transaction(operations, "pdf_bookmark_edit"))
    assert view.outline() == [
        OutlineRow(1, "Notes", 1, "renamed"),
        OutlineRow(1, "Extra", 2, "added"),
        OutlineRow(1, "Later", 2, "moved"),
    ]
    assert view.changes() == (
        ChangeLine(None, 'bookmark ol-1 "Field notes" renamed to "Notes"'),
        ChangeLine(None, 'bookmark added ol-3 "Extra" -> p. 2, at the top level, position 2'),
        ChangeLine(None, 'bookmark moved ol-2 "Later" at the top level, position 3'),
        ChangeLine(None, 'bookmark added ol-4 "Gone" -> p. 1, at the top level, position 1'),
        ChangeLine(None, 'bookmark deleted ol-4 "Gone"'),
    )
    view.undo()  # the whole edit
    assert view.outline() == [OutlineRow(1, "Field notes", 1), OutlineRow(2, "Later", 2)]
    assert view.changes() == ()


def test_a_kept_draft_is_said_when_the_file_opens_again(tmp_path: Path, pdf: Path) -> None:
    first = CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts")))
    view = first.open(pdf, None)
    view.copy.commit(0, highlight("siftui-1-1", "found it"))
    again = CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts"))).open(pdf, None)
    assert "restored the draft" in again.note and "revision 1" in again.note
    assert again.revision() == 1 and again.unsaved()


def test_tabs_of_one_file_share_its_copy_and_release_it(backend: CopiesBackend, pdf: Path) -> None:
    one, two = backend.open(pdf, None), backend.open(pdf, None)
    assert one.copy is two.copy
    one.release()
    one.release()  # a tab closes once
    assert backend.copies.get(str(pdf)) is two.copy
    two.release()
    assert backend.copies.get(str(pdf)) is None


def test_files_that_cannot_open_are_one_line(backend: CopiesBackend, tmp_path: Path) -> None:
    with pytest.raises(OpenRefused, match="no such file"):
        backend.open(tmp_path / "missing.pdf", None)
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\nnot really a pdf\n")
    with pytest.raises(OpenRefused, match="not a document siftui can read"):
        backend.open(damaged, None)
    locked = make_encrypted_pdf(tmp_path / "locked.pdf")
    with pytest.raises(OpenRefused, match="needs a password") as refused:
        backend.open(locked, None)
    assert refused.value.needs_password
    # The reader asks for the password itself: it has no --password option to point to.
    assert str(refused.value) == f"{locked}: needs a password"
    assert isinstance(backend.open(locked, USER_PASSWORD), CopyView)


def test_snapshot_of_the_reader_on_an_annotated_pdf(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    pdf = with_own_note(tmp_path / "notes.pdf")
    backend = CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts")))
    app = ReaderApp(backend, paths=[Path("notes.pdf")])

    async def before(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: app.reader_screen.query("#page-line"))
        line = app.reader_screen.query_one("#page-line", Static)
        await wait_until(pilot, lambda: str(line.render()).startswith("page 1 of 2"))
        copy = backend.copies.get(str(pdf))
        assert copy is not None
        copy.commit(0, highlight("siftui-1-1", "the measurements were taken at dawn"))
        await wait_until(pilot, lambda: "revision 1" in str(line.render()))
        await idle(app, pilot)
        # the annotations table fits its columns to new rows when it is next idle: under
        # load that came after the picture was taken ("sift…" in a column still sized
        # for "own-1")
        await wait_until(pilot, lambda: "siftui-1-1" in app.export_screenshot())
        app.clear_notifications()
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=(110, 34), run_before=before)
