# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Inspect a whole document for hidden text, in helper processes for long ones.

The same approach as siftui.sources.extract: from ``parallel_min_pages`` pages on,
``workers - 1`` plain ``python -S -c`` helper processes (each opening the file
itself) inspect chunks of pages beside this process, which takes chunks too;
the findings are the same, in page order, whatever the split.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from typing import Any

from siftui.core.findings import Finding, Inspection
from siftui.core.messages import one_line, quoted
from siftui.sources.deadline import Deadline
from siftui.sources.helper import Helper, start_python_helper
from siftui.sources.hidden.detect import inspect_page
from siftui.sources.hidden.glyphs import GlyphCheck
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.parallel import (
    CHUNK_PAGES,
    Helpers,
    PageWork,
    default_workers,
    may_start_processes,
    serve_chunks,
    share_chunks,
)
from siftui.sources.pdf_open import (
    NotReadable,
    PageProgress,
    check_max_pages,
    open_document,
)

PageFindings = tuple[list[Finding], list[Finding]]
"""A page's findings and its hidden text not extracted (see inspect_page)."""

NONE: PageFindings = ([], [])


@dataclass(frozen=True)
class _Inspecting:
    """One inspection under way: the open ``document`` (the file at ``path``, opened with
    ``password``, which a helper opens again), the check of its fonts' glyphs, when it
    must stop, and whom to tell of its progress."""

    document: Any
    path: str | os.PathLike[str]
    password: str | None = field(repr=False)  # never shown, as siftui.sources.unlocked's
    glyphs: GlyphCheck
    deadline: Deadline
    progress: PageProgress | None


def inspect_document(
    path: str | os.PathLike[str],
    options: LoadOptions = DEFAULT_LOAD,
    *,
    progress: PageProgress | None = None,
    data: bytes | None = None,
    skip: frozenset[int] = frozenset(),
) -> Inspection:
    """Every finding of pages 1..E (E = min(page count, ``options.max_pages``)), in page
    order, the document opened with ``options.password`` (its OCR and cache options are
    not this function's).

    Errors are siftui.sources.pdf_open's (one line each); ``timeout`` (seconds, for the
    whole inspection) raises TimedOut. ``progress(done, total)`` is called here.
    With ``data`` (the file's bytes, read by the caller) ``path`` only names the
    document and no helper process is started (they would reopen ``path``).
    Pages in ``skip`` (1-based: those extraction found unreadable, whose text is
    empty) are not inspected, so that one damaged page costs its own findings only;
    with ``skip``, no helper process is started either.
    """
    max_pages, workers = options.max_pages, options.workers
    check_max_pages(max_pages)
    deadline = Deadline.start(path, options.timeout, "inspection")
    document = open_document(path, options.password, data=data)
    try:
        page_count = document.page_count
        pages = page_count if max_pages is None else min(page_count, max_pages)
        helpers = (default_workers() if workers is None else max(1, workers)) - 1
        helpers = min(helpers, max(0, pages // CHUNK_PAGES - 1))
        found: list[PageFindings | None] = [None] * pages
        glyphs = GlyphCheck()  # the document's fonts, judged once for all pages
        if data is not None or skip:
            helpers = 0
        if pages >= options.parallel_min_pages and helpers > 0 and may_start_processes():
            inspecting = _Inspecting(document, path, options.password, glyphs, deadline, progress)
            _parallel(inspecting, found, helpers)
        done = sum(1 for page in found if page is not None)
        for number in range(pages):  # serial, or what the helpers left
            if found[number] is None and number + 1 in skip:
                found[number] = NONE
                done += 1
            if found[number] is None:
                deadline.check()
                found[number] = _inspect(document, number, path, glyphs)
                done += 1
                if progress is not None:
                    progress(done, pages)
    finally:
        document.close()
    return Inspection(
        page_count=page_count,
        pages_inspected=pages,
        findings=tuple(finding for page in found if page for finding in page[0]),
        unextracted=tuple(finding for page in found if page for finding in page[1]),
    )


def _inspect(
    document: Any, number: int, path: str | os.PathLike[str], glyphs: GlyphCheck
) -> PageFindings:
    # A page's text trace is tens of thousands of small tuples without cycles:
    # the cyclic garbage collector, run again and again while they are made,
    # costs ~10% and finds nothing. It is paused for one page at a time only.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return inspect_page(document[number], number + 1, glyphs)
    except Exception as error:  # a damaged page: say which one, in one line
        raise NotReadable(
            f"{quoted(path)}: page {number + 1} cannot be inspected ({one_line(error)})"
        ) from None
    finally:
        if paused:
            gc.enable()


_HELPER_CODE = (
    "import sys; from siftui.sources.hidden.document import _helper_main; "
    "_helper_main(int(sys.argv[1]))"
)


def _start_helper() -> Helper:
    """A hidden-text helper (:func:`_helper_main`) and this process's end of the pair to it."""
    return start_python_helper(_HELPER_CODE)


def _helper_main(fd: int) -> None:
    """A hidden-text helper: each chunk's findings (see siftui.sources.parallel.serve_chunks)."""

    def chunk(document: Any, path: str, start: int, end: int) -> tuple[Any, ...]:
        glyphs = GlyphCheck()
        return ([_inspect(document, number, path, glyphs) for number in range(start, end)],)

    serve_chunks(fd, chunk)


def _parallel(inspecting: _Inspecting, found: list[PageFindings | None], helpers: int) -> None:
    """Fill ``found`` with this process and ``helpers`` helpers sharing the pages
    (siftui.sources.parallel.share_chunks, extraction's scheduler). A chunk a helper did
    not send back stays None (done by the caller)."""
    pages = len(found)
    done = 0
    progress = inspecting.progress

    def tick(count: int) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(done, pages)

    def work(number: int) -> None:
        found[number] = _inspect(inspecting.document, number, inspecting.path, inspecting.glyphs)
        tick(1)

    def received(start: int, rest: tuple[Any, ...]) -> None:
        (chunk,) = rest
        found[start : start + len(chunk)] = chunk
        tick(len(chunk))

    share_chunks(
        Helpers(
            _start_helper,
            (os.fspath(inspecting.path), inspecting.password, pages),
            helpers,
            lambda message: NotReadable(message[2]),
        ),
        PageWork(work, received),
        inspecting.deadline,
    )
