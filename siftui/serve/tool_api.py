"""What a served tool is, what its handler is given and what it gives back.

A tool is one :class:`ServedTool` of the table in siftui.serve.tools: its entry
(siftui.core.tools) and its handler. The host (siftui.serve.host) checks each
call's arguments against the entry's input schema
(:func:`siftui.core.arguments.check_arguments`), calls its handler with a
:class:`ToolCall`, logs the call and turns what the handler raised into a tool error;
siftui.serve.mcp_server publishes the entries and sends the :class:`ToolAnswer` as
MCP content. Nothing here imports the MCP SDK.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from siftui.core.kinds import kind_of
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.core.render import DEFAULT_OUT_CAP, Options, Rendered
from siftui.core.tools.entry import ToolEntry
from siftui.core.unreadable import UnreadablePage
from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore, ServedDoc
from siftui.serve.edit.state import EditHost
from siftui.serve.pending import PendingFindings
from siftui.serve.worker import Progress
from siftui.sources.log.fields import DocxArgs, HiddenSummary, ToolResult


class ToolError(ValueError):
    """A call refused by a tool's own rule; ``str(error)`` is the one line the agent gets."""


UNIT_WORDS = {"chars": "characters", "bytes": "bytes (UTF-8)"}
"""How a tool's description names the unit of its OutCap."""


@dataclass(frozen=True)
class ServedOptions:
    """How the operator wants every answer made: the OutCap (every answer's budget) and
    ``unit``, what it counts ("chars": code points, or "bytes": UTF-8); ``--warn-hidden``;
    ``ocr_language``: ``--ocr-lang`` (Tesseract's codes)."""

    out_cap: int = DEFAULT_OUT_CAP
    unit: str = "chars"
    warn_hidden: bool = False
    ocr_language: str = DEFAULT_OCR_LANGUAGE


@dataclass(frozen=True)
class Settings:
    """What the operator set for every tool: the roots, the OutCap (every answer's
    budget), the document store (bounded extraction, its limits and cache) and
    ``--warn-hidden``; ``unit``: what the OutCap counts, "chars" (code points) or
    "bytes" (UTF-8); ``ocr_language``: ``--ocr-lang``."""

    roots: Roots
    out_cap: int
    store: DocStore
    warn_hidden: bool = False
    unit: str = "chars"
    ocr_language: str = DEFAULT_OCR_LANGUAGE  # what ocr_recognize reads (Tesseract's codes)
    edit: EditHost = field(default_factory=EditHost)  # the reader attached, for the edit tools
    served: frozenset[str] = frozenset()  # the tools served: a refusal names only those


@dataclass
class Session:
    """One connection's state (one MCP connection is one session). ``number`` counts
    the sessions of this process from 1; ``state`` holds what a family keeps for
    the session (identities, open documents), under the family's name."""

    number: int = 1
    state: dict[str, Any] = field(default_factory=dict)
    # The server's process: sessions of servers that share a log are told apart by it.
    process: int = field(default_factory=os.getpid)
    # Held by a call that uses ``state``: one such call at a time (a client may send
    # calls of one connection at once).
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)


@dataclass(frozen=True)
class LoggedRequest:
    """What the call log keeps of a call's arguments, besides its ``path``."""

    pages: str = ""
    grep: str = ""
    docx: DocxArgs | None = None  # read_docx's other options


@dataclass
class Facts:
    """What the log learns while a call runs, filled in by the handler as it learns it,
    so that it is logged even when the call fails afterwards."""

    path: str | None = None  # the real path the call's path led to
    sha256: str | None = None
    unreadable: tuple[UnreadablePage, ...] | None = None  # of a PDF served
    hidden: HiddenSummary | None = None  # the hidden-text findings of a PDF served
    reader_notes: tuple[str, ...] = ()  # what the Word reader could not read exactly
    later: PendingFindings | None = None  # the findings, when still looked for at answer time


@dataclass(frozen=True)
class ToolCall:
    """One call, as its handler gets it."""

    tool: ServedTool
    arguments: Mapping[str, Any]  # checked against the input schema, defaults filled in
    settings: Settings
    session: Session
    deadline: float  # time.monotonic() by which the call must have answered
    facts: Facts
    given: frozenset[str] = frozenset()  # the keys the agent sent (the rest are defaults)
    progress: Progress | None = None  # told the pages extracted (MCP progress notifications)

    def load(self, requested: str, kind: str, answering: Options | None = None) -> ServedDoc:
        """The document at ``requested`` (checked against the roots, opened once, read
        by a worker process or taken from the cache) as the kind named ``kind``,
        with what the log keeps of it recorded in :attr:`facts`. ``answering``: the
        request the document is for (a first page range may get a partial Doc,
        see :meth:`siftui.serve.docstore.DocStore.get`)."""
        opened = self.settings.roots.open(requested)
        try:
            self.facts.path = str(opened.real)
            loaded = self.settings.store.get(opened, self.deadline, kind, answering, self.progress)
        finally:
            opened.close()
        self.facts.sha256 = loaded.sha256
        notes = kind_of(loaded.doc).reader_notes(loaded.doc)
        if notes is not None:
            self.facts.reader_notes = notes
        else:
            self.facts.unreadable = loaded.unreadable
            inspection, error, later = loaded.findings()
            if later is not None:  # answered now; the log gets the findings in a later line
                self.facts.hidden, self.facts.later = HiddenSummary(pending=True), later
            elif inspection is not None or error:  # a Doc JSON: neither
                self.facts.hidden = HiddenSummary.of(inspection, error)
        return loaded


@dataclass(frozen=True)
class TextBlock:
    text: str


@dataclass(frozen=True)
class ImageBlock:
    data: bytes  # the image's bytes (sent base64-encoded)
    mime_type: str = "image/png"


Block = TextBlock | ImageBlock


@dataclass(frozen=True)
class ToolAnswer:
    """What a call returns: content blocks (and ``structuredContent``), or, when
    ``message`` is set, a tool error whose one text block is that line."""

    blocks: tuple[Block, ...] = ()
    structured: Mapping[str, Any] | None = None
    message: str = ""
    rendered: Rendered | None = None  # a read tool's answer, as the call log keeps it
    warning: str = ""  # the --warn-hidden line, logged
    result: ToolResult | None = None  # any other tool's result, as the call log keeps it

    @property
    def is_error(self) -> bool:
        return bool(self.message)

    @classmethod
    def error(cls, message: str) -> ToolAnswer:
        return cls(message=message)


def rendered_answer(rendered: Rendered, warning: str = "") -> ToolAnswer:
    """A read tool's answer: the content as the first text block (sent once), the note
    and the warning in a second block when there is either, and the other fields
    as ``structuredContent``."""
    blocks = [TextBlock(rendered.content)]
    after = "\n".join(part for part in (rendered.note, warning) if part)
    if after:
        blocks.append(TextBlock(after))
    structured: dict[str, Any] = {
        "map": rendered.map,
        "first": rendered.first,
        "last": rendered.last,
        "grep_hits": rendered.grep_hits,
        "note": rendered.note,
    }
    if warning:
        structured["warning"] = warning
    return ToolAnswer(tuple(blocks), structured, rendered=rendered, warning=warning)


Handler = Callable[[ToolCall], ToolAnswer]


def _nothing_logged(arguments: Mapping[str, Any]) -> LoggedRequest:
    return LoggedRequest()


def _no_rules(arguments: Mapping[str, Any]) -> None:
    return None


@dataclass(frozen=True)
class ServedTool:
    """One served tool: its entry (siftui.core.tools: name, family, description,
    schemas, ...) and what serving it takes, in the table of siftui.serve.tools.

    ``handler`` answers a call checked against the entry's input schema; ``rules``
    checks the tool's own argument rules the schema cannot express, after it
    (raising :class:`ToolError`); ``refusals`` are the exception types, besides the
    shared ones (:class:`ToolError`, ArgumentError, the roots', the store's,
    LoadError), whose message is a tool error. ``logged`` gives what the log keeps
    of the arguments (called with ``{}`` when the schema or the rules refused them).
    ``waits_for_person``: a call may wait for the person's decision in the reader
    (``EditHost.approval_timeout``) besides the store's timeout.
    """

    entry: ToolEntry
    handler: Handler
    rules: Callable[[Mapping[str, Any]], None] = _no_rules
    refusals: tuple[type[Exception], ...] = ()
    logged: Callable[[Mapping[str, Any]], LoggedRequest] = _nothing_logged
    waits_for_person: bool = False

    def limit(self, settings: Settings) -> float:
        """Seconds a call may take at most, by the operator's settings."""
        waiting = settings.edit.approval_timeout if self.waits_for_person else 0.0
        return settings.store.timeout + waiting

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def family(self) -> str:
        return self.entry.family

    @property
    def title(self) -> str:
        return self.entry.title

    @property
    def description(self) -> str:
        return self.entry.description

    @property
    def input_schema(self) -> Mapping[str, Any]:
        return self.entry.input_schema

    @property
    def output_schema(self) -> Mapping[str, Any] | None:
        return self.entry.output_schema

    @property
    def messages(self) -> Mapping[str, str]:
        return self.entry.messages

    @property
    def lenient(self) -> bool:
        return self.entry.lenient

    @property
    def read_only(self) -> bool:
        return self.entry.read_only

    @property
    def idempotent(self) -> bool:
        return self.entry.idempotent

    def describe(self, settings: Settings) -> str:
        """The entry's description with the settings filled in."""
        return self.entry.description.format(
            out_cap=settings.out_cap,
            unit=UNIT_WORDS[settings.unit],
            roots=settings.roots.describe(),
            first_root=settings.roots.dirs[0],
        )
