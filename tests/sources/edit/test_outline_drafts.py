# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)
"""E16's transactions in the drafts kept on disk: a reader that died gets the draft's
outline back at its revision, with the ids it had given (an undone addition's too),
and a redo after the restart puts the edit back."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support.outlines import outlined_pdf

from siftui.core.edit.operations import Transaction
from siftui.core.edit.outline_ops import AddOutline, DeleteOutline, MoveOutline, UpdateOutline
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.registry import WorkingCopies


def rows(copies: WorkingCopies, path: Path) -> list[tuple[str, int, str]]:
    copy = copies.get(str(path))
    assert copy is not None
    return [(e.outline_id, e.level, e.title) for e in copy.outline().entries()]


def test_a_kept_draft_gives_back_its_outline_and_the_ids_it_gave(tmp_path: Path) -> None:
    pdf = outlined_pdf(tmp_path / "outlined.pdf")
    data = pdf.read_bytes()
    first = WorkingCopies(DraftStore(tmp_path / "drafts"))
    copy = first.open(str(pdf), data).copy
    edit = (
        UpdateOutline("ol-5", "Web site", None),
        MoveOutline("ol-1", "ol-2", 0),
        AddOutline("ol-7", "Added", 2, None, 0),
        DeleteOutline("ol-4"),
    )
    copy.commit(0, Transaction(edit, "pdf_bookmark_edit"))
    copy.commit(1, Transaction((AddOutline("ol-8", "Undone", 1, None, 0),), "pdf_bookmark_edit"))
    copy.undo()
    shown = rows(first, pdf)
    assert shown[0] == ("ol-7", 1, "Added") and ("ol-1", 2, "Named") in shown
    # the reader died; a new host opens the same bytes
    again = WorkingCopies(DraftStore(tmp_path / "drafts"))
    opened = again.open(str(pdf), data)
    assert opened.note is not None and opened.note.kind == "restored"
    assert rows(again, pdf) == shown
    assert opened.copy.outline().next_id() == "ol-9"  # ol-8 was given, then undone
    opened.copy.redo()
    assert rows(again, pdf)[0] == ("ol-8", 1, "Undone")
    with opened.copy.reading() as document:
        titles = [title for _, title, _ in document.get_toc()]
    assert titles == ["Undone", "Added", "GoTo", "Named", "Child A", "Web site", "Last"]
    assert pymupdf.open(pdf).get_toc()[0][1] == "Named"  # the file is untouched


def test_an_outline_whose_objects_mupdf_reads_otherwise_is_listed_and_not_edited(
    tmp_path: Path,
) -> None:
    """Two items whose /Next lead to each other: MuPDF reads no outline where the links
    hold two items. E11 lists what MuPDF reads; an edit is refused in one line and
    nothing changes."""
    document = pymupdf.open()
    document.new_page()
    root, one, two = (document.get_new_xref() for _ in range(3))
    document.update_object(root, f"<< /Type /Outlines /First {one} 0 R /Last {two} 0 R >>")
    document.update_object(one, f"<< /Title (A) /Parent {root} 0 R /Next {two} 0 R >>")
    document.update_object(two, f"<< /Title (B) /Parent {root} 0 R /Next {one} 0 R >>")
    document.xref_set_key(document.pdf_catalog(), "Outlines", f"{root} 0 R")
    pdf = tmp_path / "looped.pdf"
    document.save(pdf)
    copies = WorkingCopies(DraftStore(tmp_path / "drafts"))
    copy = copies.open(str(pdf), pdf.read_bytes()).copy
    assert rows(copies, pdf) == []
    edit = Transaction((AddOutline("ol-1", "New", 1, None, 0),), "pdf_bookmark_edit")
    with pytest.raises(EvidenceError) as refused:
        copy.commit(0, edit)
    assert refused.value.message == (
        "the outline cannot be edited: its outline objects hold 2 items where MuPDF reads 0"
    )
    assert copy.revision == 0 and rows(copies, pdf) == []
