"""The working copies one session holds: its documents' drafts, from the host's registry.

A document's working copy is taken at the session's first edit call on it, from
the bytes its file holds then, which must be those pdf_open read (else the
document is stale). An encrypted PDF opens with the password the person gave
in the reader for those bytes (siftui.sources.unlocked); a save the person
approved keeps it encrypted with that password, so the bytes it wrote stay unlocked.
A save by any session or the reader is told to this session's evidence connection,
so its identities stay valid (E19).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from siftui.core.arguments import echoed
from siftui.core.edit.forms import Inspections, touched_by
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import Document
from siftui.serve.access import Roots
from siftui.serve.edit.state import EditHost
from siftui.serve.evidence.connection import NO_PAGE_IMAGES, EvidenceConnection
from siftui.serve.evidence.files import content_version
from siftui.sources.kinds import HEAD_BYTES, is_pages_head

if TYPE_CHECKING:  # its module loads MuPDF: only once a session edits
    from siftui.sources.edit.working_copy import Revised, WorkingCopy

_CHUNK = 1 << 20


class NotAPdf(EvidenceError):
    """The document is not a PDF (MuPDF read it as text, an EPUB, an image, ...): a
    working copy, its annotations, forms, outline edits and save are a PDF's."""

    def __init__(self, document: Document) -> None:
        super().__init__(
            f"{document.document_id} is not a PDF ({echoed(document.path)}): "
            "the edit tools change PDFs only"
        )


def _read(roots: Roots, given: str) -> bytes:
    opened = roots.open(given)
    try:
        parts = []
        offset = 0
        while chunk := os.pread(opened.fd, _CHUNK, offset):
            parts.append(chunk)
            offset += len(chunk)
        return b"".join(parts)
    finally:
        opened.close()


class HeldCopies:
    """The session's working copies by documentId (released when it ends)."""

    def __init__(self, edit: EditHost, roots: Roots, connection: EvidenceConnection) -> None:
        self.edit = edit
        self.roots = roots
        self.connection = connection
        self._held: dict[str, tuple[WorkingCopy, Callable[[], None]]] = {}
        self.inspections = Inspections()  # E17's, told every change of the copies held

    def copy(self, document_id: str) -> WorkingCopy:
        """The working copy of the (open, not stale) document ``document_id``."""
        self.release_closed()
        state = self.connection.session
        document = state.document(document_id)
        if not self.connection.is_pdf(document_id):
            raise EvidenceError(f"{document_id} has {NO_PAGE_IMAGES}")
        held = self._held.get(document_id)
        if held is not None and held[0].content_version == document.content_version:
            copy = held[0]
        else:
            if held is not None:
                self._release(document_id)
            copy = self._take(document_id, document)
        copy.warm(self._ref_pages(document_id))
        return copy

    def _ref_pages(self, document_id: str) -> set[int]:
        """The pages the session issued native refs on in this document: a highlight from
        one of them then finds its glyphs read (the copy skips pages it has read)."""
        return {
            piece.page
            for ref in self.connection.session.refs.values()
            if ref.document_id == document_id and ref.source == "native"
            for piece in ref.pieces
        }

    def _take(self, document_id: str, document: Document) -> WorkingCopy:
        data = _read(self.roots, document.path)
        sha256 = hashlib.sha256(data).hexdigest()
        if content_version(sha256) != document.content_version:
            self.connection.session.mark_stale(document_id)
            self.connection.session.document(document_id)  # raises the stale line
        if not is_pages_head(data[:HEAD_BYTES]):
            raise NotAPdf(document)  # the decision every reader of the file takes
        connection, real_path = self.connection, document.real_path
        unlocked = connection.files.store.unlocked
        password = unlocked.password(real_path, sha256)
        opened = self.edit.copies.open(real_path, data, password)
        inspections = self.inspections

        def told(change: Revised) -> None:
            inspections.told(
                document_id, touched_by(change.revision, change.kind, change.transaction)
            )
            if change.kind == "save":
                if password is not None:  # the save kept the encryption, with this password
                    unlocked.learn(real_path, opened.copy.sha256, password)
                connection.saved(document_id, opened.copy.sha256, real_path)

        self._held[document_id] = (opened.copy, opened.copy.listen(told))
        return opened.copy

    def _release(self, document_id: str) -> None:
        copy, stop = self._held.pop(document_id)
        stop()
        self.inspections.forget(document_id)
        self.edit.copies.release(copy.path)

    def release_closed(self) -> None:
        """Lets go of the copies of documents the session closed or forgot (pdf_close, or
        its bound on open documents): their drafts stay, as the host's registry keeps them."""
        for document_id in [
            key for key in self._held if key not in self.connection.session.documents
        ]:
            self._release(document_id)

    def release_all(self) -> None:
        for document_id in list(self._held):
            self._release(document_id)
