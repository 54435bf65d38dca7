"""The evidence family's entries: E1-E11 of docs/EVIDENCE.md, one :class:`ToolEntry` each.

Each input schema holds EVIDENCE.md's keys, defaults and ranges. Property order
is the order a checker reports in (EVIDENCE.md: "each schema key in the
schema's order"). Tools with a first call and a continuation list every key of
both forms as optional, with only the keys both forms need as ``required``; the
tool itself then enforces which keys go together, with EVIDENCE.md's messages
(``a continuation takes {searchId} alone``, ...), and a missing key of the first
form gets ``missing argument "<key>"`` from the tool. Pages and offsets carry
no bounds here: their ranges depend on the document (``page out of range
(1-E)``, ``offset out of range (0-<len>)``), so the tools say them.
"""

from __future__ import annotations

from siftui.core.evidence import (
    tools_bookmarks,
    tools_documents,
    tools_ocr,
    tools_read,
    tools_search,
)
from siftui.core.tools.continuation import NextCursor, Offset, ReadOn, WhileMore
from siftui.core.tools.entry import Family, Logged, ResultLayout, ToolEntry
from siftui.core.tools.schema import integer, object_of, string

__all__ = [
    "BOOKMARK_LIST",
    "CLOSE",
    "CURRENT",
    "EVIDENCE_READ",
    "EVIDENCE_TOOLS",
    "FAMILY",
    "INFO",
    "KEYWORD_SEARCH",
    "OCR",
    "OPEN",
    "PAGE_READ",
    "PAGE_RENDER",
    "STATUS",
]

FAMILY = Family(
    "evidence",
    "siftui also serves PDF evidence tools: pdf_open a file, then pdf_page_read bounded "
    "page text (each piece has a refId for an exact UTF-16 range; follow next), "
    "pdf_keyword_search (follow searchId while hasMore), pdf_evidence_read to quote "
    "exactly, pdf_bookmark_list, pdf_page_render and ocr_recognize for pages without text.",
    unknown_tool='unknown tool "{name}"',
)

_BOUND = " Every result is at most {out_cap:,} {unit} of JSON (the server's limit)."
_ROOTS = "Readable files lie under: {roots}; relative paths are taken from {first_root}."
_IN_SESSION = Logged(session=True)
_QUOTE_END = object_of({"page": integer(), "quote": string(1, 2000)}, "page", "quote")

INFO = ToolEntry(
    name="pdf_info",
    family=FAMILY.name,
    title="Describe a PDF",
    description="A PDF's size, sha256, contentVersion, page count, title, encryption, PDF "
    "version, producer, creator, dates and outline size, without opening it for reading. "
    + _ROOTS
    + _BOUND,
    input_schema=object_of({"path": string()}, "path"),
    worker=True,
    logged=_IN_SESSION,
)
OPEN = ToolEntry(
    name="pdf_open",
    family=FAMILY.name,
    title="Open a PDF",
    description="Open a PDF for the other tools: its documentId, contentVersion, page count "
    "and title. Opening the same unchanged file again gives the same documentId. "
    + _ROOTS
    + _BOUND,
    input_schema=object_of({"path": string()}, "path"),
    idempotent=False,
    worker=True,
    pure=tools_documents.open_document,
    logged=_IN_SESSION,
)
CLOSE = ToolEntry(
    name="pdf_close",
    family=FAMILY.name,
    title="Close a PDF",
    description="Close a document: its references, searches, cursors and images are "
    "forgotten." + _BOUND,
    input_schema=object_of({"documentId": string()}, "documentId"),
    idempotent=False,
    pure=tools_documents.close_document,
    logged=_IN_SESSION,
)
CURRENT = ToolEntry(
    name="pdf_current",
    family=FAMILY.name,
    title="List the open PDFs",
    description="The documents open in this session, in the order opened." + _BOUND,
    input_schema=object_of({}),
    pure=tools_documents.current_documents,
    logged=_IN_SESSION,
)
STATUS = ToolEntry(
    name="pdf_status",
    family=FAMILY.name,
    title="A PDF's status",
    description="Whether a document's file changed since it was opened, and which "
    "capabilities (page reads, search, rendering, OCR, ...) are available now." + _BOUND,
    input_schema=object_of({"documentId": string()}, "documentId"),
    pure=tools_documents.document_status,
    logged=_IN_SESSION,
)
PAGE_READ = ToolEntry(
    name="pdf_page_read",
    family=FAMILY.name,
    title="Read pages",
    description="Page text from page (and offset, in UTF-16 units) through lastPage "
    "(at most 9 more pages), at most maxChars units (default 8000). Each piece has a "
    "refId naming its exact range; next says where to continue." + _BOUND,
    input_schema=object_of(
        {
            "documentId": string(),
            "page": integer(),
            "lastPage": integer(),
            "offset": integer(),
            "maxChars": {**integer(1, 20000), "default": 8000},
        },
        "documentId",
        "page",
    ),
    idempotent=False,
    pure=tools_read.page_read,
    stale_checked=True,
    continuation=ReadOn(kept=("lastPage", "maxChars")),
    layout=ResultLayout.PIECES,
    logged=Logged(session=True, hidden=True),
)
KEYWORD_SEARCH = ToolEntry(
    name="pdf_keyword_search",
    family=FAMILY.name,
    title="Search a PDF",
    description="Find a literal query (match: exact, or normalized: case, width "
    "and hyphenation folded) in the pages given (default all). Hits have 60 units of "
    "context and a refId; while hasMore, call again with the searchId alone." + _BOUND,
    input_schema=object_of(
        {
            "documentId": string(),
            "query": string(1, 200),
            "pages": string(),
            "match": {
                "type": "string",
                "enum": ["exact", "normalized"],
                "default": "exact",
            },
            "maxResults": {**integer(1, 100), "default": 20},
            "searchId": string(),
        }
    ),
    idempotent=False,
    pure=tools_search.keyword_search,
    stale_checked=True,
    continuation=WhileMore("searchId"),
    layout=ResultLayout.HITS,
    logged=_IN_SESSION,
)
PAGE_RENDER = ToolEntry(
    name="pdf_page_render",
    family=FAMILY.name,
    title="Render a page",
    description="A page as a PNG image (dpi 36-300, default 96; lowered to stay "
    "within 4,000,000 pixels), with an imageHandle for ocr_recognize." + _BOUND,
    input_schema=object_of(
        {
            "documentId": string(),
            "page": integer(),
            "dpi": {**integer(36, 300), "default": 96},
        },
        "documentId",
        "page",
    ),
    idempotent=False,
    worker=True,
    pure=tools_documents.register_image,
    stale_checked=True,
    layout=ResultLayout.IMAGE,
    logged=_IN_SESSION,
)
OCR = ToolEntry(
    name="ocr_recognize",
    family=FAMILY.name,
    title="OCR a page image",
    description="Tesseract's text of a rendered page image (derived text, not the "
    "PDF's own), at most maxChars units; continue with {{resultId, offset}}." + _BOUND,
    input_schema=object_of(
        {
            "imageHandle": string(),
            "maxChars": {**integer(1, 20000), "default": 8000},
            "resultId": string(),
            "offset": integer(),
        }
    ),
    idempotent=False,
    pure=tools_ocr.recognize_image,
    stale_checked=True,
    continuation=Offset("resultId"),
    layout=ResultLayout.DERIVED,
    logged=_IN_SESSION,
)
EVIDENCE_READ = ToolEntry(
    name="pdf_evidence_read",
    family=FAMILY.name,
    title="Read evidence",
    description="The exact text of a refId again, or narrowed to a quote that "
    "occurs once in it; or the text between two quotes (range: start and end, each a "
    "page and a quote), at most 10 pages and 8000 units." + _BOUND,
    input_schema=object_of(
        {
            "documentId": string(),
            "refId": string(),
            "quote": string(1, 2000),
            "range": object_of({"start": _QUOTE_END, "end": _QUOTE_END}, "start", "end"),
        },
        "documentId",
    ),
    idempotent=False,
    pure=tools_read.evidence_read,
    stale_checked=True,
    layout=ResultLayout.PIECES,
    logged=Logged(session=True, refusals=True),
)
BOOKMARK_LIST = ToolEntry(
    name="pdf_bookmark_list",
    family=FAMILY.name,
    title="List bookmarks",
    description="The PDF's outline: level, title and page of each item, at most "
    "limit at a time (default 100); continue with {{documentId, cursor}}." + _BOUND,
    input_schema=object_of(
        {
            "documentId": string(),
            "limit": {**integer(1, 500), "default": 100},
            "cursor": string(),
        },
        "documentId",
    ),
    idempotent=False,
    pure=tools_bookmarks.bookmark_list,
    stale_checked=True,
    continuation=NextCursor(),
    layout=ResultLayout.OUTLINE,
    logged=_IN_SESSION,
)

EVIDENCE_TOOLS: tuple[ToolEntry, ...] = (
    INFO,
    OPEN,
    CLOSE,
    CURRENT,
    STATUS,
    PAGE_READ,
    KEYWORD_SEARCH,
    PAGE_RENDER,
    OCR,
    EVIDENCE_READ,
    BOOKMARK_LIST,
)
"""E1-E11, in EVIDENCE.md's order (the order tools/list gives them)."""
