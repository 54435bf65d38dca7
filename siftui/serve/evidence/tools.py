"""The evidence tools in the tool table: each entry of siftui.core.tools.evidence served.

Each tool's handler finds (or starts) the session's :class:`EvidenceConnection`
in ``call.session.state`` and runs the call there, with only the keys the agent
sent: one MCP connection is one session, and its identities are its own. A tool
that needs the files, images, OCR or background work is bound to the
connection's method doing it; the others are answered by the session alone.
"""

from __future__ import annotations

import functools

from siftui.core.budget import check_unit
from siftui.core.evidence.errors import EvidenceError
from siftui.core.tools import evidence
from siftui.core.tools.entry import ToolEntry
from siftui.serve.evidence.connection import EvidenceConnection, Work
from siftui.serve.evidence.files import Files
from siftui.serve.tool_api import ServedTool, Session, Settings, ToolAnswer, ToolCall


def connection_of(session: Session, settings: Settings) -> EvidenceConnection:
    """The session's evidence state, started at its first evidence call."""
    found = session.state.get(evidence.FAMILY.name)
    if not isinstance(found, EvidenceConnection):
        found = EvidenceConnection(
            Files(settings.roots, settings.store, settings.served),
            settings.out_cap,
            unit=check_unit(settings.unit),
            warn_hidden=settings.warn_hidden,
            recognize_png=functools.partial(
                settings.store.ocr.recognize, language=settings.ocr_language
            ),
        )
        session.state[evidence.FAMILY.name] = found
    return found


def _served(entry: ToolEntry, work: Work | None = None) -> ServedTool:
    """``entry`` served on the session's connection, by ``work`` (else by the session)."""

    def handle(call: ToolCall) -> ToolAnswer:
        arguments = {key: value for key, value in call.arguments.items() if key in call.given}
        with call.session.lock:
            connection = connection_of(call.session, call.settings)
            return connection.run(entry, arguments, call.facts, work)

    return ServedTool(entry, handle, refusals=(EvidenceError,))


EVIDENCE_TOOLS: tuple[ServedTool, ...] = (
    _served(evidence.INFO, EvidenceConnection.info),
    _served(evidence.OPEN, EvidenceConnection.open),
    _served(evidence.CLOSE),
    _served(evidence.CURRENT),
    _served(evidence.STATUS, EvidenceConnection.status),
    _served(evidence.PAGE_READ, EvidenceConnection.page_read),
    _served(evidence.KEYWORD_SEARCH, EvidenceConnection.search),
    _served(evidence.PAGE_RENDER, EvidenceConnection.render),
    _served(evidence.OCR, EvidenceConnection.ocr),
    _served(evidence.EVIDENCE_READ),
    _served(evidence.BOOKMARK_LIST),
)
"""E1-E11, in their entries' order (siftui.core.tools.evidence.EVIDENCE_TOOLS)."""
