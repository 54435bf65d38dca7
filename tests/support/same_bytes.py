# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Saving a PDF the tests made so that its bytes are the same on every run.

PyMuPDF gives a new document a random file ID (the trailer's /ID), and writes it
sometimes as a hex string and sometimes as a literal string of another length: a
sample PDF was 3,057 bytes in 297 runs of 300 and 3,048-3,056 in the others, so the
test ids made from its length differed between two pytest-xdist workers, which then
refused to run ("Different tests were collected between gw0 and gw1"). Here every
document gets one fixed ID and is saved without a new one.

(An encrypted document still differs from run to run: MuPDF draws its AES salts at
random. No test id depends on one.)
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pymupdf

FIXED_ID = "[<73696674756920746573742066696C65><73696674756920746573742066696C65>]"
"""The file ID of every PDF the tests save: twice the 16 bytes of "siftui test file"."""


def _fix_id(document: pymupdf.Document) -> None:
    document.xref_set_key(-1, "ID", FIXED_ID)


def save_pdf(document: pymupdf.Document, path: Path, **options: Any) -> Path:
    """``document.save(path, **options)`` with the fixed file ID."""
    _fix_id(document)
    document.save(path, no_new_id=True, **options)
    return path


def pdf_data(document: pymupdf.Document, **options: Any) -> bytes:
    """``document.tobytes(**options)`` with the fixed file ID."""
    _fix_id(document)
    return bytes(document.tobytes(no_new_id=True, **options))


def zip_entry(name: str) -> zipfile.ZipInfo:
    """A ZIP member as ``ZipFile.writestr(name, ...)`` makes it, but dated 1980-01-01
    rather than now, so that a package the tests write is the same on every run. Pass
    the compression to writestr (a ZipInfo's own is ZIP_STORED)."""
    entry = zipfile.ZipInfo(name)
    entry.external_attr = 0o600 << 16
    return entry
