"""One session of the evidence tools with its files: what a call returns, as sent.

An :class:`EvidenceConnection` is one MCP connection (or one ``siftui session``
run): the pure session of ``siftui.core.evidence`` plus the I/O it needs, the
roots, the document store (worker processes, limits, cache), page images and
OCR. :meth:`EvidenceConnection.run` answers a call whose arguments the tool
host checked (siftui.serve.evidence.tools binds each entry to its work here), so the
server and ``siftui session`` give the same bytes for the same calls.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from siftui.core.budget import CHARS, Unit
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import DocumentRead, Image
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.store import SERVED_LIMITS, Limits
from siftui.core.evidence.tools_documents import CAPABILITY_NAMES, NO_SEMANTIC_SEARCH, Capability
from siftui.core.evidence.tools_ocr import NO_TESSERACT
from siftui.core.evidence.wire import dumps, fit_whole
from siftui.core.findings import Inspection
from siftui.core.kinds import paged
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.core.tools.entry import ToolEntry
from siftui.serve.evidence.files import Files, Origin, content_version
from siftui.serve.evidence.prepare import Preparations
from siftui.serve.evidence.script import image_line
from siftui.serve.tool_api import Block, Facts, ImageBlock, TextBlock, ToolAnswer
from siftui.serve.wire import clip
from siftui.serve.worker_evidence import Describe, Draw
from siftui.sources.filehash import fingerprint
from siftui.sources.log.fields import ToolResult
from siftui.sources.ocr_runner import tesseract_engine


@dataclass
class Called:
    """One call as it runs: its tool's name, the log's facts and the blocks before its JSON."""

    tool: str
    facts: Facts
    blocks: list[Block] = field(default_factory=list)


Work = Callable[["EvidenceConnection", Mapping[str, Any], Called], Mapping[str, Any]]
"""What a tool does with the files, images, OCR, findings or background work before (or
instead of) asking the session; a tool without one is the session's alone."""


class EvidenceConnection:
    """The evidence tools of one session; thread-compatible (one call at a time)."""

    def __init__(
        self,
        files: Files,
        out_cap: int,
        *,
        unit: Unit = CHARS,
        warn_hidden: bool = False,
        limits: Limits = SERVED_LIMITS,
        recognize_png: Callable[[bytes], tuple[str, str]] | None = None,
        tesseract: Callable[[], str | None] = tesseract_engine,
    ) -> None:
        self.session = EvidenceSession(out_cap, limits, unit)
        self.files = files
        self.warn_hidden = warn_hidden
        # The store's runner by default: its slots, its memory limit, one OCR per image.
        self._recognize_png = recognize_png or functools.partial(
            files.store.ocr.recognize, language=DEFAULT_OCR_LANGUAGE
        )
        self._tesseract = tesseract
        self._sources: dict[str, Origin] = {}
        self._hidden: dict[str, dict[int, int]] = {}
        self.preparations = Preparations()

    def run(
        self, tool: ToolEntry, arguments: Mapping[str, Any], facts: Facts, work: Work | None = None
    ) -> ToolAnswer:
        """One call of ``tool`` (done by ``work``, else by the session), its arguments
        checked against the tool's schema and holding only the keys the agent sent (the
        tools apply their own defaults, so a continuation stays alone); raises
        EvidenceError (and the roots' and store's errors) for a refusal."""
        called = Called(tool.name, facts)
        if tool.stale_checked:
            self._refresh()
        try:
            if work is not None:
                result = work(self, arguments, called)
            else:
                result = self.session.call(tool.name, arguments)
        finally:
            self._drop_forgotten()
        text = dumps(result)
        document_id = str(result.get("documentId", "") or "")
        source = self._sources.get(document_id)
        if source is not None:
            facts.path = facts.path or source.given
            facts.sha256 = facts.sha256 or source.sha256
        image = next((image_line(b.data) for b in called.blocks if isinstance(b, ImageBlock)), "")
        return ToolAnswer((*called.blocks, TextBlock(text)), result=ToolResult.of(text, image))

    def saved(self, document_id: str, sha256: str, real_path: str) -> None:
        """The document's file now holds bytes a save the person approved wrote (E19):
        they are the ones the document stands for, under the same identities."""
        source = self._sources.get(document_id)
        document = self.session.documents.get(document_id)
        if source is None or document is None:
            return
        try:
            seen = fingerprint(os.stat(real_path))
        except OSError:
            return
        self._sources[document_id] = replace(source, sha256=sha256, seen=seen)
        document.content_version = content_version(sha256)

    def is_pdf(self, document_id: str) -> bool:
        """Whether the open document was read from a PDF (not a Doc JSON); True for an
        unknown one (the tool's own lookup refuses it)."""
        source = self._sources.get(document_id)
        return source is None or source.pdf

    def _refresh(self) -> None:
        """Marks stale the open documents whose files changed since they were opened."""
        for document_id, source in list(self._sources.items()):
            if not self.session.is_stale(document_id):
                self._check(document_id, source)

    def _check(self, document_id: str, source: Origin) -> bool:
        """Whether the document's file is unchanged: its source is kept up to date (a
        fingerprint refreshed by an equal hash); a changed file marks it stale."""
        found = self.files.unchanged(source)
        if found is None:
            self.session.mark_stale(document_id)
            return False
        self._sources[document_id] = found
        return True

    def _drop_forgotten(self) -> None:
        """Forgets the files, findings and background work of documents the session no
        longer holds (closed, or the oldest past its bound)."""
        for document_id in list(self._sources):
            if document_id not in self.session.documents:
                del self._sources[document_id]
                self._hidden.pop(document_id, None)
                self.preparations.cancel(document_id)

    def status(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        document_id = arguments["documentId"]
        self.session.known_document(document_id)
        source = self._sources.get(document_id)
        changed = source is None or not self._check(document_id, source)
        pdf = source is None or source.pdf
        return self.session.call(
            called.tool, arguments, source_changed=changed, capabilities=self._capabilities(pdf)
        )

    def page_read(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        spans = self._hidden.get(arguments["documentId"], {}) if self.warn_hidden else None
        return self.session.call(called.tool, arguments, hidden_spans=spans)

    def search(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        # A normalized search of the whole document uses the texts built in the
        # background since it was opened; one of a few pages builds only those pages.
        if arguments.get("match") == "normalized" and "pages" not in arguments:
            self.preparations.wait(str(arguments.get("documentId")))
        return self.session.call(called.tool, arguments)

    def ocr(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        return self.session.call(called.tool, arguments, recognize=self._recognize)

    def info(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        given = arguments["path"]
        size, facts, sha256 = self.files.run(given, Describe(), called.facts)
        head: dict[str, object] = {
            "path": given,
            "bytes": size,
            "sha256": sha256,
            "contentVersion": content_version(sha256),
        }
        return fit_whole({**head, **facts}, self.session.budget)

    def open(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        given = arguments["path"]
        called.facts.path = str(self.files.roots.resolve(given))
        deadline = time.monotonic() + self.files.store.timeout
        loaded, real_path, seen, pdf = self.files.load(given, deadline)
        called.facts.path, called.facts.sha256 = real_path, loaded.sha256
        doc = paged(loaded.doc)  # the default kind's load is a PDF or its Doc JSON
        if doc is None:
            raise EvidenceError(f"{clip(real_path)}: not a PDF")
        outline = tuple((item.level, item.title, item.page) for item in doc.outline)
        result = self.session.call(
            called.tool,
            arguments,
            read=DocumentRead(
                real_path=real_path,
                content_version=content_version(loaded.sha256),
                title=doc.title,
                page_count=doc.page_count,
                pages=doc.pages,
                outline=outline,
            ),
        )
        document_id = str(result["documentId"])
        if not result["reopened"]:
            document = self.session.documents.get(document_id)
            if document is not None:
                self.preparations.start(document_id, document.searcher)
        previous = self._sources.get(document_id)
        if previous is None or previous.given == given:
            self._sources[document_id] = Origin(given, loaded.sha256, seen, pdf)
        # else reopened by another path to the same file: its staleness still follows
        # the path it was opened by, the one its answers name (E4, E5).
        inspection, _, later = loaded.findings()
        if later is not None and self.warn_hidden:  # page reads warn from the findings
            later.wait(max(0.0, deadline - time.monotonic()))
            inspection = loaded.findings()[0]
        self._hidden[document_id] = hidden_spans(inspection)
        self.files.store.warm()  # for a page render to come
        return result

    def render(self, arguments: Mapping[str, Any], called: Called) -> Mapping[str, Any]:
        document_id = arguments["documentId"]
        document = self.session.document(document_id)
        page = arguments["page"]
        if not 1 <= page <= document.page_count:
            raise EvidenceError(f"page out of range (1-{document.page_count})")
        source = self._sources[document_id]
        if not source.pdf:
            raise EvidenceError(f"{document_id} has {NO_PAGE_IMAGES}")
        task = Draw(page, arguments.get("dpi", 96))
        _, image, sha256 = self.files.run(source.given, task, Facts())
        if sha256 != source.sha256:  # drawn from other bytes than the ones opened
            self.session.mark_stale(document_id)
            self.session.document(document_id)  # raises the stale message
        result = self.session.call(
            called.tool,
            {},
            document_id=document_id,
            page=page,
            image=image,
        )
        called.blocks.append(ImageBlock(image.png))
        return result

    def _recognize(self, image: Image) -> tuple[str, str]:
        return self._recognize_png(image.png)

    def _capabilities(self, pdf: bool = True) -> dict[str, Capability]:
        """What works now: for a document opened from a Doc JSON, no page images (and so
        no OCR of them)."""
        available = Capability(True, True)
        found = {name: available for name in CAPABILITY_NAMES}
        if self._tesseract() is None:
            found["ocr"] = Capability(True, False, NO_TESSERACT.removeprefix(_OCR_PREFIX))
        if not pdf:
            found["pageRender"] = found["ocr"] = Capability(True, False, NO_PAGE_IMAGES)
        found["semanticSearch"] = NO_SEMANTIC_SEARCH
        return found


_OCR_PREFIX = "OCR is not available: "
NO_PAGE_IMAGES = "no page images: it was opened from a Doc JSON (siftui extract), not a PDF"
"""Said of a document opened from a Doc JSON only (as its bytes tell, siftui.sources.load):
a PDF (wherever its header is) and whatever else MuPDF read have pages to draw."""


def hidden_spans(inspection: Inspection | None) -> dict[int, int]:
    """Per page, the findings siftui inspect counts as alarms (all but OCR layers)."""
    spans: dict[int, int] = {}
    if inspection is None:
        return spans
    for finding in inspection.findings:
        if finding.kind != "ocr_layer":
            spans[finding.page] = spans.get(finding.page, 0) + 1
    return spans
