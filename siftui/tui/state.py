"""The app's state as values: the request it holds, the answer it shows, the document open.

One :class:`Request` (which document, which options) lives in the app; every
widget only proposes a new one. The render worker turns a request into an
:class:`Outcome` that carries the request it answers, so the app can show an
answer only when it answers the request the app holds now.

Only the app assigns its state. Its helpers read it through :class:`Held` and
hand back what should change: a request, an answer, or a :class:`Change` the
app makes (:meth:`siftui.tui.app.SiftApp.apply`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from siftui.core.budget import BYTES, CHARS
from siftui.core.layout import Layout
from siftui.core.render import Options, Rendered
from siftui.core.unreadable import UnreadablePage
from siftui.sources.errors import report_unexpected
from siftui.sources.kinds import kind_of_file
from siftui.tui.display import shown_width
from siftui.tui.kinds import (
    REFUSALS,
    AnyDoc,
    AnyOptions,
    facts_any,
    first_call,
    label,
    layout_any,
    render_any,
)
from siftui.tui.strip_model import PageFacts

if TYPE_CHECKING:  # the tokenizers, the agents' table and the walk load after the first frame
    from siftui.core.agents import Agent
    from siftui.core.unreachable import Unreachable
    from siftui.sources.tokens import TokenCounts


@dataclass(frozen=True)
class Agents:
    """The agents table (siftui.sources.agents_load), or why it could not be read."""

    table: tuple[Agent, ...] = ()
    error: str = ""


@dataclass(frozen=True)
class Source:
    """A document's identity: its path and content hash (and whether OCR read it).

    Two loads of the same unchanged file are the same source; a changed file
    (another hash) is another one.
    """

    path: Path
    sha256: str
    ocr: bool = False

    @property
    def name(self) -> str:
        return self.path.name


@dataclass(frozen=True)
class Request:
    """What the app asks for: a document (None while one is being opened) and the options
    (:class:`~siftui.core.render.Options` for a PDF, :class:`~siftui.core.word.render.DocxOptions`
    for a Word document)."""

    source: Source | None
    options: AnyOptions


START = Request(None, Options())
"""The app's request before it opens anything: no document, the CLI's default options."""


def other_unit(options: AnyOptions) -> AnyOptions:
    """``options`` with the OutCap counted in the other unit (code points / UTF-8 bytes)."""
    return replace(options, unit=BYTES.name if options.unit == CHARS.name else CHARS.name)


def opening_options(held: AnyOptions, path: Path) -> AnyOptions:
    """The options of the first call on ``path`` when the app holds ``held``: the agent's
    first call for the file's kind (no pages, range or grep), at the OutCap held."""
    return first_call(held, kind=kind_of_file(path))


def opening_request(source: Source, held: AnyOptions = START.options) -> Request:
    """The request the app makes when ``source`` opens while it holds ``held``."""
    return Request(source, opening_options(held, source.path))


@dataclass(frozen=True)
class Answer:
    """One answer and the request it answers, with everything the screen draws from it.

    ``doc`` is None for an answer read from a call log whose file is not open
    (``logged`` is then true).
    """

    request: Request
    rendered: Rendered
    layout: Layout
    width: int
    doc: AnyDoc | None
    facts: PageFacts | None = None
    logged: bool = False
    failed: bool = False  # a logged call that failed: the content is the error it got
    tool: str = ""  # a logged call of a tool with no document request (an evidence tool)
    # Found after the answer was painted (workers), then the answer is shown again with it:
    unreachable: Unreachable | None = None  # what no pages= call shows at this OutCap
    counts: TokenCounts | None = None  # the token line's counts of the content
    agents: Agents | None = None  # the agents' caps the counter checks the answer against

    def same_as(self, other: Answer) -> bool:
        """The same answer to the same request (what background work adds aside)."""
        return self.rendered is other.rendered and self.request == other.request

    @property
    def options(self) -> AnyOptions:
        return self.request.options

    @property
    def ocr_pages(self) -> tuple[int, ...]:
        """The pages of the document whose text OCR read (once its after-work said so)."""
        return self.facts.ocr_pages if self.facts is not None else ()

    @property
    def name(self) -> str:
        source = self.request.source
        return (source.name if source is not None else "") or "answer"  # a call of no file

    def label(self) -> str:
        """What the answer is, in words: "map", "pages 3-5", "grep in P6..P8", "error"."""
        if self.failed:
            return "error"
        return f"{self.tool} result" if self.tool else label(self.layout.kind, self.options)


@dataclass(frozen=True)
class Opened:
    """The document open now: its identity, its model (a PDF's Doc or a Word document's
    DocxDoc), how it was opened, and the pages that could not be read (their text is empty)."""

    source: Source
    doc: AnyDoc
    password: str | None
    unreadable: tuple[UnreadablePage, ...] = ()


class Keep(Enum):
    """A field of a :class:`Change` that leaves the app's value as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP


@dataclass(frozen=True)
class Change:
    """What a helper worked out the app's state becomes; the app makes the change, in
    this order: the note's problem, the document open, the request (shown in the
    controls when ``sync``), the error line, the answer, the subtitle; then, when
    ``render``, it answers the request. ``None`` (``KEEP`` for the answer, which may
    become None) keeps a value."""

    request: Request | None = None
    sync: bool = True
    opened: Opened | None = None
    error: str | None = None
    answer: Answer | Keep | None = KEEP
    sub_title: str | None = None
    render: bool = False
    problem: str | None = None  # why no document is open ("" for none), in the note


class Held(Protocol):
    """The app's state as its helpers see it: to read, never to assign; ``propose`` and
    ``open_document`` are the ways they ask for another request."""

    @property
    def request(self) -> Request: ...

    @property
    def answer(self) -> Answer | None: ...

    @property
    def opened(self) -> Opened | None: ...

    @property
    def opening(self) -> Path | None: ...

    @property
    def ocr(self) -> bool: ...

    @property
    def ocr_language(self) -> str: ...

    def propose(self, options: AnyOptions, *, call: bool = False, typed: bool = False) -> None: ...

    def open_document(
        self,
        path: Path,
        password: str | None = None,
        *,
        options: AnyOptions | None = None,
        keep_answer: bool = False,
    ) -> None: ...


@dataclass(frozen=True)
class Outcome:
    """What the render worker made of a request: its answer, or why it was refused
    (``error``) together with the answer to show instead (the newest earlier
    proposal that could be answered, at worst the document's first call)."""

    request: Request
    answer: Answer | None
    error: str = ""


def make_answer(
    request: Request, doc: AnyDoc, rendered: Rendered, facts: PageFacts | None = None
) -> Answer:
    layout = layout_any(rendered, request.options, doc)
    width = max(map(shown_width, layout.lines), default=0)
    return Answer(request, rendered, layout, width, doc, facts_any(doc, request.options, facts))


def logged_answer(
    request: Request, rendered: Rendered, *, failed: bool = False, tool: str = ""
) -> Answer:
    """An answer as a call log holds it, drawn without its document (``failed``: the
    error a failed call got; ``tool``: the tool, when its call asks no document request)."""
    layout = layout_any(rendered, request.options)
    width = max(map(shown_width, layout.lines), default=0)
    return Answer(
        request, rendered, layout, width, None, None, logged=True, failed=failed, tool=tool
    )


def answer_request(
    request: Request, doc: AnyDoc, earlier: tuple[AnyOptions, ...], facts: PageFacts | None
) -> Outcome:
    """Render ``request`` on ``doc``; refused, the newest of ``earlier`` that renders.

    Runs in a worker thread. A bug in siftui becomes one line (and a traceback in
    the error log), never a crash.
    """
    try:
        rendered = render_any(doc, request.options)
        return Outcome(request, make_answer(request, doc, rendered, facts))
    except REFUSALS as error:
        message = str(error)
    except Exception as error:  # a bug in siftui: say so in one line, keep running
        message = report_unexpected(error, "rendering the answer")
    for options in (*earlier, first_call(request.options)):
        try:
            rendered = render_any(doc, options)
        except Exception:  # refused, or the same bug (reported above): the line stays
            continue
        shown = Request(request.source, options)
        return Outcome(request, make_answer(shown, doc, rendered, facts), message)
    return Outcome(request, None, message)
