"""One session of the evidence tools: a method per tool (E2-E7, E8's JSON, E9-E11).

Arguments are Python values already checked against ``schemas`` (types and
ranges); ``None`` means the key was absent. Each method returns the result
object (a dict in the key order of docs/EVIDENCE.md, see ``wire.dumps``) or
raises ``EvidenceError``. A call that fails issues no identity.

The tools are the ``tools_*`` functions themselves (each takes the session's
state first), found through their entries (siftui.core.tools.evidence), so a
tool's keywords are written once, where the tool is.

What needs I/O arrives from the sources layer: the file's texts, outline and
contentVersion for ``pdf_open``; what it observed for ``pdf_status``; the
rendered image for ``pdf_page_render``; the OCR engine for ``ocr_recognize``.
It calls ``mark_stale`` when a document's bytes changed since it was opened.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from siftui.core.evidence.state import SessionState
from siftui.core.tools.table import ENTRIES

__all__ = ["EvidenceSession", "python_name"]

ResultObject = dict[str, object]

_ANSWERED: dict[str, Callable[..., ResultObject]] = {
    entry.name: entry.pure for entry in ENTRIES if entry.pure is not None
}
"""Each tool an entry answers from the session (siftui.core.tools), by its name."""


class EvidenceSession(SessionState):
    """The state of one MCP connection (or one ``siftui session`` run) and its tools.

    ``session.<tool>(**keywords)`` runs that tool's entry's function on the session
    (keywords in snake_case: ``session.pdf_page_read(document_id="doc-1", page=1)``)."""

    def call(self, tool: str, arguments: Mapping[str, Any], **sources: Any) -> ResultObject:
        """Run a tool from its wire arguments (camelCase keys, already checked).

        ``sources`` adds what the sources layer provides for the tools that need
        it (``pdf_status``: source_changed, capabilities; ``ocr_recognize``:
        recognize; ``pdf_page_read``: hidden_spans; ``pdf_open`` and
        ``pdf_page_render``: what was read and drawn).
        """
        tool_function = _ANSWERED[tool]
        keywords = {python_name(key): value for key, value in arguments.items()}
        return tool_function(self, **keywords, **sources)

    def __getattr__(self, name: str) -> Callable[..., ResultObject]:
        tool_function = _ANSWERED.get(name)
        if tool_function is None:
            raise AttributeError(name)
        return functools.partial(tool_function, self)


def python_name(wire_name: str) -> str:
    """``documentId`` -> ``document_id``: a wire key as the methods' keyword."""
    return "".join("_" + c.lower() if c.isupper() else c for c in wire_name)
