"""The files behind a session's documents: opened through the roots, checked for change.

Every read goes through :meth:`Roots.open` (the root's descriptor, one
component at a time, no symlink followed), so neither opening nor the later
staleness check can be led out of the roots. A document's fingerprint is the
fstat of the file it was read from; when the file at its path shows another
fingerprint, its bytes are hashed again to decide: a touched but unchanged
file stays fresh, a rewritten one (or a removed one) is stale. What MuPDF does
with the bytes beyond extraction (pdf_info's metadata, a page's image) runs in
a worker process of the store, given the descriptor, never in the server.
"""

from __future__ import annotations

import hashlib
import os
import time
import zipfile
from dataclasses import dataclass, replace
from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.core.kinds import DEFAULT_KIND
from siftui.serve.access import OpenedFile, Refused, Roots, Unopenable
from siftui.serve.docstore import DocStore, Failed, ServedDoc
from siftui.serve.tool_api import Facts
from siftui.serve.wire import clip
from siftui.serve.worker_evidence import Task
from siftui.sources.filehash import Fingerprint, fingerprint
from siftui.sources.kinds import HEAD_BYTES, claimed_kind, is_json_form_bytes

NOT_OPENED = "cannot open the PDF: "
"""How a worker says MuPDF could not open the bytes (it has no path to name)."""

_CHUNK = 1 << 20


def content_version(sha256: str) -> str:
    return "v-" + sha256[:12]


@dataclass(frozen=True)
class Origin:
    """Where a document came from: the path as the agent gave it, what was read, and
    whether it is a PDF (a Doc JSON, siftui extract's, has text but no pages to draw)."""

    given: str
    sha256: str
    seen: Fingerprint
    pdf: bool = True


class Files:
    """The roots and the store, as the evidence tools use them."""

    def __init__(self, roots: Roots, store: DocStore, served: frozenset[str] = frozenset()) -> None:
        self.roots = roots
        self.store = store
        self.served = served  # the tools the server serves: a refusal names only those

    def run(self, given: str, task: Task, facts: Facts) -> tuple[int, Any, str]:
        """``task`` on the bytes at ``given``, in a worker process with the store's limits:
        the size read, the result and the bytes' sha256 (also noted in ``facts``)."""
        opened = self.roots.open(given)
        try:
            facts.path = str(opened.real)
            if _refuse_what_is_no_pdf(opened, self.served):
                raise EvidenceError(f"{clip(str(opened.real))}: {DOC_JSON_HAS_NO_PDF}")
            deadline = time.monotonic() + self.store.timeout
            try:
                size, result, sha256 = self.store.run_task(opened, deadline, task)
            except Failed as error:  # MuPDF's refusal in read_pdf's words, naming the file
                reason = str(error)
                if not reason.startswith(NOT_OPENED):
                    raise
                where = clip(str(opened.real))
                said = (
                    f"{where}: not a document siftui can read ({reason.removeprefix(NOT_OPENED)})"
                )
                raise Failed(said, error.sha256, timed_out=error.timed_out) from None
        finally:
            opened.close()
        facts.sha256 = sha256
        return size, result, sha256

    def load(self, given: str, deadline: float) -> tuple[ServedDoc, str, Fingerprint, bool]:
        """The document at ``given`` as read_pdf reads it (worker, limits, cache), and
        whether MuPDF read it (else it is a Doc JSON: text, but no pages to draw); a Word
        document refused first, by its bytes, as for the other evidence tools."""
        opened = self.roots.open(given)
        try:
            seen = fingerprint(opened.info)
            doc_json = _refuse_what_is_no_pdf(opened, self.served)
            loaded = self.store.get(opened, deadline, DEFAULT_KIND.name)
            pdf = not doc_json
        finally:
            opened.close()
        return loaded, str(opened.real), seen, pdf

    def unchanged(self, source: Origin) -> Origin | None:
        """The document's source if the bytes at its path are still the ones opened (its
        fingerprint refreshed when a touched file proved equal), None when they changed.

        A new size is a change, told without reading; so only a file of the size
        opened (within the store's ``max_bytes``) is hashed, and within the store's
        ``timeout``: a file that cannot be hashed by then counts as changed, so no
        agent can stall the server with a file swapped for a huge or slow one. An
        equal hash keeps the new fingerprint, so the next call does not hash again.
        """
        try:
            opened = self.roots.open(source.given)
        except (Refused, Unopenable, OSError):
            return None
        try:
            seen = fingerprint(os.fstat(opened.fd))
            if seen == source.seen:
                return source
            if seen[2] != source.seen[2] or seen[2] > self.store.max_bytes:
                return None
            digest = hashlib.sha256()
            offset = 0
            deadline = time.monotonic() + self.store.timeout
            while chunk := os.pread(opened.fd, _CHUNK, offset):
                digest.update(chunk)
                offset += len(chunk)
                if time.monotonic() > deadline:
                    return None
            if digest.hexdigest() != source.sha256:
                return None
            return replace(source, seen=seen)
        except OSError:
            return None
        finally:
            opened.close()


def _refuse_what_is_no_pdf(opened: OpenedFile, served: frozenset[str]) -> bool:
    """What read_pdf refuses before MuPDF, in its words: an empty file, a document of
    another kind (told by its bytes, siftui.sources.kinds.claimed_kind: a PDF named .docx
    is a PDF), named with the tool that reads it only when this server serves that tool.
    True for a Doc JSON, whose text pdf_open reads but which has no PDF to describe or
    draw; False for what MuPDF reads (a PDF, or what else MuPDF opens, as read_pdf)."""
    where = clip(str(opened.real))
    if opened.info.st_size == 0:
        raise EvidenceError(f"{where}: empty file, not a document")
    head = os.pread(opened.fd, HEAD_BYTES, 0)

    def package() -> zipfile.ZipFile:  # read through a copy of the descriptor, never the path
        return zipfile.ZipFile(os.fdopen(os.dup(opened.fd), "rb"))

    claimed = claimed_kind(opened.real, head, package)
    if claimed is not None and claimed is not DEFAULT_KIND:
        if claimed.read_tool in served:
            raise EvidenceError(f"{where}: {claimed.noun}; read it with {claimed.read_tool}")
        raise EvidenceError(f"{where}: {claimed.noun}, not a PDF ({NOT_SERVED})")
    return is_json_form_bytes(opened.real, head)


NOT_SERVED = "this server serves no tool that reads it"
DOC_JSON_HAS_NO_PDF = (
    "a Doc JSON (siftui extract), not a PDF: pdf_open reads its text, "
    "but it has no PDF metadata or pages to draw"
)
