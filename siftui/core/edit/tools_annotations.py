"""E13-E15: annotations made from native references or as region notes, updated in
place, deleted with their replies. Each write is one transaction of the working copy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from siftui.core.arguments import echoed
from siftui.core.edit.annotations import Annotation
from siftui.core.edit.copy import EditableCopy
from siftui.core.edit.geometry import boxes_of, overlap, same_numbers
from siftui.core.edit.operations import (
    AGENT_AUTHOR,
    AddAnnotation,
    DeleteAnnotation,
    Operation,
    Quad,
    Rect,
    Transaction,
    UpdateAnnotation,
)
from siftui.core.edit.placement import cannot_place, place_piece
from siftui.core.edit.targets import (
    check_color,
    check_comment,
    check_region,
    reference_of,
    target_kind,
)
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import Document
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_whole

__all__ = [
    "Create",
    "Update",
    "annotation_create",
    "annotation_delete",
    "annotation_update",
    "find_annotation",
]


@dataclass(frozen=True, slots=True)
class Create:
    """E13's checked arguments (documentId aside), and who makes the change."""

    expected_revision: int
    subtype: str
    target: Mapping[str, object]
    color: str | None = None
    comment: str | None = None
    tool: str = ""
    origin: str = "agent"

    @classmethod
    def asked(cls, arguments: Mapping[str, Any], tool: str) -> Create:
        """The wire arguments as the tool's schema checked them."""
        return cls(
            arguments["expectedRevision"],
            arguments["subtype"],
            arguments["target"],
            arguments.get("color"),
            arguments.get("comment"),
            tool,
        )


@dataclass(frozen=True, slots=True)
class Update:
    """E14's checked arguments (documentId aside), and who makes the change."""

    expected_revision: int
    annotation_id: str
    color: str | None = None
    comment: str | None = None
    tool: str = ""
    origin: str = "agent"

    @classmethod
    def asked(cls, arguments: Mapping[str, Any], tool: str) -> Update:
        """The wire arguments as the tool's schema checked them."""
        return cls(
            arguments["expectedRevision"],
            arguments["annotationId"],
            arguments.get("color"),
            arguments.get("comment"),
            tool,
        )


@dataclass(frozen=True, slots=True)
class _Wanted:
    """One annotation a create call asks for, before it is named."""

    page: int
    subtype: str
    quads: tuple[Quad, ...]
    rect: Rect | None
    color: str
    comment: str

    def same_as(self, other: Annotation) -> bool:
        if (other.page, other.subtype, other.color, other.comment) != (
            self.page,
            self.subtype,
            self.color,
            self.comment,
        ):
            return False
        if self.rect is not None:
            return not other.quads and same_numbers(self.rect, other.rect)
        return len(other.quads) == len(self.quads) and all(
            same_numbers(mine, theirs) for mine, theirs in zip(self.quads, other.quads, strict=True)
        )

    def boxes(self) -> list[Rect]:
        return boxes_of(self.quads, self.rect or (0.0, 0.0, 0.0, 0.0))


def annotation_create(
    state: SessionState, copy: EditableCopy, document_id: str, asked: Create
) -> dict[str, object]:
    """E13."""
    document = state.document(document_id)
    subtype, target, expected_revision = asked.subtype, asked.target, asked.expected_revision
    kind = target_kind(subtype, target)
    shade, text = check_color(asked.color), check_comment(asked.comment)
    copy.check(expected_revision)
    if kind == "reference":
        wanted = _from_reference(state, copy, document, reference_of(target), subtype, shade, text)
    else:
        region = check_region(target, copy.page_count, copy.media_box)
        wanted = [_Wanted(region.page, subtype, (), region.rect, shade, text)]
    answered: list[str | None] = []
    for one in wanted:
        answered.append(_existing(one, copy.annotations(one.page)))
    new = [one for one, found in zip(wanted, answered, strict=True) if found is None]
    revision = copy.revision if not new else expected_revision + 1
    names = iter(f"siftui-{revision}-{i}" for i in range(1, len(new) + 1))
    ids = [found if found is not None else next(names) for found in answered]
    result = fit_whole(
        {
            "documentId": document_id,
            "revision": revision,
            "annotations": [
                {"annotationId": name, "page": one.page, "subtype": one.subtype}
                for name, one in zip(ids, wanted, strict=True)
            ],
            "reused": not new,
        },
        state.budget,
    )
    if new:
        date = copy.now()
        operations = tuple(
            AddAnnotation(
                one.page,
                one.subtype,
                one.quads,
                one.rect,
                one.color,
                one.comment,
                name,
                AGENT_AUTHOR,
                date,
            )
            for one, found, name in zip(wanted, answered, ids, strict=True)
            if found is None
        )
        copy.commit(expected_revision, Transaction(operations, asked.tool, asked.origin))
    return result


def _from_reference(
    state: SessionState,
    copy: EditableCopy,
    document: Document,
    ref_id: str,
    subtype: str,
    color: str,
    comment: str,
) -> list[_Wanted]:
    ref = state.ref(ref_id)
    if ref.document_id != document.document_id:
        raise EvidenceError(f"{ref_id} belongs to {ref.document_id}, not {document.document_id}")
    if ref.source != "native":
        raise EvidenceError(
            f"{ref_id} is OCR text: annotate native text (pdf_page_read) or a pdf-region note"
        )
    quads: dict[int, list[Quad]] = {}
    for piece in ref.pieces:
        if not piece.units:
            continue
        placed = place_piece(ref_id, piece, document.texts[piece.page - 1], copy.glyphs(piece.page))
        quads.setdefault(piece.page, []).extend(placed)
    if not quads:  # a ref has a piece with units: place_piece refused it or placed it
        raise cannot_place(ref_id, ref.pieces[0].page)
    return [
        _Wanted(page, subtype, tuple(page_quads), None, color, comment)
        for page, page_quads in sorted(quads.items())
    ]


def _existing(wanted: _Wanted, annotations: Sequence[Annotation]) -> str | None:
    """The id of an equal annotation, None when there is none; the overlap refusal
    when one of the same subtype overlaps it otherwise."""
    for annotation in annotations:
        if wanted.same_as(annotation):
            return annotation.annotation_id
    for annotation in annotations:
        if annotation.subtype == wanted.subtype and overlap(
            wanted.boxes(), boxes_of(annotation.quads, annotation.rect)
        ):
            raise EvidenceError(
                f"overlaps {annotation.annotation_id} on page {wanted.page}: update it "
                "(pdf_annotation_update) or delete it first"
            )
    return None


def find_annotation(copy: EditableCopy, annotation_id: str) -> Annotation:
    """The editable annotation ``annotation_id`` of the draft, or E14's refusals."""
    for annotation in copy.annotations():
        if annotation.annotation_id == annotation_id:
            if not annotation.editable:
                raise EvidenceError(f"{annotation_id} is a {annotation.subtype}: not editable here")
            return annotation
    raise EvidenceError(
        f'unknown annotationId "{echoed(annotation_id)}": list them (pdf_annotation_list)'
    )


def annotation_update(
    state: SessionState, copy: EditableCopy, document_id: str, asked: Update
) -> dict[str, object]:
    """E14: color and comment changed in place."""
    state.document(document_id)
    expected_revision, annotation_id = asked.expected_revision, asked.annotation_id
    color, comment = asked.color, asked.comment
    if color is None and comment is None:
        raise EvidenceError("give color or comment")
    shade = None if color is None else check_color(color)
    text = None if comment is None else check_comment(comment)
    copy.check(expected_revision)
    found = find_annotation(copy, annotation_id)
    result = fit_whole(
        {
            "documentId": document_id,
            "revision": expected_revision + 1,
            "annotationId": annotation_id,
        },
        state.budget,
    )
    operation = UpdateAnnotation(found.page, annotation_id, shade, text, copy.now())
    copy.commit(expected_revision, Transaction((operation,), asked.tool, asked.origin))
    return result


def annotation_delete(
    state: SessionState,
    copy: EditableCopy,
    document_id: str,
    *,
    expected_revision: int,
    annotation_id: str,
    tool: str = "",
    origin: str = "agent",
) -> dict[str, object]:
    """E15: the annotation and its replies (those whose /IRT leads to it), replies first."""
    state.document(document_id)
    copy.check(expected_revision)
    find_annotation(copy, annotation_id)
    listed = copy.annotations()
    pages = {annotation.annotation_id: annotation.page for annotation in listed}
    order = replies_first(listed, annotation_id)
    result = fit_whole(
        {"documentId": document_id, "revision": expected_revision + 1, "deleted": order},
        state.budget,
    )
    operations: tuple[Operation, ...] = tuple(DeleteAnnotation(pages[name], name) for name in order)
    copy.commit(expected_revision, Transaction(operations, tool, origin))
    return result


def replies_first(annotations: Sequence[Annotation], annotation_id: str) -> list[str]:
    """``annotation_id`` after its replies, each reply after its own replies."""
    replies: dict[str, list[str]] = {}
    for annotation in annotations:
        if annotation.in_reply_to is not None:
            replies.setdefault(annotation.in_reply_to, []).append(annotation.annotation_id)
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:  # a loop of /IRT: each once
            return
        seen.add(name)
        for reply in replies.get(name, ()):
            visit(reply)
        order.append(name)

    visit(annotation_id)
    return order
