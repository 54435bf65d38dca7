"""The evidence tools' entries in the tool table: one ServedTool per tool of docs/EVIDENCE.md.

Each entry's handler finds (or starts) the session's :class:`EvidenceConnection`
in ``call.session.state`` and runs the call there, with only the keys the agent
sent: one MCP connection is one session, and its identities are its own.
"""

from __future__ import annotations

import functools

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.schemas import SCHEMAS
from siftui.serve.evidence.connection import EvidenceConnection
from siftui.serve.tool_api import Answer, Call, Handler, ServedTool, Session, Settings
from siftui.sources.evidence_pdf import recognize_png

FAMILY = "evidence"
INSTRUCTIONS = (
    "siftui also serves PDF evidence tools: pdf_open a file, then pdf_page_read bounded "
    "page text (each piece has a refId for an exact UTF-16 range; follow next), "
    "pdf_keyword_search (follow searchId while hasMore), pdf_evidence_read to quote "
    "exactly, pdf_bookmark_list, pdf_page_render and ocr_recognize for pages without text."
)
UNKNOWN_TOOL = 'unknown tool "{name}"'

_TITLES = {
    "pdf_info": "Describe a PDF",
    "pdf_open": "Open a PDF",
    "pdf_close": "Close a PDF",
    "pdf_current": "List the open PDFs",
    "pdf_status": "A PDF's status",
    "pdf_page_read": "Read pages",
    "pdf_keyword_search": "Search a PDF",
    "pdf_page_render": "Render a page",
    "ocr_recognize": "OCR a page image",
    "pdf_evidence_read": "Read evidence",
    "pdf_bookmark_list": "List bookmarks",
}
_BOUND = " Every result is at most {out_cap:,} characters of JSON (the server's limit)."
_DESCRIPTIONS = {
    "pdf_info": "A PDF's size, sha256, contentVersion, page count, title, encryption, PDF "
    "version, producer, creator, dates and outline size, without opening it for reading. "
    "Readable files lie under: {roots}; relative paths are taken from {first_root}.",
    "pdf_open": "Open a PDF for the other tools: its documentId, contentVersion, page count "
    "and title. Opening the same unchanged file again gives the same documentId. "
    "Readable files lie under: {roots}; relative paths are taken from {first_root}.",
    "pdf_close": "Close a document: its references, searches, cursors and images are forgotten.",
    "pdf_current": "The documents open in this session, in the order opened.",
    "pdf_status": "Whether a document's file changed since it was opened, and which "
    "capabilities (page reads, search, rendering, OCR, ...) are available now.",
    "pdf_page_read": "Page text from page (and offset, in UTF-16 units) through lastPage "
    "(at most 9 more pages), at most maxChars units (default 8000). Each piece has a "
    "refId naming its exact range; next says where to continue.",
    "pdf_keyword_search": "Find a literal query (match: exact, or normalized: case, width "
    "and hyphenation folded) in the pages given (default all). Hits have 60 units of "
    "context and a refId; while hasMore, call again with the searchId alone.",
    "pdf_page_render": "A page as a PNG image (dpi 36-300, default 96; lowered to stay "
    "within 4,000,000 pixels), with an imageHandle for ocr_recognize.",
    "ocr_recognize": "Tesseract's text of a rendered page image (derived text, not the "
    "PDF's own), at most maxChars units; continue with {{resultId, offset}}.",
    "pdf_evidence_read": "The exact text of a refId again, or narrowed to a quote that "
    "occurs once in it; or the text between two quotes (range: start and end, each a "
    "page and a quote), at most 10 pages and 8000 units.",
    "pdf_bookmark_list": "The PDF's outline: level, title and page of each item, at most "
    "limit at a time (default 100); continue with {{documentId, cursor}}.",
}


def connection_of(session: Session, settings: Settings) -> EvidenceConnection:
    """The session's evidence state, started at its first evidence call."""
    found = session.state.get(FAMILY)
    if not isinstance(found, EvidenceConnection):
        found = EvidenceConnection(
            settings.roots,
            settings.store,
            settings.out_cap,
            warn_hidden=settings.warn_hidden,
            recognize_png=functools.partial(recognize_png, language=settings.ocr_language),
        )
        session.state[FAMILY] = found
    return found


def _handler(name: str) -> Handler:
    def handle(call: Call) -> Answer:
        arguments = {key: value for key, value in call.arguments.items() if key in call.given}
        with call.session.lock:
            return connection_of(call.session, call.settings).run(name, arguments, call.facts)

    return handle


EVIDENCE_TOOLS: tuple[ServedTool, ...] = tuple(
    ServedTool(
        name=name,
        family=FAMILY,
        title=_TITLES[name],
        description=_DESCRIPTIONS[name] + _BOUND,
        input_schema=SCHEMAS[name],
        handler=_handler(name),
        refusals=(EvidenceError,),
        idempotent=name in ("pdf_info", "pdf_current", "pdf_status"),
    )
    for name in SCHEMAS
)
