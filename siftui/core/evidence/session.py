"""One session of the evidence tools: a method per tool (E2-E7, E8's JSON, E9-E11).

Arguments are Python values already checked against ``schemas`` (types and
ranges); ``None`` means the key was absent. Each method returns the result
object (a dict in the key order of docs/EVIDENCE.md, see ``wire.dumps``) or
raises ``EvidenceError``. A call that fails issues no identity.

The methods are the ``tools_*`` functions themselves (each takes the session's
state first), so a tool's keywords are written once, where the tool is.

What needs I/O arrives from the sources layer: the file's texts, outline and
contentVersion for ``pdf_open``; what it observed for ``pdf_status``; the
rendered image for ``pdf_page_render``; the OCR engine for ``ocr_recognize``.
It calls ``mark_stale`` when a document's bytes changed since it was opened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from siftui.core.evidence import (
    tools_bookmarks,
    tools_documents,
    tools_ocr,
    tools_read,
    tools_search,
)
from siftui.core.evidence.state import SessionState

__all__ = ["PURE_TOOLS", "EvidenceSession", "python_name"]

Result = dict[str, object]

PURE_TOOLS: dict[str, Callable[..., Result]] = {
    "pdf_close": tools_documents.close_document,
    "pdf_current": tools_documents.current_documents,
    "pdf_status": tools_documents.document_status,
    "pdf_page_read": tools_read.page_read,
    "pdf_keyword_search": tools_search.keyword_search,
    "ocr_recognize": tools_ocr.ocr_recognize,
    "pdf_evidence_read": tools_read.evidence_read,
    "pdf_bookmark_list": tools_bookmarks.bookmark_list,
}
"""The tools answered from the session alone (with what ``call``'s sources add)."""


class EvidenceSession(SessionState):
    """The state of one MCP connection (or one ``siftui session`` run) and its tools."""

    pdf_open = tools_documents.open_document  # E2: path as given, real_path resolved
    pdf_close = tools_documents.close_document
    pdf_current = tools_documents.current_documents
    pdf_status = tools_documents.document_status
    pdf_page_read = tools_read.page_read
    pdf_keyword_search = tools_search.keyword_search
    pdf_page_render = tools_documents.register_image  # E8's JSON for an image rendered
    ocr_recognize = tools_ocr.ocr_recognize
    pdf_evidence_read = tools_read.evidence_read
    pdf_bookmark_list = tools_bookmarks.bookmark_list

    def call(self, tool: str, arguments: Mapping[str, Any], **sources: Any) -> Result:
        """Run a pure tool from its wire arguments (camelCase keys, already checked).

        ``sources`` adds what the sources layer provides for the tools that need
        it (``pdf_status``: source_changed, capabilities; ``ocr_recognize``:
        recognize; ``pdf_page_read``: hidden_spans).
        """
        tool_function = PURE_TOOLS[tool]
        keywords = {python_name(key): value for key, value in arguments.items()}
        return tool_function(self, **keywords, **sources)


def python_name(wire_name: str) -> str:
    """``documentId`` -> ``document_id``: a wire key as the methods' keyword."""
    return "".join("_" + c.lower() if c.isupper() else c for c in wire_name)
