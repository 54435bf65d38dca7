"""A session's state and the look-ups every tool shares (unknown, stale, belongs)."""

from __future__ import annotations

from siftui.core.arguments import echoed
from siftui.core.budget import CHARS, Unit
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.records import Cursor, Document, Image, OcrResult, Ref, Search
from siftui.core.evidence.store import BoundedTable, Counters, Limits
from siftui.core.evidence.utf16 import Utf16Text
from siftui.core.evidence.wire import Budget

__all__ = ["DEFAULT_OUT_CAP", "SessionState"]

DEFAULT_OUT_CAP = 100_000


class SessionState:
    """Everything one session has issued, bounded by ``limits``; each result within
    ``out_cap`` counted in ``unit`` (code points by default, or UTF-8 bytes)."""

    def __init__(
        self, out_cap: int = DEFAULT_OUT_CAP, limits: Limits | None = None, unit: Unit = CHARS
    ) -> None:
        if out_cap < 1:
            raise ValueError("out_cap must be at least 1")
        self.out_cap = out_cap
        self.unit = unit
        self.limits = limits or Limits()
        self.counters = Counters()
        self.documents: BoundedTable[Document] = BoundedTable(
            self.limits.documents, self._forget_document
        )
        self.refs: BoundedTable[Ref] = BoundedTable(self.limits.refs)
        self.searches: BoundedTable[Search] = BoundedTable(self.limits.searches)
        self.cursors: BoundedTable[Cursor] = BoundedTable(self.limits.cursors)
        self.images: BoundedTable[Image] = BoundedTable(self.limits.images)
        self.ocr_results: BoundedTable[OcrResult] = BoundedTable(self.limits.ocr_results)

    @property
    def budget(self) -> Budget:
        """What every result of the session must fit."""
        return Budget(self.out_cap, self.unit)

    # Staleness is observed by the sources layer (it reads the file); the
    # session only remembers what it was told.
    def mark_stale(self, document_id: str, stale: bool = True) -> None:
        document = self.documents.get(document_id)
        if document is not None:
            document.stale = stale

    def is_stale(self, document_id: str) -> bool:
        document = self.documents.get(document_id)
        return document is not None and document.stale

    def known_document(self, document_id: str) -> Document:
        """The open document, stale or not (pdf_status and pdf_close)."""
        document = self.documents.get(document_id)
        if document is None:
            raise EvidenceError(f'unknown documentId "{echoed(document_id)}"')
        return document

    def document(self, document_id: str) -> Document:
        """The open document, refused when its file changed since it was opened."""
        document = self.known_document(document_id)
        if document.stale:
            raise stale_error(document)
        return document

    def ref(self, ref_id: str) -> Ref:
        ref = self.refs.get(ref_id)
        if ref is None:
            raise EvidenceError(f'unknown refId "{echoed(ref_id)}"')
        return ref

    def image(self, image_handle: str) -> tuple[Image, Document]:
        image = self.images.get(image_handle)
        if image is None:
            raise EvidenceError(f'unknown imageHandle "{echoed(image_handle)}"')
        return image, self.document(image.document_id)

    def close(self, document_id: str) -> None:
        document = self.documents.pop(document_id)
        if document is not None:
            self._forget_document(document_id, document)

    def _forget_document(self, document_id: str, _document: Document) -> None:
        def belongs(record: Ref | Search | Cursor | Image | OcrResult) -> bool:
            return record.document_id == document_id

        for table in (self.refs, self.searches, self.cursors, self.images, self.ocr_results):
            table.drop_where(belongs)

    def peek_refs(self, pieces: list[Piece]) -> list[str | None]:
        """The refIds these pieces would get (an empty piece gets none), not issued."""
        names: list[str | None] = []
        issued = 0
        for piece in pieces:
            if piece.units:
                names.append(self.counters.peek("ref", issued))
                issued += 1
            else:
                names.append(None)
        return names

    def issue_ref(
        self, document_id: str, pieces: tuple[Piece, ...], ocr_text: Utf16Text | None = None
    ) -> str:
        """Issue a refId for pieces of native text (or of a kept OCR text they index)."""
        ref_id = self.counters.issue("ref")
        source = "native" if ocr_text is None else "ocr"
        self.refs.put(ref_id, Ref(document_id, source, pieces, ocr_text))
        return ref_id


def stale_error(document: Document) -> EvidenceError:
    return EvidenceError(
        f"{document.document_id} is stale: {document.path} changed since it was opened;"
        " open it again"
    )
