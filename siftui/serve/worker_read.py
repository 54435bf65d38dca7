"""What the MCP server's worker process does with the bytes it read: one document.

A PDF (or EPUB, XPS, ...) is extracted with its unreadable pages
(siftui.sources.extract.extract_report, through the disk cache) and inspected for
hidden text (siftui.sources.hidden.cache, cached too); a Doc JSON is parsed; a Word
document is read by siftui.sources.word from the same bytes. Runs in the worker only:
errors are LoadError with one line, and what the worker sends back is a
:class:`Read`.
"""

from __future__ import annotations

import hashlib
import io
import time
from dataclasses import dataclass

from siftui.core.doc import Doc
from siftui.core.findings import Inspection
from siftui.core.messages import one_line, quoted
from siftui.core.unreadable import UnreadablePage
from siftui.core.word.model import DocxDoc
from siftui.sources.load import LoadError

KINDS = ("pdf", "docx")
INSPECT_SHARE = 0.9
"""The share of the time left after extraction the hidden-text inspection may take:
the rest is kept for sending the answer back before the call's deadline."""


@dataclass(frozen=True)
class Read:
    """One document as the worker read it, with what the call log records of it.

    ``inspection`` is None when there was nothing to inspect (a Word document, a
    Doc JSON) or the inspection failed; ``inspect_error`` then says why (one line).
    ``inspectable``: a PDF (or EPUB, ...) read from its bytes, which :func:`inspect`
    is to inspect next (the worker sends the answer first, the findings after).
    """

    doc: Doc | DocxDoc
    unreadable: tuple[UnreadablePage, ...] = ()
    inspection: Inspection | None = None
    inspect_error: str = ""
    inspectable: bool = False


def runes_of(doc: Doc | DocxDoc) -> int:
    """The text's size in code points, for the server's limit."""
    if isinstance(doc, Doc):
        return sum(len(page) for page in doc.pages)
    total = 0
    for story in doc.stories.values():
        total += sum(len(para.text) for para in story.paragraphs)
        total += sum(len(row) for table in story.tables for row in table.rows)
    return total


def read_document(name: str, kind: str, data: bytes, deadline: float) -> Read:
    """The document in ``data`` (``name`` only names it), read as ``kind``; not yet
    inspected for hidden text (see :func:`inspect`)."""
    if kind == "docx":
        return Read(_read_docx(name, data))
    if kind != "pdf":
        raise LoadError(f"{quoted(name)}: unknown kind of document {kind!r}")
    return _read_pdf(name, data, deadline)


def _read_docx(name: str, data: bytes) -> DocxDoc:
    from siftui.core.word.docjson import SNIFF, BadDocxJson, docx_from_json
    from siftui.sources.word.read import DocxError, read_docx

    if SNIFF.match(data[:256]) is not None:
        try:
            return docx_from_json(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise LoadError(f"{quoted(name)}: not a JSON file (not UTF-8 text)") from None
        except BadDocxJson as error:
            raise LoadError(f"{quoted(name)}: {error}") from None
    try:
        return read_docx(io.BytesIO(data))
    except DocxError as error:
        raise LoadError(f"{quoted(name)}: {error}") from None


def _read_pdf(name: str, data: bytes, deadline: float) -> Read:
    from siftui.sources.cache import DocCache, cache_key
    from siftui.sources.damage import ATTACHMENTS_ONLY
    from siftui.sources.extract import ExtractError, NeedsPassword, extract_report
    from siftui.sources.load import is_doc_json_bytes

    if is_doc_json_bytes(name, data):
        return _doc_json(name, data)
    sha256 = hashlib.sha256(data).hexdigest()
    store = DocCache.default()
    key = cache_key(sha256, None, None)
    found = store.get_report(key)
    if found is None:
        try:
            found = extract_report(name, data=data, workers=1)
        except NeedsPassword as error:
            # What an agent can do about it; and whether only the attachments are encrypted.
            only = f"{ATTACHMENTS_ONLY}; " if ATTACHMENTS_ONLY in str(error) else ""
            raise LoadError(
                f"{quoted(name)}: {only}the file is encrypted and needs a password, which an "
                "agent cannot give; the server's operator can supply it (siftui extract FILE "
                "--password ... -o FILE.json under a root gives a Doc JSON this tool reads)"
            ) from None
        except ExtractError as error:
            raise LoadError(str(error)) from None
        store.put(key, found.doc, found.unreadable)
    return Read(found.doc, found.unreadable, inspectable=True)


def _doc_json(name: str, data: bytes) -> Read:
    """A Doc JSON, with the unreadable pages its "source" records (as siftui.sources.load's
    read_doc_json_report reads them); there is no document to inspect."""
    from siftui.core.docjson import BadDocJson, from_json_object
    from siftui.core.unreadable import from_records
    from siftui.sources.load import UNREADABLE_KEY

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LoadError(f"{quoted(name)}: not a Doc JSON file (not UTF-8 text)") from None
    try:
        doc, whole = from_json_object(text)
    except BadDocJson as error:
        raise LoadError(f"{quoted(name)}: {error}") from None
    source = whole.get("source")
    records = source.get(UNREADABLE_KEY) if isinstance(source, dict) else None
    return Read(doc, from_records(records, len(doc.pages)) or ())


def inspect(
    name: str, data: bytes, sha256: str, deadline: float, skip: frozenset[int]
) -> tuple[Inspection | None, str]:
    """The hidden-text findings, bounded by what is left of the call's time, of every
    page but the unreadable ones (``skip``); a failure costs the findings (the log says
    why), never the answer."""
    from siftui.sources.extract import ExtractError
    from siftui.sources.hidden.cache import cached_inspect_bytes

    left = (deadline - time.monotonic()) * INSPECT_SHARE
    if left <= 0:
        return None, "no time left to inspect it for hidden text"
    try:
        found = cached_inspect_bytes(name, data, sha256=sha256, timeout=left, skip=skip)
        return found, ""
    except ExtractError as error:
        return None, one_line(error)
    except MemoryError:
        return None, "inspecting it for hidden text needed more memory than allowed"
    except Exception as error:  # a MuPDF surprise: the answer is still served
        return None, f"hidden-text inspection failed: {one_line(error)}"
