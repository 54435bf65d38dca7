"""The working copy of one PDF: the file's bytes, the draft, the revision, undo/redo.

The draft is the file's bytes with the surviving transactions replayed on them
(``History.applied``); the current draft is kept open in MuPDF so a write applies
only its own operations, and an undo replays the rest from the bytes. Every change
(write, undo, redo, discard, save) is one new revision, is kept on disk by the
``DraftStore`` before it is told, and is told to each listener (the reader, the
host) as a ``Revised``. Every method is safe to call from several threads: one lock
(``documents.MUPDF``) for every copy, listeners called after it is released.

Page text, and so every reference, is the text of the file's bytes: glyphs are
read from the file, never from the draft. What the copy read of its pages is kept in
a ``PageCache``, called under the same lock.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any

from siftui.core.edit.annotations import Annotation, DraftChanges, annotation_changes
from siftui.core.edit.history import History, stale_while_waiting
from siftui.core.edit.operations import Operation, Rect, Transaction
from siftui.core.edit.outline import OutlineTree
from siftui.core.edit.outline_ops import OUTLINE_OPERATIONS, annotation_pages
from siftui.core.edit.placement import PageGlyphs
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit.apply import ApplyError, apply_operation
from siftui.sources.edit.documents import (
    MUPDF,
    Fingerprint,
    is_encrypted,
    later,
    open_pdf,
    retire,
    unchanged,
)
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.outline import DraftOutline
from siftui.sources.edit.page_cache import PageCache
from siftui.sources.edit.save import FileBytes, Written, still_encrypted, whole_reason, write_beside
from siftui.sources.edit.told import Listeners, Revised, Saved, content_version_of
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()

__all__ = ["Revised", "Saved", "WorkingCopy", "content_version_of"]


class WorkingCopy:
    """One file's draft. ``path`` is its real path; ``data`` the bytes read from it."""

    def __init__(
        self,
        path: str,
        data: bytes,
        *,
        store: DraftStore | None = None,
        history: History | None = None,
        password: str | None = None,
        seen: Fingerprint | None = None,
    ) -> None:
        """``seen``: the fingerprint of the file when ``data`` was read from it (a save
        then re-checks the bytes without reading them while the file still shows it)."""
        self.path = path
        self._store = store
        self._password = password
        self._lock = MUPDF  # one lock for every copy: PyMuPDF takes one thread at a time
        self._listeners = Listeners()  # told without waiting for MuPDF
        self._history = history or History()
        self._outline = DraftOutline.of(self._history)
        self._pages = PageCache()  # called under the lock only (see page_cache)
        self._start(FileBytes(data), hashlib.sha256(data), seen)
        self._file = self._open()
        self._draft = self._replayed(self._history.applied)

    # -- the bytes and the documents --------------------------------------------

    def _open(self) -> Any:
        document = open_pdf(self._bytes.get(), self._password, self.path)
        self.encrypted = is_encrypted(document)
        return document

    def _start(self, data: FileBytes, digest: Any, seen: Fingerprint | None) -> None:
        """The bytes the copy starts from (the file's), before any document is opened."""
        self._bytes = data
        self._digest = digest  # sha256 of ``data``, continued by an incremental save
        self.sha256 = digest.hexdigest()
        self._seen = seen

    def _new_draft(self, document: Any) -> None:
        """``document`` is the draft now; the one it replaces is closed off the path."""
        if self._draft is not self._file and self._draft is not document:
            retire(self._draft)
        self._draft = document

    def _writable(self) -> None:
        """After a save the draft is the file's document: a change gets its own."""
        if self._draft is self._file:
            self._draft = self._replayed(self._history.applied)

    def _replayed(self, transactions: Sequence[Transaction]) -> Any:
        document = self._open()
        for transaction in transactions:
            for operation in transaction.operations:
                self._apply(document, operation)
        return document

    def _apply(self, document: Any, operation: Operation) -> None:
        if isinstance(operation, OUTLINE_OPERATIONS):
            self._outline.apply(document, operation)
        else:
            apply_operation(document, operation)

    @property
    def content_version(self) -> str:
        return content_version_of(self.sha256)

    @property
    def data(self) -> bytes:
        """The file's bytes the working copy started from."""
        return self._bytes.get()

    @property
    def revision(self) -> int:
        return self._history.revision

    @property
    def unsaved(self) -> bool:
        return self._history.unsaved

    @property
    def can_undo(self) -> bool:
        return bool(self._history.applied)

    @property
    def can_redo(self) -> bool:
        return bool(self._history.undone)

    @property
    def transactions(self) -> tuple[Transaction, ...]:
        """The surviving transactions, oldest first (replayed, they give the draft)."""
        with self._lock:
            return tuple(self._history.applied)

    @property
    def page_count(self) -> int:
        return int(self._file.page_count)

    @property
    def rewrites_whole(self) -> str:
        """Why a save would rewrite the file whole ("" when it appends to it)."""
        with self._lock:
            return whole_reason(self._draft)

    def detach(self) -> None:
        """Keeps no more drafts on disk (another copy of the file took its place)."""
        with self._lock:
            self._store = None

    def close(self) -> None:
        """Lets go of the documents (closed in the background); the draft stays on disk."""
        with self._lock:
            if self._draft is not self._file:
                retire(self._draft)
            retire(self._file)

    # -- what the tools read ----------------------------------------------------

    def annotations(self, page: int | None = None) -> list[Annotation]:
        """The draft's listed annotations: of ``page``, or of every page in order."""
        return self._listed(self._draft, page, draft=True)

    def file_annotations(self, page: int | None = None) -> list[Annotation]:
        """The file's own annotations (without the draft's changes)."""
        return self._listed(self._file, page, draft=False)

    def _listed(self, document: Any, page: int | None, *, draft: bool) -> list[Annotation]:
        with self._lock:
            pages = range(1, self.page_count + 1) if page is None else (page,)
            return self._pages.annotations(document, pages, draft=draft)

    def outline(self) -> OutlineTree:
        """The draft's outline (a copy: E16 checks its operations on it)."""
        with self._lock:
            return self._outline.tree(self._draft)

    def outline_lines(self) -> list[str]:
        """The draft's bookmark operations, one line each (the save dialog's)."""
        with self._lock:
            return self._outline.lines(self._file, self._history.applied)

    def changes(self) -> DraftChanges:
        """The draft against its file, per page (the save dialog's list)."""
        with self._lock:
            # only pages a surviving transaction touched can differ
            pages = sorted(
                annotation_pages(op for one in self._history.applied for op in one.operations)
            )
            before: list[Annotation] = []
            after: list[Annotation] = []
            for page in pages:
                before.extend(self.file_annotations(page))
                after.extend(self.annotations(page))
            return annotation_changes(before, after)

    def glyphs(self, page: int) -> PageGlyphs:
        with self._lock:
            return self._pages.glyphs(self._file, page)

    def warm(self, pages: Iterable[int]) -> None:
        """Reads these pages' glyphs in the background, one page at a time (a host
        calls it for the pages it issued refs on: a highlight from one of them then
        does not wait for MuPDF's text page, 20-60 ms a page of pgfmanual)."""
        for page in sorted(set(pages)):
            if 1 <= page <= self.page_count and not self._pages.has_glyphs(page):
                later(partial(self.glyphs, page))

    def media_box(self, page: int) -> Rect:
        with self._lock:
            box = self._file[page - 1].mediabox  # the /MediaBox's numbers, as stored
            return (float(box.x0), float(box.y0), float(box.x1), float(box.y1))

    def now(self) -> str:
        return time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime())

    @contextmanager
    def reading(self, file: bool = False) -> Iterator[Any]:
        """The draft's PyMuPDF document (the file's with ``file``), to draw or read, while
        nothing changes it (and no other thread calls PyMuPDF); valid inside the ``with``."""
        with self._lock:
            yield self._file if file else self._draft

    def listen(self, listener: Callable[[Revised], None]) -> Callable[[], None]:
        """Calls ``listener`` after every change; returns what stops it."""
        return self._listeners.listen(listener)

    # -- changes --------------------------------------------------------------------

    def check(self, expected_revision: int) -> None:
        with self._lock:
            self._history.check(expected_revision)

    def _keep(self) -> None:
        if self._store is None:
            return
        if self._history.applied or self._history.undone:
            self._store.keep(self.path, self.sha256, self._history)
        else:
            self._store.remove(self.path)

    def _forget_pages(self, transaction: Transaction | None) -> tuple[int, ...]:
        if transaction is None:
            self._pages.forget_draft()
            return ()
        pages = tuple(sorted(annotation_pages(transaction.operations)))
        self._pages.forget_draft(pages)
        return pages

    def commit(self, expected_revision: int, transaction: Transaction) -> int:
        """Applies ``transaction`` whole as the next revision, or nothing: the revision
        message when ``expected_revision`` is not the revision."""
        with self._lock:
            self._history.check(expected_revision)
            self._writable()
            try:
                for operation in transaction.operations:
                    self._apply(self._draft, operation)
            except (ApplyError, RuntimeError, ValueError) as error:
                self._new_draft(self._replayed(self._history.applied))
                self._pages.forget_draft()
                raise EvidenceError(f"the draft could not take the change: {error}") from None
            revision = self._history.commit(transaction)
            pages = self._forget_pages(transaction)
            self._keep()
            change = Revised(revision, "write", transaction, self.unsaved, pages)
        self._listeners.tell(change)
        return revision

    def undo(self, expected_revision: int | None = None) -> int:
        """Takes back the newest transaction whole (``nothing to undo`` without one)."""
        with self._lock:
            if expected_revision is not None:
                self._history.check(expected_revision)
            transaction = self._history.undo()
            self._new_draft(self._replayed(self._history.applied))
            # The replay makes the same objects as before on every other page.
            pages = self._forget_pages(transaction)
            self._keep()
            change = Revised(self.revision, "undo", transaction, self.unsaved, pages)
        self._listeners.tell(change)
        return change.revision

    def redo(self, expected_revision: int | None = None) -> int:
        """Puts back the transaction undone last (``nothing to redo`` without one)."""
        with self._lock:
            if expected_revision is not None:
                self._history.check(expected_revision)
            transaction = self._history.redo()
            self._writable()
            for operation in transaction.operations:
                self._apply(self._draft, operation)
            pages = self._forget_pages(transaction)
            self._keep()
            change = Revised(self.revision, "redo", transaction, self.unsaved, pages)
        self._listeners.tell(change)
        return change.revision

    def discard(self) -> int:
        """The person's discard (after a confirmation in the reader): the draft is the
        file again, its kept copies on disk (and those kept aside) removed."""
        with self._lock:
            if self._store is not None:
                self._store.remove(self.path, asides=True)
            if not (self._history.applied or self._history.undone):
                return self.revision
            touched = annotation_pages(op for one in self._history.applied for op in one.operations)
            revision = self._history.restart()
            self._new_draft(self._open())
            self._pages.forget_draft(touched)
            change = Revised(revision, "discard", None, False, tuple(sorted(touched)))
        self._listeners.tell(change)
        return revision

    def _restart(self, written: Written, seen: Fingerprint | None) -> None:
        """The copy starts from the saved bytes. Appended to, they are the draft's
        document as it is (same objects): it becomes the file's too, and a next change
        opens a draft of its own; rewritten whole (objects renumbered), it is opened."""
        if written.whole:
            digest = hashlib.sha256(written.added)
        else:
            digest = self._digest.copy()
            digest.update(written.added)
        retire(self._file)
        self._start(written.bytes, digest, seen)
        self._pages.new_file()
        self._outline.reset()
        if written.whole:
            self._new_draft(self._open())
        else:  # joined in the background: the next replay opens them at once
            later(written.bytes.get)
        self._file = self._draft

    def save(self, expected_revision: int, shown_path: str | None = None) -> Saved:
        """E19's write, once the person approved: the re-checks, then the draft's bytes
        over the file. Afterwards the working copy starts from the saved bytes."""
        shown = shown_path or self.path
        with self._lock:
            if self._history.revision != expected_revision:
                raise stale_while_waiting(self._history.revision, expected_revision)
            if not self._history.applied:
                raise EvidenceError("nothing to save: the draft has no changes")
            if not unchanged(self.path, self.sha256, self._seen):
                raise EvidenceError(
                    f"{shown} changed on disk since it was opened: nothing saved"
                    " (the draft is kept)"
                )
            written = write_beside(self.path, self._draft, self._bytes.get(), self._seen)
            try:  # the temporary file and the old file's descriptor go whatever fails
                if self.encrypted and not still_encrypted(written.bytes.get(), self._password):
                    raise EvidenceError(
                        f"{shown} is encrypted and MuPDF cannot keep it so: nothing saved"
                        " (the draft is kept)"
                    )
                seen = written.replace()
            except BaseException:
                written.drop()
                raise
            self._restart(written, seen)
            revision = self._history.restart()
            self._keep()
            saved = Saved(
                revision,
                self.sha256,
                self.content_version,
                written.bytes.size,
                written.whole,
                written.reason,
            )
            change = Revised(revision, "save", None, False, ())
        self._listeners.tell(change)
        return saved
