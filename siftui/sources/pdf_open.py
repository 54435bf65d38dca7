"""A document opened with PyMuPDF, and what every reader of its pages shares: the
refusals (the :class:`ExtractError` family, one line each), one page's text, the
outline, and the deadline a load is stopped at. siftui.sources.extract (the whole
extraction), siftui.sources.parallel (its helper processes), siftui.sources.lazy (a
first page range) and siftui.sources.hidden read pages through it."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from siftui.core.doc import OutlineItem
from siftui.core.messages import quoted
from siftui.sources.damage import (
    ATTACHMENTS_ONLY,
    REPAIRED_NO_PAGES,
    mupdf_reason,
    only_attachments_encrypted,
    open_failure,
    repaired,
)
from siftui.sources.detect import mupdf_type
from siftui.sources.pdf_outline import walk_outline
from siftui.sources.word.kind import PDF_HEADER_WITHIN

PageProgress = Callable[[int, int], None]
"""Told (pages done, pages) as the pages of a document are read."""


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


PASSWORD_HINT = " (use --password)"
"""How a refusal for a missing password points to the commands' option."""


class NeedsPassword(ExtractError):
    pass


class WrongPassword(ExtractError):
    pass


class NoPages(ExtractError):
    pass


class TimedOut(ExtractError):
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


def check_max_pages(max_pages: int | None) -> None:
    """ValueError for a negative ``max_pages`` (None: every page)."""
    if max_pages is not None and max_pages < 0:
        raise ValueError(f"max_pages must be >= 0, not {max_pages}")


def _type_hint(where: Path, data: bytes | None) -> str | None:
    """The type MuPDF is told (siftui.sources.detect.mupdf_type: a PDF's bytes are a PDF
    whatever the name, other bytes their suffix's type), from ``data`` or the file's
    first bytes."""
    head = data
    if head is None:
        try:
            with open(where, "rb") as handle:
                head = handle.read(PDF_HEADER_WITHIN)
        except OSError:
            head = b""
    return mupdf_type(where, head[:PDF_HEADER_WITHIN])


def open_document(
    path: str | os.PathLike[str],
    password: str | None = None,
    *,
    data: bytes | None = None,
    outline: bool = True,
) -> Any:
    """An open, authenticated PyMuPDF document with at least one page.

    With ``data``, the document is those bytes (already read from a descriptor
    by the caller) and ``path`` only names it: its suffix is the type hint
    PyMuPDF gets, and the file system is not touched.

    PyMuPDF reads the outline as it opens a document, resolving each entry's page:
    0.18 s of pgfmanual's 0.2 s open (1,182 entries), which a reader of pages alone
    never needs. With ``outline=False`` a PDF's is not read: :func:`read_outline` reads
    it later (or never: a helper process reading chunks of pages).
    """
    where = Path(path) if data is not None else check_file(path)
    pymupdf = quiet_pymupdf()
    pymupdf.TOOLS.reset_mupdf_warnings()
    filetype = _type_hint(where, data)
    # Only a PDF's outline waits: MuPDF lays other kinds out (a text file, an EPUB) as it
    # reads their outline, and asked for their metadata before that it crashes.
    opener = pymupdf.open if outline or filetype != "pdf" else _outline_later()
    try:
        if data is not None:
            document = opener(stream=data, filetype=filetype)
        else:
            with _name_for_mupdf(where) as name:
                document = opener(name, filetype=filetype)
    except Exception as error:  # PyMuPDF raises several types for unreadable input
        reason = open_failure(error, where, _mupdf_notes(), filetype)
        raise NotReadable(f"{quoted(where)}: not a document siftui can read ({reason})") from None
    try:
        if document.needs_pass:
            attachments = only_attachments_encrypted(document)
            if password is None:
                if attachments:
                    raise NeedsPassword(f"{quoted(where)}: {ATTACHMENTS_ONLY}")
                raise NeedsPassword(f"{quoted(where)}: needs a password{PASSWORD_HINT}")
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


@contextlib.contextmanager
def _name_for_mupdf(path: Path) -> Iterator[str]:
    """A name MuPDF opens ``path`` by. PyMuPDF hands MuPDF the name in UTF-8, which a name
    whose bytes are not UTF-8 (Python holds each bad byte as a lone surrogate) does not
    have: such a file is opened through the name of a descriptor of it (/proc/self/fd/N,
    or /dev/fd/N where there is no /proc), which MuPDF resolves to the same file, so its
    bytes are not copied into memory (by each helper process, too). MuPDF keeps its own
    handle: the descriptor is closed once it has opened the file."""
    name = os.fspath(path)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        yield name
        return
    descriptor = os.open(path, os.O_RDONLY)
    try:
        folder = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
        yield f"{folder}/{descriptor}"
    finally:
        os.close(descriptor)


@functools.cache
def _outline_later() -> Any:
    """The class of the documents :func:`open_document` opens with ``outline=False``:
    PyMuPDF's Document but for the outline it reads at open (``init_doc`` asks
    ``_loadOutline``, PyMuPDF's own, for it), left empty until :func:`read_outline`.
    A PyMuPDF without ``_loadOutline`` gets its Document unchanged (the outline read
    at open, as before: slower, never different)."""
    document: Any = quiet_pymupdf().Document
    if not callable(getattr(document, "_loadOutline", None)):
        return document

    class OutlineLater(document):  # type: ignore[misc]
        outline_read = False

        def _loadOutline(self) -> Any:  # PyMuPDF's name
            return super()._loadOutline() if self.outline_read else None

    return OutlineLater


def outline_read(document: Any) -> bool:
    """Whether PyMuPDF has read ``document``'s outline (at open, or by :func:`read_outline`)."""
    return bool(getattr(document, "outline_read", True))


def read_outline(document: Any) -> None:
    """Read the outline of a document opened with ``outline=False`` (nothing for any other:
    PyMuPDF read it at open), so that ``get_toc`` and :func:`outline_of` see it."""
    if not outline_read(document):
        document.outline_read = True
        document._outline = document._loadOutline()


def _mupdf_notes() -> str:
    """MuPDF's warnings since the last reset, one a line ("" if they cannot be had)."""
    try:
        return str(quiet_pymupdf().TOOLS.mupdf_warnings())
    except Exception:  # the notes are a nicety; never fail for them
        return ""


def read_page(document: Any, number: int) -> tuple[str, str | None]:
    """Page ``number`` (0-based)'s ``get_text()`` and None, or "" and why it cannot be read."""
    try:
        page = document[number]
    except Exception as error:  # a damaged page: its text is empty, and why is kept
        return "", mupdf_reason(error)
    return page_text(page)


def page_text(page: Any) -> tuple[str, str | None]:
    """A loaded page's ``get_text()`` and None, or "" and why it cannot be read."""
    try:
        return str(page.get_text()), None
    except Exception as error:
        return "", mupdf_reason(error)


def nothing_readable(failed: dict[int, str], page_count: int) -> str:
    """Why a document none of whose extracted pages can be read is refused."""
    first = f"page 1 is damaged: {failed[1]}"
    if len(failed) == 1:
        return first
    if len(failed) == page_count:
        return f"none of its {page_count} pages can be read ({first})"
    return f"none of pages 1-{len(failed)} can be read ({first})"


def outline_of(document: Any, path: str | os.PathLike[str]) -> list[OutlineItem]:
    """The open document's outline (a hostile one walked without recursion), or
    :class:`NotReadable`."""
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
