"""Open what the user named: a document (through extract) or a saved Doc JSON."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from siftui import __version__
from siftui.cache import cached_extract, file_sha256
from siftui.doc import Doc
from siftui.docjson import BadDocJson, from_json, to_json
from siftui.extract import ExtractError, Progress, check_file, pymupdf_version
from siftui.messages import quoted

JSON_SNIFF_BYTES = 64


class LoadError(Exception):
    """The file cannot be turned into a Doc; ``str(error)`` is one line for users.

    ``reason`` is the extraction error's type when there was one (the TUI asks
    for a password on :class:`siftui.extract.NeedsPassword`).
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


def read_doc_json(path: str | os.PathLike[str]) -> Doc:
    try:
        # utf-8-sig: a byte order mark (some Windows editors add one) is not an error.
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise LoadError(f"{quoted(path)}: not a Doc JSON file (not UTF-8 text)") from None
    try:
        return from_json(text)
    except BadDocJson as error:
        raise LoadError(f"{quoted(path)}: {error}") from None


def load_doc(
    path: str | os.PathLike[str],
    *,
    max_pages: int | None = None,
    password: str | None = None,
    use_cache: bool = True,
    ocr: bool = False,
    progress: Progress | None = None,
) -> Doc:
    """A Doc JSON as it is, or a document extracted through the disk cache
    (siftui.cache: never with a password; ``use_cache=False`` bypasses it).
    ``progress(done, total)`` is called as pages are extracted."""
    try:
        check_file(path)
        if is_doc_json(path):
            doc = read_doc_json(path)
            if max_pages is not None and max_pages < len(doc.pages):
                doc = Doc(doc.title, doc.page_count, doc.pages[:max_pages], doc.outline)
            return doc
        return cached_extract(
            path,
            max_pages=max_pages,
            password=password,
            use_cache=use_cache,
            ocr=ocr,
            progress=progress,
        )
    except ExtractError as error:
        raise LoadError(str(error), type(error)) from None
    except OSError as error:
        raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None


def source_info(path: str | os.PathLike[str]) -> dict[str, Any]:
    return {
        "path": str(path),
        "size": os.path.getsize(path),
        "sha256": file_sha256(path),
        "extractor": f"siftui {__version__}, PyMuPDF {pymupdf_version()}",
    }


def load_source(
    path: str | os.PathLike[str],
    *,
    max_pages: int | None = None,
    password: str | None = None,
    use_cache: bool = True,
    ocr: bool = False,
) -> str:
    """The Doc JSON of a document, with a "source" key describing the file."""
    try:
        check_file(path)
        if is_doc_json(path):
            raise LoadError(
                f"{quoted(path)}: already a Doc JSON file; use siftui render to read it"
            )
        doc = cached_extract(
            path, max_pages=max_pages, password=password, use_cache=use_cache, ocr=ocr
        )
        return to_json(doc, source_info(path))
    except ExtractError as error:
        raise LoadError(str(error)) from None
    except OSError as error:
        raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None
