"""What MuPDF's failures mean, in words for users (the sources layer, beside extract.py).

It reads open PyMuPDF documents and MuPDF's messages but never imports
PyMuPDF itself: siftui.sources.extract hands it what it needs.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

from siftui.core.messages import one_line

ATTACHMENTS_ONLY = (
    "only its attachments are encrypted, and MuPDF cannot open such files without the password"
)
REPAIRED_NO_PAGES = "damaged or truncated: MuPDF repaired it and found no pages"


# Compiled when first used (a file MuPDF cannot read), not when a start imports this.
@functools.cache
def _error_code() -> re.Pattern[str]:
    return re.compile(r"^code=-?[0-9]+: ")


@functools.cache
def _failed_to_open() -> re.Pattern[str]:
    return re.compile(r"^Failed to open file '.*' as type ([^ ]*?)\.?$", re.S)


@functools.cache
def _mupdf_error() -> re.Pattern[str]:
    return re.compile(r"^[a-z ]*error: ")


_FAILED_STREAM = "Failed to open stream"


def mupdf_reason(error: BaseException) -> str:
    """MuPDF's message in one line, without its internal error code ("code=7: ")."""
    return _error_code().sub("", one_line(error)) or type(error).__name__


def open_failure(
    error: BaseException, path: str | os.PathLike[str], noted: str, filetype: str | None = None
) -> str:
    """Why MuPDF could not open the file, without the path it echoes.

    "Failed to open file '/x.pdf' as type pdf." becomes "MuPDF cannot open it as
    a PDF", followed by the first error among ``noted`` (MuPDF's warnings while
    it tried, one a line), which is its real reason: "cannot find version marker".
    Bytes opened as a stream fail with "Failed to open stream", which says neither:
    ``filetype`` (the type MuPDF was told) gives the kind, so the words are the same
    whether a file was opened by its path (`siftui render`) or from the bytes a
    server's worker read.
    """
    reason = mupdf_reason(error)
    where = os.fspath(path)
    failed = _failed_to_open().match(reason)
    if failed is not None:
        kind = failed.group(1).upper()
    elif reason == _FAILED_STREAM:
        kind = (filetype or "").upper()
    else:
        return reason.replace(f"'{where}'", "the file")
    if kind:
        said = f"MuPDF cannot open it as {'an' if kind[:1] in 'AEIOU' else 'a'} {kind}"
    else:  # no suffix to go by and no header it knows
        said = "MuPDF cannot tell what kind of document it is"
    first = first_error(noted, where)
    return f"{said}: {first}" if first else said


def first_error(noted: str, path: str) -> str:
    """The X of the first "... error: X" line of MuPDF's warnings (not naming ``path``), or ""."""
    for line in noted.splitlines():
        if _mupdf_error().match(line) and path not in line:
            return " ".join(_mupdf_error().sub("", line).split())
    return ""


def repaired(document: Any) -> bool:
    """True when MuPDF had to repair the PDF (its cross-reference table was broken)."""
    try:
        return bool(document.is_repaired)
    except Exception:  # not a PDF (EPUB, XPS, ...): nothing was repaired
        return False


_NO_ENCRYPTION = {"", "/Identity", "/None"}


def only_attachments_encrypted(document: Any) -> bool:
    """True when the encryption dictionary encrypts embedded files and nothing else.

    Streams and strings use /StmF and /StrF (absent: /Identity, no encryption);
    embedded files use /EFF (absent: /StmF). A crypt filter named there
    encrypts unless it is /Identity or its /CFM is /None. Read through
    PyMuPDF's low-level xref access, which works before authentication.
    """

    def value(key: str) -> str:
        kind, text = document.xref_get_key(-1, f"Encrypt/{key}")
        return "" if kind == "null" else str(text)

    def encrypts(name: str) -> bool:
        if name in _NO_ENCRYPTION:
            return False
        return value(f"CF/{name.lstrip('/')}/CFM") not in _NO_ENCRYPTION

    try:
        if document.xref_get_key(-1, "Encrypt")[0] == "null":
            return False
        streams, strings = value("StmF"), value("StrF")
        files = value("EFF") or streams
        return not encrypts(streams) and not encrypts(strings) and encrypts(files)
    except Exception:  # no trailer, a broken dictionary: say what MuPDF says
        return False
