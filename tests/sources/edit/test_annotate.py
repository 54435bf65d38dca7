# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""E12-E15 on a working copy of a real PDF: made from native references (one quad per
line run), reused, refused, updated in place, deleted with their replies."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pymupdf
import pytest
from support.editing import Editing, make_lines_pdf, open_editing

from siftui.core.edit.tools_annotations import (
    Create,
    Update,
    annotation_create,
    annotation_delete,
    annotation_update,
)
from siftui.core.edit.tools_list import annotation_list
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import DocumentRead
from siftui.core.evidence.utf16 import Utf16Text


@pytest.fixture
def editing(tmp_path: Path) -> Editing:
    return open_editing(make_lines_pdf(tmp_path / "lines.pdf"), tmp_path / "drafts")


def create(
    editing: Editing,
    ref_id: str,
    revision: int,
    subtype: str = "Highlight",
    color: str | None = None,
    comment: str | None = None,
) -> dict[str, object]:
    target = {"kind": "reference", "refId": ref_id}
    asked = Create(revision, subtype, target, color, comment)
    return annotation_create(editing.session, editing.copy, "doc-1", asked)


def test_a_ref_over_two_lines_is_one_annotation_with_a_quad_per_line(editing: Editing) -> None:
    ref_id = editing.ref(1, "gamma 1\ndelta")
    result = create(editing, ref_id, 0)
    assert result == {
        "documentId": "doc-1",
        "revision": 1,
        "annotations": [{"annotationId": "siftui-1-1", "page": 1, "subtype": "Highlight"}],
        "reused": False,
    }
    (made,) = editing.copy.annotations(1)
    assert len(made.quads) == 2
    assert (made.author, made.color, made.comment) == ("siftui agent", "#ffff00", "")


def test_an_equal_annotation_is_reused_without_a_revision(editing: Editing) -> None:
    create(editing, editing.ref(1, "beta"), 0, comment="why")
    again = create(editing, editing.ref(1, "beta"), 1, comment="why")
    assert again["reused"] is True and again["revision"] == 1
    assert editing.copy.revision == 1


def test_an_overlapping_one_is_refused_naming_the_other(editing: Editing) -> None:
    create(editing, editing.ref(1, "beta"), 0)
    with pytest.raises(EvidenceError) as refused:
        create(editing, editing.ref(1, "Alpha beta"), 1)
    assert str(refused.value) == (
        "overlaps siftui-1-1 on page 1: update it (pdf_annotation_update) or delete it first"
    )
    # another subtype over the same text is no overlap
    assert create(editing, editing.ref(1, "Alpha beta"), 1, subtype="Underline")["revision"] == 2
    # nor is the next word on the line
    assert create(editing, editing.ref(1, "gamma"), 2)["revision"] == 3


def test_a_stale_revision_changes_nothing(editing: Editing) -> None:
    with pytest.raises(EvidenceError) as refused:
        create(editing, editing.ref(1, "beta"), 3)
    assert str(refused.value) == "revision is 0, not 3: list again to see what changed"
    assert editing.copy.annotations() == [] and editing.copy.revision == 0


def test_a_ref_over_two_pages_is_one_annotation_per_page_in_one_transaction(
    editing: Editing,
) -> None:
    ref_id = editing.ref_over([(1, "iota 1\n"), (2, "Alpha beta")])
    result = create(editing, ref_id, 0)
    assert result["annotations"] == [
        {"annotationId": "siftui-1-1", "page": 1, "subtype": "Highlight"},
        {"annotationId": "siftui-1-2", "page": 2, "subtype": "Highlight"},
    ]
    editing.copy.undo()
    assert editing.copy.annotations() == [] and editing.copy.revision == 2
    editing.copy.redo()
    assert [a.annotation_id for a in editing.copy.annotations()] == ["siftui-1-1", "siftui-1-2"]


def test_refs_that_cannot_be_annotated(editing: Editing, tmp_path: Path) -> None:
    ocr = editing.session.issue_ref(
        "doc-1", editing.session.ref(editing.ref(1, "beta")).pieces, Utf16Text("beta")
    )
    with pytest.raises(EvidenceError, match=rf"^{ocr} is OCR text: annotate native text"):
        create(editing, ocr, 0)
    with pytest.raises(EvidenceError, match=r'^unknown refId "ref-99"$'):
        create(editing, "ref-99", 0)
    other = make_lines_pdf(tmp_path / "other.pdf", pages=1)
    texts = [page.get_text() for page in pymupdf.open(other).pages()]
    editing.session.pdf_open(
        path=str(other),
        read=DocumentRead(
            real_path=str(other), content_version="v-other", title="", page_count=1, pages=texts
        ),
    )
    foreign = editing.session.issue_ref("doc-2", editing.session.ref(editing.ref(1, "beta")).pieces)
    with pytest.raises(EvidenceError, match=f"^{foreign} belongs to doc-2, not doc-1$"):
        create(editing, foreign, 0)
    assert editing.copy.revision == 0


def test_text_the_glyphs_do_not_draw_is_not_placed(tmp_path: Path) -> None:
    """A session whose page text is not the file's (here: one word changed) cannot
    place it: nothing is guessed."""
    path = make_lines_pdf(tmp_path / "lines.pdf", pages=1)
    editing = open_editing(path, tmp_path / "drafts")
    texts = [page.get_text().replace("beta", "bete") for page in pymupdf.open(path).pages()]
    editing.session.pdf_open(
        path="x",
        read=DocumentRead(
            real_path="x", content_version="v-x", title="", page_count=1, pages=texts
        ),
    )
    document = editing.session.document("doc-2")
    start = document.texts[0].text.index("bete")
    from siftui.core.evidence.page_read import Piece

    ref_id = editing.session.issue_ref("doc-2", (Piece(1, start, start + 4, "bete"),))
    with pytest.raises(EvidenceError) as refused:
        annotation_create(
            editing.session, editing.copy, "doc-2",
            Create(0, "Highlight", {"kind": "reference", "refId": ref_id}),
        )  # fmt: skip
    assert (
        str(refused.value) == f"the text of {ref_id} cannot be placed on page 1: nothing annotated"
    )


def region(
    editing: Editing, rect: Sequence[float], revision: int = 0, page: int = 1
) -> dict[str, object]:
    target = {"kind": "pdf-region", "page": page, "rectPdf": rect}
    asked = Create(revision, "Text", target, comment="look")
    return annotation_create(editing.session, editing.copy, "doc-1", asked)


def test_region_notes_and_their_checks(editing: Editing) -> None:
    made = region(editing, [100, 100, 124.5, 124])
    assert made["annotations"] == [{"annotationId": "siftui-1-1", "page": 1, "subtype": "Text"}]
    (note,) = editing.copy.annotations(1)
    assert note.rect == (100, 100, 124.5, 124) and note.comment == "look"
    for bad in ([100, 100, 100.5, 124], [10, 10, 5, 20], [600, 700, 620, 720], [-1, 0, 10, 10]):
        with pytest.raises(EvidenceError) as refused:
            region(editing, bad, revision=1)
        assert str(refused.value) == "rectPdf must lie inside page 1 (0 0 612 792)"
    with pytest.raises(EvidenceError, match=r"^page out of range \(1-2\)$"):
        region(editing, [1, 1, 20, 20], revision=1, page=3)
    with pytest.raises(
        EvidenceError, match=r'^subtype "Text" takes a target of kind "pdf-region"$'
    ):
        annotation_create(
            editing.session, editing.copy, "doc-1",
            Create(1, "Text", {"kind": "reference", "refId": "ref-1"}),
        )  # fmt: skip
    with pytest.raises(EvidenceError, match=r'^argument "color" must be "#rrggbb"$'):
        create(editing, editing.ref(1, "beta"), 1, color="yellow")


def test_update_keeps_identity_author_and_rect(editing: Editing) -> None:
    create(editing, editing.ref(1, "beta"), 0)
    (before,) = editing.copy.annotations(1)
    asked = Update(1, "siftui-1-1", color="#00FF00", comment="the point")
    result = annotation_update(editing.session, editing.copy, "doc-1", asked)
    assert result == {"documentId": "doc-1", "revision": 2, "annotationId": "siftui-1-1"}
    (after,) = editing.copy.annotations(1)
    assert (after.annotation_id, after.xref, after.author, after.rect, after.quads) == (
        before.annotation_id, before.xref, before.author, before.rect, before.quads,
    )  # fmt: skip
    assert (after.color, after.comment) == ("#00ff00", "the point")
    with pytest.raises(EvidenceError, match=r"^give color or comment$"):
        annotation_update(editing.session, editing.copy, "doc-1", Update(2, "siftui-1-1"))
    with pytest.raises(EvidenceError) as unknown:
        annotation_update(editing.session, editing.copy, "doc-1", Update(2, "nope", comment="x"))
    assert str(unknown.value) == 'unknown annotationId "nope": list them (pdf_annotation_list)'


def test_delete_takes_the_replies_first(tmp_path: Path) -> None:
    path = make_lines_pdf(tmp_path / "replies.pdf", pages=1)
    with pymupdf.open(path) as document:
        page = document[0]
        parent = page.add_text_annot((300, 300), "parent")
        reply = page.add_text_annot((330, 300), "reply")
        answer = page.add_text_annot((360, 300), "answer to the reply")
        ink = page.add_ink_annot([[(400, 400), (420, 430)]])
        document.xref_set_key(reply.xref, "IRT", f"{parent.xref} 0 R")
        document.xref_set_key(answer.xref, "IRT", f"{reply.xref} 0 R")
        names = {
            "parent": document.xref_get_key(parent.xref, "NM")[1],
            "reply": document.xref_get_key(reply.xref, "NM")[1],
            "answer": document.xref_get_key(answer.xref, "NM")[1],
            "ink": document.xref_get_key(ink.xref, "NM")[1],
        }
        document.saveIncr()
    editing = open_editing(path, tmp_path / "drafts")
    listed = annotation_list(editing.session, editing.copy, "doc-1")
    items = listed["items"]
    assert isinstance(items, list)
    assert [item["inReplyTo"] for item in items] == [None, names["parent"], names["reply"], None]
    assert [item["editable"] for item in items] == [True, True, True, False]
    with pytest.raises(EvidenceError) as refused:
        annotation_delete(
            editing.session, editing.copy, "doc-1", expected_revision=0, annotation_id=names["ink"]
        )
    assert str(refused.value) == f"{names['ink']} is a Ink: not editable here"
    result = annotation_delete(
        editing.session, editing.copy, "doc-1", expected_revision=0, annotation_id=names["parent"]
    )
    assert result["deleted"] == [names["answer"], names["reply"], names["parent"]]
    assert [a.annotation_id for a in editing.copy.annotations()] == [names["ink"]]
    editing.copy.undo()
    assert len(editing.copy.annotations()) == 4


def test_the_list_follows_its_cursors_over_a_snapshot(editing: Editing) -> None:
    for number, word in enumerate(("Alpha", "beta", "gamma", "delta", "zeta")):
        create(editing, editing.ref(1, word), number)
    first = annotation_list(editing.session, editing.copy, "doc-1", limit=2)
    assert (first["total"], first["revision"], first["nextCursor"]) == (5, 5, "cur-1")
    create(editing, editing.ref(2, "Alpha"), 5)  # a change while listing
    items = first["items"]
    assert isinstance(items, list)
    seen = list(items)
    cursor = first["nextCursor"]
    while cursor is not None:
        more = annotation_list(editing.session, editing.copy, "doc-1", cursor=str(cursor))
        more_items = more["items"]
        assert isinstance(more_items, list)
        seen.extend(more_items)
        cursor = more["nextCursor"]
    assert [item["annotationId"] for item in seen] == [f"siftui-{n}-1" for n in range(1, 6)]
    with pytest.raises(EvidenceError, match=r"^a continuation takes"):
        annotation_list(editing.session, editing.copy, "doc-1", cursor="cur-1", limit=3)
    with pytest.raises(EvidenceError, match=r'^unknown cursor "cur-9": list again$'):
        annotation_list(editing.session, editing.copy, "doc-1", cursor="cur-9")
    page_two = annotation_list(editing.session, editing.copy, "doc-1", page=2)
    assert page_two["total"] == 1 and page_two["revision"] == 6
