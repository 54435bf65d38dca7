"""Reading a Word document (or the JSON `siftui extract` writes for one) into its model.

The one loader of .docx files for the CLI and the TUI: a damaged, hostile or
unreadable file is a :class:`~siftui.sources.load.LoadError` with one line for users.
"""

from __future__ import annotations

import os
from pathlib import Path

from siftui.core.messages import quoted
from siftui.core.word.model import DocxDoc
from siftui.sources.extract import ExtractError, check_file
from siftui.sources.load import LoadError
from siftui.sources.word.kind import is_docx_json


def load_docx(path: str | os.PathLike[str]) -> DocxDoc:
    """The document model of a .docx, or of its JSON; LoadError with one line otherwise."""
    from siftui.core.word.docjson import BadDocxJson, docx_from_json
    from siftui.sources.word.read import DocxError, read_docx  # lxml only for commands that read

    try:
        check_file(path)
        with open(path, "rb") as handle:
            head = handle.read(256)
        if is_docx_json(head):
            try:
                return docx_from_json(Path(path).read_text(encoding="utf-8-sig"))
            except UnicodeDecodeError:
                raise LoadError(f"{quoted(path)}: not a JSON file (not UTF-8 text)") from None
            except BadDocxJson as error:
                raise LoadError(f"{quoted(path)}: {error}") from None
        return read_docx(path)
    except (ExtractError, DocxError) as error:
        message = str(error)
        if not message.startswith(quoted(path)):
            message = f"{quoted(path)}: {message}"
        raise LoadError(message) from None
    except OSError as error:
        raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None
