"""What the evidence preview is given and shows, as plain values (no Textual).

The TUI never imports siftui.serve (tests/core/test_core_purity.py): the CLI,
which may start the server's code inside a command, hands the app a
:data:`PreviewFactory` built on the same ``ToolHost`` that ``siftui session``
and ``siftui mcp --tools evidence`` use, so the preview shows exactly the
bytes they send.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from siftui.core.doc import Doc
from siftui.core.json_text import json_or_none
from siftui.core.unreadable import UnreadablePage


@dataclass(frozen=True)
class Result:
    """One call's result: the lines ``siftui session`` prints for it (an image block as
    ``image: WxH png SHA256``, a refused call as ``error: MESSAGE``), its text blocks,
    what makes the whole result as MCP JSON (the ``result`` of tools/call the server
    sends; made when asked for, off the event loop), and the refusal's message ("" when
    answered)."""

    lines: tuple[str, ...]
    texts: tuple[str, ...]
    mcp: Callable[[], str] = field(compare=False, repr=False)
    message: str = ""
    image: tuple[int, int] | None = None  # a page image's width and height
    png: bytes = b""

    @property
    def is_error(self) -> bool:
        return bool(self.message)

    @property
    def text(self) -> str:
        """What ``c`` copies: the printed lines, joined by newlines."""
        return "\n".join(self.lines)

    def value(self) -> Any:
        """The JSON value of the last text block (None when it is not JSON)."""
        if self.is_error or not self.texts:
            return None
        return json_or_none(self.texts[-1])


class Preview(Protocol):
    """One fresh session of the evidence tools, rooted at one folder."""

    def call(self, tool: str, arguments: Any) -> Result: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class OpenDocument:
    """The document the app has open, read from the file at ``path`` (whose bytes had
    ``sha256``) as the server reads a PDF: no password given, no page read by OCR. A
    preview's session answers with it while the file still holds those bytes, instead
    of reading the file again."""

    path: Path
    sha256: str
    doc: Doc
    unreadable: tuple[UnreadablePage, ...] = ()


PreviewFactory = Callable[[Path, OpenDocument | None], Preview]
"""Given the folder the preview may read (the open file's) and the document the app has
open (None: none the server would read alike), a fresh session on it."""
