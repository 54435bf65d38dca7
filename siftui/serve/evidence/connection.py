"""One session of the evidence tools with its files: what a call returns, as sent.

An :class:`EvidenceConnection` is one MCP connection (or one ``siftui session``
run): the pure session of ``siftui.core.evidence`` plus the I/O it needs, the
roots, the document store (worker processes, limits, cache), page images and
OCR. :meth:`EvidenceConnection.call` takes a tool's name and its arguments as
the agent sent them and returns the blocks the agent receives, so the server
and ``siftui session`` print the same bytes for the same calls.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from siftui.core.arguments import ArgumentError, check_arguments
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import Image
from siftui.core.evidence.schemas import SCHEMAS
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.store import Limits
from siftui.core.evidence.tools_documents import CAPABILITY_NAMES, NO_SEMANTIC_SEARCH, Capability
from siftui.core.evidence.tools_ocr import NO_TESSERACT
from siftui.core.evidence.wire import dumps, fit_whole
from siftui.core.findings import Inspection
from siftui.core.kinds import PDF
from siftui.core.messages import one_line
from siftui.serve.access import Refused, Roots, Unopenable
from siftui.serve.docstore import DocStore, Failed
from siftui.serve.evidence.files import Files, Source, content_version
from siftui.serve.wire import clip
from siftui.sources import evidence_pdf
from siftui.sources.errors import report_unexpected
from siftui.sources.load import LoadError
from siftui.sources.word.kind import DOCX_SUFFIXES

EVIDENCE_TOOLS = tuple(SCHEMAS)
"""E1-E11 in EVIDENCE.md's order."""

SERVER_LIMITS = Limits(documents=32, refs=20_000, searches=1_000, cursors=1_000, images=16)
"""What one session holds at most (past a bound the oldest are forgotten): images are
PNGs of up to 4,000,000 pixels, so fewer of them are kept than of anything else."""

# Tools whose identities name a document that may have changed on disk since it was
# opened; pdf_status and pdf_close answer for a stale document (EVIDENCE.md).
_NO_STALENESS = frozenset({"pdf_info", "pdf_open", "pdf_current", "pdf_status", "pdf_close"})


@dataclass(frozen=True)
class Block:
    """One content block of a result: JSON text, or a PNG image."""

    text: str = ""
    png: bytes | None = None


@dataclass(frozen=True)
class EvidenceAnswer:
    """What the agent receives for one call, and what the call log records of it."""

    blocks: tuple[Block, ...]
    is_error: bool = False
    document_id: str = ""
    path: str = ""
    sha256: str | None = None

    @property
    def text(self) -> str:
        """The result's (last) text block: the JSON, or the error's one line."""
        return next((block.text for block in reversed(self.blocks) if block.png is None), "")

    def lines(self) -> list[str]:
        """The lines ``siftui session`` prints for this answer."""
        if self.is_error:
            return [f"error: {self.text}"]
        shown: list[str] = []
        for block in self.blocks:
            if block.png is None:
                shown.append(block.text)
            else:
                shown.append(image_line(block.png))
        return shown


def image_line(png: bytes) -> str:
    width = int.from_bytes(png[16:20], "big") if len(png) >= 24 else 0
    height = int.from_bytes(png[20:24], "big") if len(png) >= 24 else 0
    return f"image: {width}x{height} png {hashlib.sha256(png).hexdigest()}"


@dataclass
class _Called:
    """What one call found out as it ran, for the log."""

    document_id: str = ""
    path: str = ""
    sha256: str | None = None
    blocks: list[Block] = field(default_factory=list)


class EvidenceConnection:
    """The evidence tools of one session; thread-compatible (one call at a time)."""

    def __init__(
        self,
        roots: Roots,
        store: DocStore,
        out_cap: int,
        *,
        warn_hidden: bool = False,
        limits: Limits = SERVER_LIMITS,
        recognize_png: Callable[[bytes], tuple[str, str]] = evidence_pdf.recognize_png,
        tesseract: Callable[[], str | None] = evidence_pdf.tesseract_engine,
    ) -> None:
        self.session = EvidenceSession(out_cap, limits)
        self.files = Files(roots, store)
        self.out_cap = out_cap
        self.warn_hidden = warn_hidden
        self._recognize_png = recognize_png
        self._tesseract = tesseract
        self._sources: dict[str, Source] = {}
        self._hidden: dict[str, dict[int, int]] = {}

    def call(self, tool: str, arguments: object) -> EvidenceAnswer:
        """One call as the agent sent it; never raises for what the agent or a file does."""
        called = _Called()
        try:
            if tool not in SCHEMAS:
                raise EvidenceError(f'unknown tool "{clip(tool)}"')
            checked = check_arguments(tool, SCHEMAS[tool], arguments)
            # The tools apply their own defaults: a continuation must stay "alone".
            given = arguments if isinstance(arguments, Mapping) else {}
            checked = {key: value for key, value in checked.items() if key in given}
            self._refresh(tool)
            result = self._run(tool, checked, called)
            called.blocks.append(Block(dumps(result)))
            return EvidenceAnswer(tuple(called.blocks), False, *self._logged(called, result))
        except (ArgumentError, EvidenceError, Refused, Unopenable, Failed, LoadError) as error:
            message = error.message if isinstance(error, EvidenceError) else str(error)
            if isinstance(error, Failed):
                called.sha256 = error.sha256
            return self._error(message, called)
        except Exception as error:  # a bug of ours: one line for the agent, the server lives
            return self._error(report_unexpected(error, tool), called)

    def _error(self, message: str, called: _Called) -> EvidenceAnswer:
        return EvidenceAnswer(
            (Block(one_line_text(message)),), True, called.document_id, called.path, called.sha256
        )

    def _logged(self, called: _Called, result: Mapping[str, Any]) -> tuple[str, str, str | None]:
        document_id = called.document_id or str(result.get("documentId", "") or "")
        source = self._sources.get(document_id)
        if source is not None:
            return document_id, called.path or source.given, called.sha256 or source.sha256
        return document_id, called.path, called.sha256

    def _refresh(self, tool: str) -> None:
        """Marks stale the open documents whose files changed since they were opened."""
        if tool in _NO_STALENESS:
            return
        for document_id, source in list(self._sources.items()):
            if document_id not in self.session.documents:
                del self._sources[document_id]
                self._hidden.pop(document_id, None)
            elif not self.session.is_stale(document_id) and self.files.changed(source):
                self.session.mark_stale(document_id)

    def _run(self, tool: str, arguments: dict[str, Any], called: _Called) -> Mapping[str, Any]:
        if "documentId" in arguments:
            called.document_id = arguments["documentId"]
        handler = _HANDLERS.get(tool)
        if handler is not None:
            return handler(self, arguments, called)
        return self.session.call(tool, arguments)

    def _status(self, arguments: Mapping[str, Any], called: _Called) -> Mapping[str, Any]:
        document_id = arguments["documentId"]
        self.session.known_document(document_id)
        source = self._sources.get(document_id)
        changed = source is None or self.files.changed(source)
        return self.session.call(
            "pdf_status", arguments, source_changed=changed, capabilities=self._capabilities()
        )

    def _page_read(self, arguments: Mapping[str, Any], called: _Called) -> Mapping[str, Any]:
        spans = self._hidden.get(arguments["documentId"], {}) if self.warn_hidden else None
        return self.session.call("pdf_page_read", arguments, hidden_spans=spans)

    def _ocr(self, arguments: Mapping[str, Any], called: _Called) -> Mapping[str, Any]:
        return self.session.call("ocr_recognize", arguments, recognize=self._recognize)

    def _info(self, arguments: Mapping[str, Any], called: _Called) -> Mapping[str, Any]:
        given = arguments["path"]
        read = self.files.read(given)
        called.path, called.sha256 = read.real, read.sha256
        head: dict[str, object] = {
            "path": given,
            "bytes": len(read.data),
            "sha256": read.sha256,
            "contentVersion": content_version(read.sha256),
        }
        return fit_whole({**head, **evidence_pdf.pdf_facts(read.data)}, self.out_cap)

    def _open(self, arguments: Mapping[str, Any], called: _Called) -> Mapping[str, Any]:
        given = arguments["path"]
        real = self.files.roots.resolve(given)
        called.path = str(real)
        if real.suffix.lower() in DOCX_SUFFIXES:
            raise EvidenceError(f"{clip(str(real))}: a Word document; read it with read_docx")
        deadline = time.monotonic() + self.files.store.timeout
        loaded, real_path, seen = self.files.load(given, deadline)
        called.path, called.sha256 = real_path, loaded.sha256
        doc = PDF.doc(loaded.doc)  # a "pdf" load is a PDF or its Doc JSON
        if doc is None:
            raise EvidenceError(f"{clip(real_path)}: not a PDF")
        outline = tuple((item.level, item.title, item.page) for item in doc.outline)
        result = self.session.pdf_open(
            path=given,
            real_path=real_path,
            content_version=content_version(loaded.sha256),
            title=doc.title,
            page_count=doc.page_count,
            pages=doc.pages,
            outline=outline,
        )
        document_id = str(result["documentId"])
        called.document_id = document_id
        self._sources[document_id] = Source(given, loaded.sha256, seen)
        self._hidden[document_id] = hidden_spans(loaded.inspection)
        return result

    def _render(self, arguments: Mapping[str, Any], called: _Called) -> Mapping[str, Any]:
        document_id = arguments["documentId"]
        called.document_id = document_id
        document = self.session.document(document_id)
        page = arguments["page"]
        if not 1 <= page <= document.page_count:
            raise EvidenceError(f"page out of range (1-{document.page_count})")
        read = self.files.read(self._sources[document_id].given)
        if read.sha256 != self._sources[document_id].sha256:
            self.session.mark_stale(document_id)
            self.session.document(document_id)  # raises the stale message
        image = evidence_pdf.render_page(read.data, page, arguments.get("dpi", 96))
        result = self.session.pdf_page_render(
            document_id=document_id,
            page=page,
            dpi=image.dpi,
            width=image.width,
            height=image.height,
            png=image.png,
            dpi_lowered=image.lowered,
        )
        called.blocks.append(Block(png=image.png))
        return result

    def _recognize(self, image: Image) -> tuple[str, str]:
        return self._recognize_png(image.png)

    def _capabilities(self) -> dict[str, Capability]:
        available = Capability(True, True)
        found = {name: available for name in CAPABILITY_NAMES}
        if self._tesseract() is None:
            found["ocr"] = Capability(True, False, NO_TESSERACT.removeprefix(_OCR_PREFIX))
        found["semanticSearch"] = NO_SEMANTIC_SEARCH
        return found


_OCR_PREFIX = "OCR is not available: "

Handler = Callable[[EvidenceConnection, Mapping[str, Any], _Called], Mapping[str, Any]]
_HANDLERS: dict[str, Handler] = {
    "pdf_info": EvidenceConnection._info,
    "pdf_open": EvidenceConnection._open,
    "pdf_status": EvidenceConnection._status,
    "pdf_page_read": EvidenceConnection._page_read,
    "pdf_page_render": EvidenceConnection._render,
    "ocr_recognize": EvidenceConnection._ocr,
}
"""The tools that need files, images, OCR or findings; the others are the session's alone."""


def hidden_spans(inspection: Inspection | None) -> dict[int, int]:
    """Per page, the findings siftui inspect counts as alarms (all but OCR layers)."""
    spans: dict[int, int] = {}
    if inspection is None:
        return spans
    for finding in inspection.findings:
        if finding.kind != "ocr_layer":
            spans[finding.page] = spans.get(finding.page, 0) + 1
    return spans


def one_line_text(message: str) -> str:
    """A message as one line (a file's name may carry a newline)."""
    return one_line(ValueError(message)) if len(message.splitlines()) > 1 else message
