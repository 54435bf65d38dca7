"""Reading a Word document (or the JSON `siftui extract` writes for one) into its model.

The Word entry's loader for every surface, from a path or from bytes: a damaged,
hostile or unreadable file is a :class:`~siftui.sources.load.LoadError` with one
line for users.
"""

from __future__ import annotations

import io
import os

from siftui.core.messages import quoted
from siftui.core.word.model import DocxDoc
from siftui.sources.load import LoadError
from siftui.sources.pdf_open import ExtractError, check_file
from siftui.sources.word.kind import is_docx_json


def load_docx(path: str | os.PathLike[str]) -> DocxDoc:
    """The document model of a .docx, or of its JSON; LoadError with one line otherwise."""
    from siftui.sources.word.read import DocxError, read_docx  # lxml only for commands that read

    try:
        check_file(path)
        with open(path, "rb") as handle:
            head = handle.read(256)
        if is_docx_json(head):
            with open(path, "rb") as handle:
                return _from_json(path, handle.read())
        return read_docx(path)
    except (ExtractError, DocxError) as error:
        message = str(error)
        if not message.startswith(quoted(path)):
            message = f"{quoted(path)}: {message}"
        raise LoadError(message) from None
    except OSError as error:
        raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None


def load_docx_bytes(name: str | os.PathLike[str], data: bytes) -> DocxDoc:
    """:func:`load_docx` for a file already read into ``data`` (``name`` only names it)."""
    from siftui.core.word.docjson import SNIFF
    from siftui.sources.word.read import DocxError, read_docx

    if SNIFF.match(data[:256]) is not None:
        return _from_json(name, data)
    try:
        return read_docx(io.BytesIO(data))
    except DocxError as error:
        raise LoadError(f"{quoted(name)}: {error}") from None


def _from_json(name: str | os.PathLike[str], data: bytes) -> DocxDoc:
    from siftui.core.word.docjson import BadDocxJson, docx_from_json

    try:
        return docx_from_json(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise LoadError(f"{quoted(name)}: not a JSON file (not UTF-8 text)") from None
    except BadDocxJson as error:
        raise LoadError(f"{quoted(name)}: {error}") from None
