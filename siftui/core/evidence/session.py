"""One session of the evidence tools: a method per tool (E2-E7, E8's JSON, E9-E11).

Arguments are Python values already checked against ``schemas`` (types and
ranges); ``None`` means the key was absent. Each method returns the result
object (a dict in EVIDENCE.md's key order, see ``wire.dumps``) or raises
``EvidenceError``. A call that fails issues no identity.

What needs I/O arrives from the sources layer: the file's texts, outline and
contentVersion for ``pdf_open``; what it observed for ``pdf_status``; the
rendered image for ``pdf_page_render``; the OCR engine for ``ocr_recognize``.
It calls ``mark_stale`` when a document's bytes changed since it was opened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from siftui.core.evidence import (
    tools_bookmarks,
    tools_documents,
    tools_ocr,
    tools_read,
    tools_search,
)
from siftui.core.evidence.bookmarks import OutlineTuple
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.tools_documents import Capability
from siftui.core.evidence.tools_ocr import Recognizer

__all__ = ["EvidenceSession"]

Result = dict[str, object]


class EvidenceSession(SessionState):
    """The state of one MCP connection (or one ``siftui session`` run) and its tools."""

    def pdf_open(
        self,
        *,
        path: str,
        real_path: str,
        content_version: str,
        title: str,
        page_count: int,
        pages: Sequence[str],
        outline: Sequence[OutlineTuple] = (),
    ) -> Result:
        """E2. ``path`` as given, ``real_path`` resolved (same file = same real path)."""
        return tools_documents.open_document(
            self,
            path=path,
            real_path=real_path,
            content_version=content_version,
            title=title,
            page_count=page_count,
            pages=pages,
            outline=outline,
        )

    def pdf_close(self, *, document_id: str) -> Result:
        return tools_documents.close_document(self, document_id)

    def pdf_current(self) -> Result:
        return tools_documents.current_documents(self)

    def pdf_status(
        self,
        *,
        document_id: str,
        source_changed: bool,
        capabilities: Mapping[str, Capability],
    ) -> Result:
        return tools_documents.document_status(
            self, document_id, source_changed=source_changed, capabilities=capabilities
        )

    def pdf_page_read(
        self,
        *,
        document_id: str,
        page: int,
        last_page: int | None = None,
        offset: int | None = None,
        max_chars: int | None = None,
        hidden_spans: Mapping[int, int] | None = None,
    ) -> Result:
        return tools_read.page_read(
            self,
            document_id,
            page=page,
            last_page=last_page,
            offset=offset,
            max_chars=max_chars,
            hidden_spans=hidden_spans,
        )

    def pdf_keyword_search(
        self,
        *,
        document_id: str | None = None,
        query: str | None = None,
        pages: str | None = None,
        match: str | None = None,
        max_results: int | None = None,
        search_id: str | None = None,
    ) -> Result:
        return tools_search.keyword_search(
            self,
            document_id=document_id,
            query=query,
            pages=pages,
            match=match,
            max_results=max_results,
            search_id=search_id,
        )

    def pdf_page_render(
        self,
        *,
        document_id: str,
        page: int,
        dpi: int,
        width: int,
        height: int,
        png: bytes,
        dpi_lowered: bool = False,
    ) -> Result:
        """E8's JSON block for an image the sources layer rendered (see ``fit_dpi``)."""
        return tools_documents.register_image(
            self,
            document_id,
            page=page,
            dpi=dpi,
            width=width,
            height=height,
            png=png,
            dpi_lowered=dpi_lowered,
        )

    def ocr_recognize(
        self,
        *,
        image_handle: str | None = None,
        max_chars: int | None = None,
        result_id: str | None = None,
        offset: int | None = None,
        recognize: Recognizer | None = None,
    ) -> Result:
        return tools_ocr.ocr_recognize(
            self,
            image_handle=image_handle,
            max_chars=max_chars,
            result_id=result_id,
            offset=offset,
            recognize=recognize,
        )

    def pdf_evidence_read(
        self,
        *,
        document_id: str,
        ref_id: str | None = None,
        quote: str | None = None,
        range: Mapping[str, Mapping[str, Any]] | None = None,  # the wire name
    ) -> Result:
        return tools_read.evidence_read(self, document_id, ref_id=ref_id, quote=quote, range=range)

    def pdf_bookmark_list(
        self, *, document_id: str, limit: int | None = None, cursor: str | None = None
    ) -> Result:
        return tools_bookmarks.bookmark_list(self, document_id, limit=limit, cursor=cursor)

    def call(self, tool: str, arguments: Mapping[str, Any], **sources: Any) -> Result:
        """Run a pure tool from its wire arguments (camelCase keys, already checked).

        ``sources`` adds what the sources layer provides for the tools that need
        it (``pdf_status``: source_changed, capabilities; ``ocr_recognize``:
        recognize; ``pdf_page_read``: hidden_spans).
        """
        method: Callable[..., Result] | None = getattr(self, tool, None)
        if tool not in PURE_TOOLS or method is None:
            raise KeyError(tool)
        return method(**{python_name(key): value for key, value in arguments.items()}, **sources)


PURE_TOOLS = frozenset(
    {
        "pdf_close",
        "pdf_current",
        "pdf_status",
        "pdf_page_read",
        "pdf_keyword_search",
        "ocr_recognize",
        "pdf_evidence_read",
        "pdf_bookmark_list",
    }
)


def python_name(wire_name: str) -> str:
    """``documentId`` -> ``document_id``: a wire key as the methods' keyword."""
    return "".join("_" + c.lower() if c.isupper() else c for c in wire_name)
