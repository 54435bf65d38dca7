"""What a session holds: documents, references, searches, cursors, images, OCR texts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from siftui.core.evidence.bookmarks import OutlineTuple
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.search import DocumentSearcher
from siftui.core.evidence.utf16 import Utf16Text

__all__ = ["Cursor", "Document", "Image", "OcrResult", "Ref", "Search"]


@dataclass(slots=True)
class Document:
    document_id: str
    path: str  # as given to pdf_open
    real_path: str  # the key for "the same file"
    content_version: str
    page_count: int
    title: str
    texts: tuple[Utf16Text, ...]  # extracted pages 1..E
    outline: tuple[OutlineTuple, ...]
    searcher: DocumentSearcher
    stale: bool = False


@dataclass(frozen=True, slots=True)
class Ref:
    document_id: str
    source: str  # "native" or "ocr"
    pieces: tuple[Piece, ...]
    ocr_text: Utf16Text | None = None  # what an "ocr" ref's pieces index


@dataclass(slots=True)
class Search:
    document_id: str
    query: str
    match: str
    searched: str  # what is looked for: the query, or its normalized form
    pages: range
    total: int  # every match in ``pages``, counted once
    max_results: int
    position: int = 0  # matches before it were returned
    resume: tuple[int, int] = (1, 0)  # the next is looked for from (page, index)


@dataclass(frozen=True, slots=True)
class Cursor:
    document_id: str
    position: int
    limit: int


@dataclass(frozen=True)
class DocumentRead:
    """What the sources layer read of a document E1 opens: its real path, its bytes'
    content version, title, page count, page texts and outline."""

    real_path: str
    content_version: str
    title: str
    page_count: int
    pages: Sequence[str]
    outline: Sequence[OutlineTuple] = ()


@dataclass(frozen=True)
class RenderedPage:
    """A page as the sources layer drew it for E8 (``lowered``: its dpi was lowered to
    the pixel bound)."""

    png: bytes
    width: int
    height: int
    dpi: int
    lowered: bool


@dataclass(slots=True)
class Image:
    document_id: str
    page: int
    dpi: int
    width: int
    height: int
    png: bytes
    ocr: tuple[Utf16Text, str] | None = field(default=None)  # kept (text, engine)


@dataclass(frozen=True, slots=True)
class OcrResult:
    image_handle: str
    document_id: str
    page: int
    engine: str
    text: Utf16Text
    max_chars: int
