"""PDF (or any document PyMuPDF opens) -> Doc: :func:`extract_report`, and
:func:`extract`, CONTRACT.md's ``siftui.extract.extract``. Opening the document and
reading one page are siftui.sources.pdf_open's; helper processes for long documents
siftui.sources.parallel's."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from siftui.core.doc import Doc
from siftui.core.messages import one_line, quoted
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE, missing_languages
from siftui.core.unreadable import Extraction, UnreadablePage
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import (
    ExtractError,
    NotReadable,
    PageProgress,
    check_max_pages,
    nothing_readable,
    open_document,
    outline_of,
    outline_read,
    quiet_pymupdf,
    read_page,
)
from siftui.sources.pdf_outline import title_of

if TYPE_CHECKING:
    from siftui.sources.deadline import Deadline


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


def extract(
    path: str | os.PathLike[str],
    *,
    max_pages: int | None = None,
    password: str | None = None,
    progress: PageProgress | None = None,
) -> Doc:
    """The Doc of the contract: every page's ``get_text()``, unchanged.

    :func:`extract_report`'s Doc: a page MuPDF cannot read is extracted as ""
    (the report says which pages those are and why); the document is refused only
    when no extracted page can be read.
    """
    options = LoadOptions(password=password, max_pages=max_pages)
    return extract_report(path, options, progress=progress).doc


def extract_report(
    path: str | os.PathLike[str],
    options: LoadOptions = DEFAULT_LOAD,
    *,
    progress: PageProgress | None = None,
    data: bytes | None = None,
) -> Extraction:
    """The Doc of the contract, and the pages of it that could not be read, read as
    ``options`` say (their ``use_cache`` is siftui.sources.cache's, not this).

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
    check_max_pages(options.max_pages)
    timeout = options.timeout
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be > 0, not {timeout}")
    from siftui.sources.deadline import Deadline  # a reading's, not a cache hit's

    deadline = Deadline.start(path, timeout)
    if options.ocr:
        reason = ocr_unavailable_reason(options.ocr_language)
        if reason is not None:
            raise OcrUnavailable(reason)
    from siftui.sources.parallel import (
        CHUNK_PAGES,
        default_workers,
        extract_parallel,
        may_start_processes,
    )

    workers = options.workers
    helpers = (default_workers() if workers is None else max(1, workers)) - 1
    if data is not None or not may_start_processes():
        helpers = 0
    # With helper processes a PDF's outline (0.18 s of pgfmanual's 0.2 s open) is read
    # once they are started, while they start (~0.2 s). Without them, the file is opened
    # again as it always was (a few milliseconds for a document of under 256 pages).
    document = open_document(path, options.password, data=data, outline=helpers == 0)
    try:
        page_count = document.page_count
        max_pages = options.max_pages
        extracted = page_count if max_pages is None else min(page_count, max_pages)
        helpers = min(helpers, max(0, extracted // CHUNK_PAGES - 1))
        if extracted >= options.parallel_min_pages and helpers > 0:
            pages, failed = extract_parallel(
                document, path, options.password, extracted, helpers, progress, deadline
            )
        else:
            if not outline_read(document):
                opened, document = document, None
                opened.close()
                document = open_document(path, options.password, data=data)
                page_count = document.page_count
                extracted = page_count if max_pages is None else min(page_count, max_pages)
            pages, failed = [], {}
            for number in range(extracted):
                deadline.check()
                text, reason = read_page(document, number)
                pages.append(text)
                if reason is not None:
                    failed[number + 1] = reason
                if progress is not None:
                    progress(number + 1, extracted)
        if failed and len(failed) == extracted:
            raise NotReadable(f"{quoted(path)}: {nothing_readable(failed, page_count)}")
        if options.ocr:
            pages = _ocr_empty_pages(
                document, pages, set(failed), path, options.ocr_language, deadline
            )
        title = title_of(document)
        outline = tuple(outline_of(document, path))
    finally:
        if document is not None:
            document.close()
    doc = Doc(title=title, page_count=page_count, pages=tuple(pages), outline=outline)
    unreadable = tuple(UnreadablePage(page, failed[page]) for page in sorted(failed))
    return Extraction(doc, unreadable)


def _ocr_empty_pages(
    document: Any,
    pages: list[str],
    unreadable: set[int],
    path: str | os.PathLike[str],
    language: str,
    deadline: Deadline,
) -> list[str]:
    """``pages`` with every empty page replaced by what Tesseract reads on it
    (but for the ``unreadable`` ones, 1-based: MuPDF cannot render them either)."""
    read = list(pages)
    for number, text in enumerate(pages):
        if text.strip() or number + 1 in unreadable:
            continue
        deadline.check()
        page = document[number]
        try:
            textpage = page.get_textpage_ocr(language=language, dpi=OCR_DPI, full=True)
            read[number] = str(page.get_text(textpage=textpage))
        except Exception as error:  # Tesseract's failures come as several types
            reason = f"OCR of page {number + 1} failed ({one_line(error)})"
            raise NotReadable(f"{quoted(path)}: {reason}") from None
    return read
