"""Annotations as plain values: what E12 lists, and a draft's changes against its file.

The sources layer reads them from a PDF (``siftui.sources.edit.scan``); every
coordinate is PDF user space, as the file stores it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from siftui.core.edit.operations import Quad, Rect

__all__ = [
    "EDITABLE",
    "MARKUPS",
    "Annotation",
    "AnnotationChange",
    "DraftChanges",
    "annotation_changes",
    "number_text",
    "rect_wire",
]

MARKUPS = ("Highlight", "Underline", "StrikeOut", "Squiggly")
EDITABLE = frozenset({*MARKUPS, "Text"})
"""The subtypes E14 and E15 take."""


@dataclass(frozen=True, slots=True)
class Annotation:
    """One listed annotation of a page (widgets and links are never one)."""

    annotation_id: str  # its /NM, else "xref-<n>"
    page: int  # 1-based
    subtype: str
    rect: Rect  # its /Rect as stored
    color: str | None  # "#rrggbb" of /C, None when absent
    comment: str  # /Contents, "" when absent
    author: str  # /T, "" when absent
    in_reply_to: str | None  # the annotationId of /IRT
    xref: int
    quads: tuple[Quad, ...] = field(default=())  # /QuadPoints, () when absent

    @property
    def editable(self) -> bool:
        return self.subtype in EDITABLE

    def item(self) -> dict[str, object]:
        """E12's item, keys in EDITING.md's order."""
        return {
            "annotationId": self.annotation_id,
            "page": self.page,
            "subtype": self.subtype,
            "rectPdf": rect_wire(self.rect),
            "color": self.color,
            "comment": self.comment,
            "author": self.author,
            "inReplyTo": self.in_reply_to,
            "editable": self.editable,
        }


def rect_wire(rect: Rect) -> list[float]:
    """A rect's numbers rounded to two decimals (``-0.0`` as ``0.0``)."""
    return [round(number, 2) + 0.0 for number in rect]


def number_text(number: float) -> str:
    """A number in a message: two decimals at most, no trailing zeros (``612``, ``11.99``)."""
    text = f"{round(number, 2) + 0.0:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True, slots=True)
class AnnotationChange:
    """One difference of a draft against its file: ``before`` None when added,
    ``after`` None when deleted, both when changed (color or comment)."""

    page: int
    before: Annotation | None
    after: Annotation | None

    @property
    def kind(self) -> str:
        if self.before is None:
            return "added"
        return "deleted" if self.after is None else "changed"

    @property
    def annotation_id(self) -> str:
        shown = self.after or self.before
        assert shown is not None
        return shown.annotation_id


@dataclass(frozen=True, slots=True)
class DraftChanges:
    """What saving the draft would write, per page in page order (the save dialog)."""

    changes: tuple[AnnotationChange, ...]

    @property
    def empty(self) -> bool:
        return not self.changes

    def pages(self) -> list[int]:
        return sorted({change.page for change in self.changes})

    def on_page(self, page: int) -> list[AnnotationChange]:
        return [change for change in self.changes if change.page == page]

    def counts(self) -> dict[str, int]:
        counted = {"added": 0, "changed": 0, "deleted": 0}
        for change in self.changes:
            counted[change.kind] += 1
        return counted


def annotation_changes(file: Iterable[Annotation], draft: Iterable[Annotation]) -> DraftChanges:
    """The draft's annotations against the file's, matched by annotationId: added,
    changed (color, comment, author or rect differ) and deleted, per page."""
    before = {annotation.annotation_id: annotation for annotation in file}
    after = {annotation.annotation_id: annotation for annotation in draft}
    changes: list[AnnotationChange] = []
    for annotation_id, new in after.items():
        old = before.get(annotation_id)
        if old is None:
            changes.append(AnnotationChange(new.page, None, new))
        elif _shown(old) != _shown(new):
            changes.append(AnnotationChange(new.page, old, new))
    for annotation_id, old in before.items():
        if annotation_id not in after:
            changes.append(AnnotationChange(old.page, old, None))
    order = {"deleted": 0, "changed": 1, "added": 2}
    changes.sort(key=lambda change: (change.page, order[change.kind]))
    return DraftChanges(tuple(changes))


def _shown(annotation: Annotation) -> Sequence[object]:
    return (annotation.subtype, annotation.color, annotation.comment, annotation.author)
