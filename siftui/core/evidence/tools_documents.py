"""E2-E5 and E8's bookkeeping: opening, closing, listing, status, page images."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import Document, DocumentRead, Image, RenderedPage
from siftui.core.evidence.search import DocumentSearcher
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.utf16 import Utf16Text
from siftui.core.evidence.wire import fit_whole

__all__ = [
    "CAPABILITY_NAMES",
    "MAX_RENDER_PIXELS",
    "Capability",
    "close_document",
    "current_documents",
    "document_status",
    "fit_dpi",
    "open_document",
    "register_image",
]

CAPABILITY_NAMES = (
    "pageRead",
    "keywordSearch",
    "evidenceRead",
    "bookmarkList",
    "pageRender",
    "ocr",
    "semanticSearch",
)
MAX_RENDER_PIXELS = 4_000_000


@dataclass(frozen=True, slots=True)
class Capability:
    supported: bool
    available: bool
    reason: str = ""  # said only when not available

    def as_wire(self) -> dict[str, object]:
        wire: dict[str, object] = {"supported": self.supported, "available": self.available}
        if not self.available:
            wire["reason"] = self.reason
        return wire


NO_SEMANTIC_SEARCH = Capability(False, False, "no embedding engine is configured")


def open_document(
    state: SessionState,
    *,
    path: str,
    read: DocumentRead,
) -> dict[str, object]:
    """E2: the same real path with the same bytes answers under its first documentId."""
    for document in state.documents.values():
        if (
            document.real_path == read.real_path
            and document.content_version == read.content_version
        ):
            document.stale = False  # its bytes are the opened ones again
            return fit_whole(_opened(document, reopened=True), state.budget)
    texts = tuple(Utf16Text(text) for text in read.pages)
    document = Document(
        document_id=state.counters.peek("doc"),
        path=path,
        real_path=read.real_path,
        content_version=read.content_version,
        page_count=read.page_count,
        title=read.title,
        texts=texts,
        outline=tuple(read.outline),
        searcher=DocumentSearcher(texts),
    )
    result = fit_whole(_opened(document, reopened=False), state.budget)
    state.counters.issue("doc")
    state.documents.put(document.document_id, document)
    return result


def _opened(document: Document, *, reopened: bool) -> dict[str, object]:
    return {
        "documentId": document.document_id,
        "contentVersion": document.content_version,
        "pages": document.page_count,
        "title": document.title,
        "reopened": reopened,
    }


def close_document(state: SessionState, document_id: str) -> dict[str, object]:
    """E3 (a stale document closes too)."""
    state.known_document(document_id)
    result = fit_whole({"documentId": document_id, "closed": True}, state.budget)
    state.close(document_id)
    return result


def current_documents(state: SessionState) -> dict[str, object]:
    """E4: the open documents in the order opened."""
    documents = [
        {
            "documentId": document.document_id,
            "path": document.path,
            "pages": document.page_count,
            "contentVersion": document.content_version,
            "stale": document.stale,
        }
        for document in state.documents.values()
    ]
    return fit_whole({"documents": documents}, state.budget)


def document_status(
    state: SessionState,
    document_id: str,
    *,
    source_changed: bool,
    capabilities: Mapping[str, Capability],
) -> dict[str, object]:
    """E5 from what the sources layer observed now. A change marks the document stale;
    no change leaves it as it was: stale stays stale until pdf_open reopens it (asking
    the status must not change what the next call answers)."""
    document = state.known_document(document_id)
    stale = document.stale or source_changed
    # A stale document's calls all answer as stale: no capability of it is available.
    stale_reason = f"{document.path} changed since it was opened; open it again"
    wire: dict[str, object] = {}
    for name in CAPABILITY_NAMES:
        found = capabilities.get(name, NO_SEMANTIC_SEARCH if name == "semanticSearch" else None)
        if found is None:
            raise ValueError(f"capability {name} was not observed")
        if stale and found.available:
            found = Capability(found.supported, False, stale_reason)
        wire[name] = found.as_wire()
    result = fit_whole(
        {
            "documentId": document_id,
            "contentVersion": document.content_version,
            "sourceChanged": source_changed,
            "stale": stale,
            "pages": document.page_count,
            "capabilities": wire,
        },
        state.budget,
    )
    document.stale = stale
    return result


def fit_dpi(dpi: int, pixels_at: Callable[[int], tuple[int, int]]) -> tuple[int, bool]:
    """E8's dpi: ``dpi`` unless its image is over MAX_RENDER_PIXELS, else the largest
    whole dpi (at least 1) that fits; and whether it was lowered."""

    def fits(candidate: int) -> bool:
        width, height = pixels_at(candidate)
        return width * height <= MAX_RENDER_PIXELS

    if fits(dpi):
        return dpi, False
    low, high = 1, dpi  # ``high`` does not fit; ``low`` is the floor either way
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low, True


def register_image(
    state: SessionState,
    document_id: str,
    *,
    page: int,
    image: RenderedPage,
) -> dict[str, object]:
    """E8's JSON block for an image the sources layer rendered; issues its imageHandle."""
    document = state.document(document_id)
    if not 1 <= page <= document.page_count:
        raise EvidenceError(f"page out of range (1-{document.page_count})")
    handle = state.counters.peek("img")
    result: dict[str, object] = {
        "imageHandle": handle,
        "documentId": document_id,
        "page": page,
        "dpi": image.dpi,
        "width": image.width,
        "height": image.height,
    }
    if image.lowered:
        result["dpiLowered"] = True
    fit_whole(result, state.budget)
    state.counters.issue("img")
    state.images.put(
        handle, Image(document_id, page, image.dpi, image.width, image.height, image.png)
    )
    return result
