"""PDF (or any document PyMuPDF opens) -> Doc. The only module that touches PyMuPDF."""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from siftui.doc import Doc, OutlineItem

Progress = Callable[[int, int], None]


@functools.cache
def _pymupdf() -> Any:
    """PyMuPDF, imported on first use: it is 3/4 of the CLI's start-up time, and
    `siftui render doc.json` or a bad option never needs it."""
    import pymupdf

    # MuPDF prints repair warnings and errors to stderr by default; siftui reports
    # problems itself, in one line, so the library's own chatter is turned off.
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    return pymupdf


class ExtractError(Exception):
    """A document that cannot be read; ``str(error)`` is one line for users."""


class NotFound(ExtractError):
    pass


class NotAFile(ExtractError):
    pass


class NotReadable(ExtractError):
    """Exists but cannot be read or is not a document PyMuPDF can open."""


class NeedsPassword(ExtractError):
    pass


class WrongPassword(ExtractError):
    pass


class NoPages(ExtractError):
    pass


def pymupdf_version() -> str:
    return str(_pymupdf().VersionBind)


_CONTROL = {code: f"\\x{code:02x}" for code in (*range(32), 127)} | {
    ord("\n"): "\\n",
    ord("\r"): "\\r",
    ord("\t"): "\\t",
}


def shown(path: str | os.PathLike[str]) -> str:
    """A path as error messages show it: control characters escaped, so that a
    file name holding a newline cannot break the one-line message in two."""
    return os.fspath(path).translate(_CONTROL)


def check_file(path: str | os.PathLike[str]) -> Path:
    """The path as a regular, readable file, or an :class:`ExtractError`."""
    where = Path(path)
    try:
        info = where.stat()
    except FileNotFoundError:
        raise NotFound(f"{shown(where)}: no such file") from None
    except PermissionError:
        raise NotReadable(f"{shown(where)}: permission denied") from None
    except OSError as error:
        raise NotReadable(f"{shown(where)}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotAFile(f"{shown(where)}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise NotAFile(f"{shown(where)}: not a regular file")
    if not os.access(where, os.R_OK):
        raise NotReadable(f"{shown(where)}: permission denied")
    if info.st_size == 0:
        raise NotReadable(f"{shown(where)}: empty file, not a document")
    return where


def open_document(path: str | os.PathLike[str], password: str | None = None) -> Any:
    """An open, authenticated PyMuPDF document with at least one page."""
    where = check_file(path)
    try:
        document = _pymupdf().open(where)
    except Exception as error:  # PyMuPDF raises several types for unreadable input
        reason = _one_line(error)
        raise NotReadable(f"{shown(where)}: not a document siftui can read ({reason})") from None
    try:
        if document.needs_pass:
            if password is None:
                raise NeedsPassword(f"{shown(where)}: needs a password (use --password)")
            if not document.authenticate(password):
                raise WrongPassword(f"{shown(where)}: wrong password")
        if document.page_count < 1:
            raise NoPages(f"{shown(where)}: the document has no pages")
    except BaseException:
        document.close()
        raise
    return document


def extract(
    path: str | os.PathLike[str],
    *,
    max_pages: int | None = None,
    password: str | None = None,
    progress: Progress | None = None,
) -> Doc:
    """The Doc of the contract: every page's ``get_text()``, unchanged."""
    if max_pages is not None and max_pages < 0:
        raise ValueError(f"max_pages must be >= 0, not {max_pages}")
    document = open_document(path, password)
    try:
        page_count = document.page_count
        extracted = page_count if max_pages is None else min(page_count, max_pages)
        pages = []
        for number in range(extracted):
            pages.append(_page_text(document, number, path))
            if progress is not None:
                progress(number + 1, extracted)
        title = _title(document)
        outline = tuple(_outline(document, path))
    finally:
        document.close()
    return Doc(title=title, page_count=page_count, pages=tuple(pages), outline=outline)


def _page_text(document: Any, number: int, path: str | os.PathLike[str]) -> str:
    try:
        return str(document[number].get_text())
    except Exception as error:  # a damaged page: say which one, in one line
        raise NotReadable(
            f"{shown(path)}: page {number + 1} cannot be read ({_one_line(error)})"
        ) from None


def _title(document: Any) -> str:
    try:
        metadata = document.metadata or {}
    except Exception:  # damaged metadata: the title is optional, the text is not
        return ""
    title = metadata.get("title")
    return title if isinstance(title, str) else ""


def _outline(document: Any, path: str | os.PathLike[str]) -> list[OutlineItem]:
    try:
        toc = document.get_toc(simple=True)
    except Exception as error:
        reason = _one_line(error)
        raise NotReadable(f"{shown(path)}: the outline cannot be read ({reason})") from None
    return [
        OutlineItem(level=int(level), title=str(title), page=int(page))
        for level, title, page, *_ in toc
    ]


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__
