"""Open what the user named: a document (through extract) or a saved Doc JSON."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from siftui import __version__
from siftui.core.docjson import BadDocJson, doc_to_json, from_json_object
from siftui.core.kinds import WORD
from siftui.core.messages import file_error, quoted
from siftui.core.render import Options
from siftui.core.unreadable import Extraction, from_records, to_records
from siftui.sources.cache import (
    DocCache,
    cache_key,
    cached_extract_report,
    cached_report,
)
from siftui.sources.detect import kind_of_file
from siftui.sources.extract import extract_report
from siftui.sources.filehash import file_sha256
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import ExtractError, PageProgress, check_file, pymupdf_version

JSON_SNIFF_BYTES = 64
WORD_ELSEWHERE = (
    "a Word document, not read as a PDF: `siftui render FILE.docx` prints what an "
    "agent receives (read_docx over MCP)"
)


class LoadError(Exception):
    """The file cannot be turned into a Doc; ``str(error)`` is one line for users.

    ``reason`` is the extraction error's type when there was one (the TUI asks
    for a password on :class:`siftui.sources.pdf_open.NeedsPassword`).
    """

    def __init__(self, message: str, reason: type[Exception] | None = None) -> None:
        super().__init__(message)
        self.reason = reason


def is_doc_json(path: str | os.PathLike[str]) -> bool:
    """True when the file is meant as JSON: a ``.json`` name or a leading ``{``.

    Leading white space (and a UTF-8 byte order mark) is skipped however long it
    is; no document format PyMuPDF opens starts with ``{``.
    """
    if Path(path).suffix.lower() == ".json":
        return True
    with open(path, "rb") as handle:
        head = handle.read(JSON_SNIFF_BYTES)
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:]
        while head and not head.lstrip(b" \t\r\n"):
            head = handle.read(JSON_SNIFF_BYTES)
    return head.lstrip(b" \t\r\n").startswith(b"{")


def is_doc_json_bytes(name: str | os.PathLike[str], data: bytes) -> bool:
    """:func:`is_doc_json` for a file already read into ``data`` (``name`` only names it)."""
    if Path(name).suffix.lower() == ".json":
        return True
    return data.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"{")


def read_doc_json_report(path: str | os.PathLike[str]) -> Extraction:
    """A Doc JSON file's Doc, with the unreadable pages its "source" key records
    (as `siftui extract` writes them; none when the key is missing or malformed)."""
    return doc_json_report(path, Path(path).read_bytes())


def doc_json_report(name: str | os.PathLike[str], data: bytes) -> Extraction:
    """:func:`read_doc_json_report` for a file already read into ``data`` (``name``
    only names it)."""
    try:
        # utf-8-sig: a byte order mark (some Windows editors add one) is not an error.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LoadError(f"{quoted(name)}: not a Doc JSON file (not UTF-8 text)") from None
    try:
        doc, whole = from_json_object(text)
    except BadDocJson as error:
        raise LoadError(f"{quoted(name)}: {error}") from None
    source = whole.get("source")
    records = source.get(UNREADABLE_KEY) if isinstance(source, dict) else None
    return Extraction(doc, from_records(records, len(doc.pages)) or ())


UNREADABLE_KEY = "unreadable_pages"
"""The key of the Doc JSON's source info that lists the pages that could not be read."""


def load_doc_report(
    path: str | os.PathLike[str],
    options: LoadOptions = DEFAULT_LOAD,
    *,
    progress: PageProgress | None = None,
    answering: Options | None = None,
) -> Extraction:
    """A Doc JSON as it is (its first ``options.max_pages`` pages), or a document
    extracted as ``options`` say through the disk cache (siftui.sources.cache: never
    with a password; ``use_cache=False`` bypasses it), with the pages that could not be
    read. ``progress(done, total)`` is called as pages are extracted.

    ``answering``: the one request the Doc is for. A page range (no grep, no OCR)
    on a document the cache does not hold gets a partial Doc (siftui.sources.lazy:
    the pages its answer reads, the others empty) that renders that request's
    answer exactly, and is good for nothing else; nothing is cached.

    A Word document is refused: MuPDF opens some, but its text is not the
    projection an agent gets (DOCX.md), which `siftui render` and read_docx give."""
    max_pages = options.max_pages
    try:
        check_file(path)
        if kind_of_file(path) is WORD:
            raise LoadError(f"{quoted(path)}: {WORD_ELSEWHERE}")
        if is_doc_json(path):
            found = read_doc_json_report(path)
            return found if max_pages is None else found.first_pages(max_pages)
        if answering is not None and not options.ocr:  # one call to answer: CLI's, MCP's
            from siftui.sources.lazy import is_range, read_range

            if is_range(answering):
                hit = cached_report(path, max_pages=max_pages) if options.cached else None
                if hit is not None:
                    return hit
                return read_range(path, answering, options).found
        return cached_extract_report(path, options, progress=progress)
    except ExtractError as error:
        raise LoadError(str(error), type(error)) from None
    except OSError as error:
        raise LoadError(file_error(path, error)) from None


def load_doc_bytes(
    name: str | os.PathLike[str],
    data: bytes,
    options: LoadOptions = DEFAULT_LOAD,
    *,
    progress: PageProgress | None = None,
) -> Extraction:
    """:func:`load_doc_report` for a file already read into ``data`` (``name`` only
    names it), as the MCP worker reads one: a Doc JSON as it is, else the document
    extracted in this process through the disk cache (keyed by the bytes' sha256) when
    ``options.cached`` (a PDF opened with ``options.password`` never is). Only the
    password and the cache of ``options`` apply."""
    if is_doc_json_bytes(name, data):
        return doc_json_report(name, data)
    store = DocCache.default() if options.cached else None
    key = cache_key(hashlib.sha256(data).hexdigest(), None, None, name=name)
    found = store.get_report(key) if store is not None else None
    if found is None:
        reading = LoadOptions(password=options.password, workers=1)
        try:
            found = extract_report(name, reading, progress=progress, data=data)
        except ExtractError as error:
            raise LoadError(str(error), type(error)) from None
        if store is not None:
            store.put(key, found.doc, found.unreadable)
    return found


def source_info(path: str | os.PathLike[str], found: Extraction | None = None) -> dict[str, Any]:
    """The Doc JSON's "source": the file, the extractor, and the pages it could not read."""
    return {
        "path": str(path),
        "size": os.path.getsize(path),
        "sha256": file_sha256(path),
        "extractor": f"siftui {__version__}, PyMuPDF {pymupdf_version()}",
        UNREADABLE_KEY: to_records(found.unreadable if found is not None else ()),
    }


def load_source(path: str | os.PathLike[str], options: LoadOptions = DEFAULT_LOAD) -> str:
    """The Doc JSON of a document read as ``options`` say, with a "source" key
    describing the file."""
    try:
        check_file(path)
        if is_doc_json(path):
            raise LoadError(
                f"{quoted(path)}: already a Doc JSON file; use siftui render to read it"
            )
        found = cached_extract_report(path, options)
        return doc_to_json(found.doc, source_info(path, found))
    except ExtractError as error:
        raise LoadError(str(error)) from None
    except OSError as error:
        raise LoadError(file_error(path, error)) from None
