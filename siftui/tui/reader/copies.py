"""The reader's tabs on the host's working copies (siftui.sources.edit): one per file,
shared with every agent's session that opens it.

:class:`CopiesBackend` opens a file as the host's
:class:`~siftui.sources.edit.registry.WorkingCopies` does for a session (the same
copy, draft, revision and undo history); :class:`CopyView` is one tab's view of it:
the draft's page drawn, its annotations as E12 lists them, the outline and fields,
and the person's changes, each a transaction with ``origin="person"``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from siftui.core.edit.annotations import Annotation, DraftChanges
from siftui.core.edit.forms import value_text
from siftui.core.edit.operations import DeleteAnnotation, FieldValue, Quad, Transaction
from siftui.core.edit.outline import outline_marks
from siftui.core.edit.outline_ops import OUTLINE_OPERATIONS
from siftui.core.edit.tools_annotations import replies_first
from siftui.core.evidence.errors import EvidenceError
from siftui.core.halfblocks import Pixels
from siftui.core.reader import (
    AnnotationRow,
    ChangeLine,
    FieldRow,
    OutlineRow,
    Registration,
)
from siftui.sources.edit.forms_copy import FieldChange, field_changes
from siftui.sources.edit.registry import WorkingCopies
from siftui.sources.edit.working_copy import WorkingCopy
from siftui.sources.pdf_open import (
    PASSWORD_HINT,
    ExtractError,
    NeedsPassword,
    WrongPassword,
    check_file,
    open_document,
)
from siftui.sources.reader_page import field_rows, page_pixels
from siftui.sources.unlocked import Unlocked
from siftui.tui.reader.model import EditRefused, OpenRefused


def annotation_row(annotation: Annotation) -> AnnotationRow:
    return AnnotationRow(
        annotation.annotation_id,
        annotation.page,
        annotation.subtype,
        annotation.comment,
        annotation.author,
    )


def _described(annotation: Annotation) -> str:
    comment = f' "{annotation.comment}"' if annotation.comment else ""
    author = f" by {annotation.author}" if annotation.author else ""
    return f"{annotation.subtype} {annotation.annotation_id}{author}{comment}"


def change_lines(changes: DraftChanges) -> tuple[ChangeLine, ...]:
    """The save dialog's lines: each annotation added, changed (old and new comment and
    color) or deleted, per page."""
    lines: list[ChangeLine] = []
    for change in changes.changes:
        if change.before is None and change.after is not None:
            lines.append(ChangeLine(change.page, f"added   {_described(change.after)}"))
        elif change.after is None and change.before is not None:
            lines.append(ChangeLine(change.page, f"deleted {_described(change.before)}"))
        elif change.before is not None and change.after is not None:
            before, after = change.before, change.after
            what = [f"changed {after.subtype} {after.annotation_id}:"]
            if before.comment != after.comment:
                what.append(f'comment "{before.comment}" -> "{after.comment}"')
            if before.color != after.color:
                what.append(f"color {before.color} -> {after.color}")
            lines.append(ChangeLine(change.page, " ".join(what)))
    return tuple(lines)


def field_lines(changes: list[FieldChange]) -> tuple[ChangeLine, ...]:
    """The save dialog's lines for the fields the draft fills: old and new value."""
    return tuple(
        ChangeLine(
            change.page,
            f'field "{change.name}": {_field_value(change.before)} -> {_field_value(change.after)}',
        )
        for change in changes
    )


def _field_value(value: FieldValue | None) -> str:
    return "(none)" if value is None else value_text(value)


class CopyView:
    """One tab's view of a working copy (the copy keeps its own lock)."""

    def __init__(self, copies: WorkingCopies, copy: WorkingCopy, note: str) -> None:
        self._copies = copies
        self.copy = copy
        self._note = note
        self._released = False
        self._stops: list[Callable[[], None]] = []

    @property
    def path(self) -> Path:
        return Path(self.copy.path)

    @property
    def note(self) -> str:
        return self._note

    def pages(self) -> int:
        return self.copy.page_count

    def revision(self) -> int:
        return self.copy.revision

    def unsaved(self) -> bool:
        return self.copy.unsaved

    def page_pixels(self, page: int, marks: tuple[Quad, ...] = ()) -> Pixels:
        with self.copy.reading() as document:
            return page_pixels(document, page, marks=marks)

    def annotations(self, page: int) -> list[AnnotationRow]:
        return [annotation_row(annotation) for annotation in self.copy.annotations(page)]

    def outline(self) -> list[OutlineRow]:
        """The draft's outline, each item the draft changed marked."""
        marks = outline_marks(
            op
            for one in self.copy.transactions
            for op in one.operations
            if isinstance(op, OUTLINE_OPERATIONS)
        )
        return [
            OutlineRow(entry.level, entry.title, entry.page, marks.get(entry.outline_id, ""))
            for entry in self.copy.outline().entries()
        ]

    def fields(self, page: int) -> list[FieldRow]:
        with self.copy.reading() as document, self.copy.reading(file=True) as file:
            return field_rows(document, page, file)

    def changes(self) -> tuple[ChangeLine, ...]:
        bookmarks = tuple(ChangeLine(None, line) for line in self.copy.outline_lines())
        fields = field_lines(field_changes(self.copy))
        return change_lines(self.copy.changes()) + fields + bookmarks

    def undo(self) -> str:
        try:
            revision = self.copy.undo()
        except EvidenceError as error:
            raise EditRefused(error.message) from None
        return f"Undone: {self.path.name} is at revision {revision}."

    def redo(self) -> str:
        try:
            revision = self.copy.redo()
        except EvidenceError as error:
            raise EditRefused(error.message) from None
        return f"Redone: {self.path.name} is at revision {revision}."

    def delete_annotation(self, annotation_id: str) -> str:
        copy = self.copy
        listed = copy.annotations()
        pages = {annotation.annotation_id: annotation.page for annotation in listed}
        if annotation_id not in pages:
            raise EditRefused(f'unknown annotationId "{annotation_id}"')
        order = replies_first(listed, annotation_id)
        operations = tuple(DeleteAnnotation(pages[name], name) for name in order)
        try:
            revision = copy.commit(
                copy.revision, Transaction(operations, "reader:delete", "person")
            )
        except EvidenceError as error:  # the agent changed the draft meanwhile
            raise EditRefused(error.message) from None
        return f"Deleted {', '.join(order)}: {self.path.name} is at revision {revision}."

    def discard(self) -> str:
        revision = self.copy.discard()
        return f"The draft of {self.path.name} is discarded: revision {revision}."

    def listen(self, changed: Callable[[], None]) -> None:
        self._stops.append(self.copy.listen(lambda _revised: changed()))

    def release(self) -> None:
        for stop in self._stops:
            stop()
        self._stops.clear()
        if not self._released:
            self._released = True
            self._copies.release(self.copy.path)


class CopiesBackend:
    """Opens files as the host's working copies; says where the host listens. An
    encrypted PDF the person opens with its password is told to ``unlocked`` (the
    host's, siftui.sources.unlocked: its agents may then read those bytes)."""

    def __init__(
        self,
        copies: WorkingCopies,
        registration: Registration | None = None,
        log_path: Path | None = None,
        unlocked: Unlocked | None = None,
    ) -> None:
        self.copies = copies
        self._registration = registration
        self._log = log_path
        self._unlocked = unlocked

    @property
    def registration(self) -> Registration | None:
        return self._registration

    @property
    def log_path(self) -> Path | None:
        return self._log

    def open(self, path: Path, password: str | None) -> CopyView:
        """The working copy of ``path`` (its real path, as the host's sessions name it)."""
        try:
            real = path.expanduser().resolve()
            data = check_file(real).read_bytes()
            # MuPDF's own check first: a damaged or encrypted file is one line. The password
            # is checked on the very bytes the working copy is made of.
            document = open_document(real, password, data=data)
            unlocks = password is not None and bool(document.needs_pass)
            document.close()
        except (NeedsPassword, WrongPassword) as error:
            # The reader asks for the password itself: it has no --password to point to.
            said = str(error).removesuffix(PASSWORD_HINT)
            raise OpenRefused(said, needs_password=True) from None
        except ExtractError as error:
            raise OpenRefused(str(error)) from None
        except OSError as error:
            raise OpenRefused(f"{path}: {error.strerror or error}") from None
        try:
            opened = self.copies.open(str(real), data, password)
        except EvidenceError as error:
            raise OpenRefused(error.message) from None
        if unlocks and password is not None and self._unlocked is not None:
            self._unlocked.learn(str(real), opened.copy.sha256, password)
        note = opened.note.message if opened.note is not None else ""
        if opened.copy.rewrites_whole:  # the reason says that a save rewrites it whole
            whole = f"{real.name}: {opened.copy.rewrites_whole}"
            note = f"{note}; {whole}" if note else whole
        return CopyView(self.copies, opened.copy, note)

    def view_of(self, path: str) -> CopyView | None:
        """The working copy of the real ``path`` if one is open (a save's dialog)."""
        copy = self.copies.get(path)
        return CopyView(self.copies, copy, "") if copy is not None else None
