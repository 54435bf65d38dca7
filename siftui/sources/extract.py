"""PDF (or any document PyMuPDF opens) -> Doc. The only module that touches PyMuPDF."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict, Unpack

from siftui.core.doc import Doc, OutlineItem
from siftui.core.messages import one_line, quoted
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE, missing_languages
from siftui.core.unreadable import Extraction, UnreadablePage
from siftui.sources.damage import (
    ATTACHMENTS_ONLY,
    REPAIRED_NO_PAGES,
    mupdf_reason,
    only_attachments_encrypted,
    open_failure,
    repaired,
)
from siftui.sources.pdf_outline import title_of, walk_outline
from siftui.sources.word.kind import PDF_HEADER_WITHIN, is_pdf_head

Progress = Callable[[int, int], None]


@functools.cache
def quiet_pymupdf() -> Any:
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


@functools.cache
def pymupdf_version() -> str:
    """PyMuPDF's version, read from its ``_build.py`` without importing it (0.2-0.7 s):
    a warm-cache render, and the cache key it needs, never load PyMuPDF itself."""
    try:
        spec = importlib.util.find_spec("pymupdf")
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                build = Path(location, "_build.py").read_text("utf-8")
                found = re.search(r"^pymupdf_version\s*=\s*['\"]([^'\"]+)['\"]", build, re.M)
                if found:
                    return found.group(1)
    except (OSError, ImportError, ValueError):
        pass
    return str(quiet_pymupdf().VersionBind)


def check_file(path: str | os.PathLike[str]) -> Path:
    """The path as a regular, readable file, or an :class:`ExtractError`."""
    where = Path(path)
    try:
        info = where.stat()
    except FileNotFoundError:
        raise NotFound(f"{quoted(where)}: no such file") from None
    except PermissionError:
        raise NotReadable(f"{quoted(where)}: permission denied") from None
    except OSError as error:
        raise NotReadable(f"{quoted(where)}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotAFile(f"{quoted(where)}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise NotAFile(f"{quoted(where)}: not a regular file")
    if not os.access(where, os.R_OK):
        raise NotReadable(f"{quoted(where)}: permission denied")
    if info.st_size == 0:
        raise NotReadable(f"{quoted(where)}: empty file, not a document")
    return where


def _type_hint(where: Path, data: bytes | None) -> str | None:
    """The type MuPDF is told: a PDF's bytes are a PDF whatever the file's name (as the
    kind table decides), so a damaged one named .docx is not reported as a DOCX.
    Otherwise bytes given are their suffix's type (a PDF without one), and a file is
    left to MuPDF (its name, then its content)."""
    head = data
    if head is None:
        try:
            with open(where, "rb") as handle:
                head = handle.read(PDF_HEADER_WITHIN)
        except OSError:
            head = b""
    if is_pdf_head(head):
        return "pdf"
    if data is None:
        return None
    return where.suffix.lstrip(".") or "pdf"


def open_document(
    path: str | os.PathLike[str], password: str | None = None, *, data: bytes | None = None
) -> Any:
    """An open, authenticated PyMuPDF document with at least one page.

    With ``data``, the document is those bytes (already read from a descriptor
    by the caller) and ``path`` only names it: its suffix is the type hint
    PyMuPDF gets, and the file system is not touched.
    """
    where = Path(path) if data is not None else check_file(path)
    pymupdf = quiet_pymupdf()
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        if data is not None:
            document = pymupdf.open(stream=data, filetype=_type_hint(where, data))
        else:
            document = pymupdf.open(where, filetype=_type_hint(where, None))
    except Exception as error:  # PyMuPDF raises several types for unreadable input
        reason = open_failure(error, where, _mupdf_notes())
        raise NotReadable(f"{quoted(where)}: not a document siftui can read ({reason})") from None
    try:
        if document.needs_pass:
            attachments = only_attachments_encrypted(document)
            if password is None:
                if attachments:
                    raise NeedsPassword(f"{quoted(where)}: {ATTACHMENTS_ONLY}")
                raise NeedsPassword(f"{quoted(where)}: needs a password (use --password)")
            if not document.authenticate(password):
                if attachments:
                    raise WrongPassword(f"{quoted(where)}: wrong password ({ATTACHMENTS_ONLY})")
                raise WrongPassword(f"{quoted(where)}: wrong password")
        try:
            page_count = document.page_count
        except Exception as error:  # a damaged page tree: MuPDF raises RuntimeError
            reason = mupdf_reason(error)
            raise NotReadable(f"{quoted(where)}: the page tree cannot be read ({reason})") from None
        if page_count < 1:
            if repaired(document):
                raise NoPages(f"{quoted(where)}: {REPAIRED_NO_PAGES}")
            raise NoPages(f"{quoted(where)}: the document has no pages")
    except BaseException:
        document.close()
        raise
    return document


def _mupdf_notes() -> str:
    """MuPDF's warnings since the last reset, one a line ("" if they cannot be had)."""
    try:
        return str(quiet_pymupdf().TOOLS.mupdf_warnings())
    except Exception:  # the notes are a nicety; never fail for them
        return ""


PARALLEL_MIN_PAGES = 256
"""Documents with at least this many pages to extract use helper processes too.

A helper costs one interpreter start plus ``import pymupdf`` before its first
page (~0.3 s on a quiet core, 0.7-2.7 s measured here under a load average of
5-8), while this process goes on extracting; it can only pay off once the
serial extraction takes well over that. At ~2 ms a page (pgfmanual) that is
a few hundred pages; on a loaded 2-core machine, 64-256 pages in two
processes measured 1.3-1.6x slower than one (bench/extract_parallel.py
--sweep), so small and mid-sized files stay in one process."""

CHUNK_PAGES = 16
"""Pages a process claims at a time: small enough to balance uneven pages (a
straggling chunk costs ~30 ms), large enough that claiming costs nothing."""

MAX_WORKERS = 4


class OcrUnavailable(ExtractError):
    """OCR was asked for, but Tesseract (or its language data) is not installed."""


OCR_DPI = 300


def ocr_unavailable_reason(language: str = DEFAULT_OCR_LANGUAGE) -> str | None:
    """Why OCR cannot run here, or None when Tesseract and every language of
    ``language`` (Tesseract's codes joined by ``+``) are installed."""
    pymupdf = quiet_pymupdf()
    try:
        tessdata = pymupdf.get_tessdata()
    except Exception as error:  # PyMuPDF raises a bare RuntimeError when it finds no Tesseract
        # Say what failed: a missing Tesseract, but also a TESSDATA_PREFIX that
        # names no directory or a tesseract that cannot run.
        return (
            f"OCR needs Tesseract and its language data, which could not be found "
            f"({one_line(error)}; Debian: apt-get install tesseract-ocr)"
        )
    # What `tesseract --list-langs` lists: the language data in that directory.
    return missing_languages(language, installed_ocr_languages(tessdata))


def installed_ocr_languages(tessdata: str) -> list[str]:
    """The languages whose data is in ``tessdata``, sorted."""
    try:
        names = os.listdir(tessdata)
    except OSError:
        return []
    suffix = ".traineddata"
    return sorted(name.removesuffix(suffix) for name in names if name.endswith(suffix))


class TimedOut(ExtractError):
    pass


def default_workers() -> int:
    """Processes extracting at once (the calling one included): the usable cores, 1..4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


class ExtractKeywords(TypedDict, total=False):
    """The keywords of :func:`extract_report` (and so of :func:`extract`)."""

    max_pages: int | None
    password: str | None
    progress: Progress | None
    workers: int | None
    timeout: float | None
    parallel_min_pages: int
    ocr: bool
    ocr_language: str
    data: bytes | None


def extract(path: str | os.PathLike[str], **keywords: Unpack[ExtractKeywords]) -> Doc:
    """The Doc of the contract: every page's ``get_text()``, unchanged.

    :func:`extract_report`'s Doc: a page MuPDF cannot read is extracted as ""
    (the report says which pages those are and why); the document is refused only
    when no extracted page can be read.
    """
    return extract_report(path, **keywords).doc


def check_max_pages(max_pages: int | None) -> None:
    """ValueError for a negative ``max_pages`` (None: every page)."""
    if max_pages is not None and max_pages < 0:
        raise ValueError(f"max_pages must be >= 0, not {max_pages}")


def extract_report(
    path: str | os.PathLike[str],
    *,
    max_pages: int | None = None,
    password: str | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    timeout: float | None = None,
    parallel_min_pages: int = PARALLEL_MIN_PAGES,
    ocr: bool = False,
    ocr_language: str = DEFAULT_OCR_LANGUAGE,
    data: bytes | None = None,
) -> Extraction:
    """The Doc of the contract, and the pages of it that could not be read.

    A page on which MuPDF raises (a damaged page, a cycle in the page tree) is
    extracted as "" and listed in ``Extraction.unreadable`` with MuPDF's
    reason; :class:`NotReadable` only when none of the extracted pages can be
    read.

    With ``ocr``, a page whose text is empty (an image-only or scanned page)
    gets the text Tesseract reads in its image instead; off by default, as the
    contract's extraction never changes. Needs Tesseract (:class:`OcrUnavailable`).

    From ``parallel_min_pages`` pages on, ``workers - 1`` helper processes
    (each opening the file itself) extract chunks of pages beside this one;
    the Doc is the same, byte for byte. ``progress(done, total)`` is called
    here, in the calling thread, with ``done`` increasing up to ``total``.
    ``timeout`` (seconds, for the whole extraction) raises :class:`TimedOut`;
    it is checked between pages, and helper processes are killed.
    With ``data`` (the file's bytes, see :func:`open_document`) no helper
    process is started: they would open the file by name.
    """
    check_max_pages(max_pages)
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be > 0, not {timeout}")
    deadline = None if timeout is None else time.monotonic() + timeout
    if ocr:
        reason = ocr_unavailable_reason(ocr_language)
        if reason is not None:
            raise OcrUnavailable(reason)
    from siftui.sources.parallel import extract_parallel, may_start_processes

    document = open_document(path, password, data=data)
    try:
        page_count = document.page_count
        extracted = page_count if max_pages is None else min(page_count, max_pages)
        helpers = (default_workers() if workers is None else max(1, workers)) - 1
        helpers = min(helpers, max(0, extracted // CHUNK_PAGES - 1))
        if data is not None:
            helpers = 0
        if extracted >= parallel_min_pages and helpers > 0 and may_start_processes():
            pages, failed = extract_parallel(
                document, path, password, extracted, helpers, progress, deadline, timeout
            )
        else:
            pages, failed = [], {}
            for number in range(extracted):
                _check_deadline(path, deadline, timeout)
                text, reason = read_page(document, number)
                pages.append(text)
                if reason is not None:
                    failed[number + 1] = reason
                if progress is not None:
                    progress(number + 1, extracted)
        if failed and len(failed) == extracted:
            raise NotReadable(f"{quoted(path)}: {_nothing_readable(failed, page_count)}")
        if ocr:
            pages = _ocr_empty_pages(
                document, pages, set(failed), path, ocr_language, deadline, timeout
            )
        title = title_of(document)
        outline = tuple(_outline(document, path))
    finally:
        document.close()
    doc = Doc(title=title, page_count=page_count, pages=tuple(pages), outline=outline)
    unreadable = tuple(UnreadablePage(page, failed[page]) for page in sorted(failed))
    return Extraction(doc, unreadable)


def _nothing_readable(failed: dict[int, str], page_count: int) -> str:
    """Why a document none of whose extracted pages can be read is refused."""
    first = f"page 1 is damaged: {failed[1]}"
    if len(failed) == 1:
        return first
    if len(failed) == page_count:
        return f"none of its {page_count} pages can be read ({first})"
    return f"none of pages 1-{len(failed)} can be read ({first})"


def _check_deadline(
    path: str | os.PathLike[str], deadline: float | None, timeout: float | None
) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise TimedOut(f"{quoted(path)}: extraction took longer than {timeout:g} s; stopped")


def _ocr_empty_pages(
    document: Any,
    pages: list[str],
    unreadable: set[int],
    path: str | os.PathLike[str],
    language: str,
    deadline: float | None,
    timeout: float | None,
) -> list[str]:
    """``pages`` with every empty page replaced by what Tesseract reads on it
    (but for the ``unreadable`` ones, 1-based: MuPDF cannot render them either)."""
    read = list(pages)
    for number, text in enumerate(pages):
        if text.strip() or number + 1 in unreadable:
            continue
        _check_deadline(path, deadline, timeout)
        page = document[number]
        try:
            textpage = page.get_textpage_ocr(language=language, dpi=OCR_DPI, full=True)
            read[number] = str(page.get_text(textpage=textpage))
        except Exception as error:  # Tesseract's failures come as several types
            reason = f"OCR of page {number + 1} failed ({one_line(error)})"
            raise NotReadable(f"{quoted(path)}: {reason}") from None
    return read


def read_page(document: Any, number: int) -> tuple[str, str | None]:
    """Page ``number`` (0-based)'s ``get_text()`` and None, or "" and why it cannot be read."""
    try:
        return str(document[number].get_text()), None
    except Exception as error:  # a damaged page: its text is empty, and why is kept
        return "", mupdf_reason(error)


def _outline(document: Any, path: str | os.PathLike[str]) -> list[OutlineItem]:
    try:
        try:
            toc = document.get_toc(simple=True)
        except RecursionError:
            # get_toc recurses once per outline level; a hostile file nests thousands.
            toc = walk_outline(document)
    except Exception as error:
        reason = mupdf_reason(error)
        raise NotReadable(f"{quoted(path)}: the outline cannot be read ({reason})") from None
    return [
        OutlineItem(level=int(level), title=str(title), page=int(page))
        for level, title, page, *_ in toc
    ]
