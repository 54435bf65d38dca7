"""The app's state as values: the request it holds and the answer it shows.

One :class:`Request` (which document, which options) lives in the app; every
widget only proposes a new one. The render worker turns a request into an
:class:`Outcome` that carries the request it answers, so the app can show an
answer only when it answers the request the app holds now.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.cells import cell_len

from siftui.agents import Agent
from siftui.doc import Doc
from siftui.docindex import index_of
from siftui.errors import report_unexpected
from siftui.layout import Kind, Layout, layout_of, pages_label
from siftui.render import BadGrep, BadPages, Options, Rendered, render
from siftui.tokens import TokenCounts
from siftui.tui.display import escape_controls
from siftui.tui.strip_model import PageFacts, facts_of
from siftui.unreachable import Unreachable


@dataclass(frozen=True)
class Agents:
    """The agents table (siftui.agents_load), or why it could not be read."""

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
    """What the app asks for: a document (None while one is being opened) and the options."""

    source: Source | None
    options: Options


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
    doc: Doc | None
    facts: PageFacts | None = None
    logged: bool = False
    # Found after the answer was painted (workers), then the answer is shown again with it:
    unreachable: Unreachable | None = None  # what no pages= call shows at this OutCap
    counts: TokenCounts | None = None  # the token line's counts of the content
    agents: Agents | None = None  # the agents' caps the counter checks the answer against

    def same_as(self, other: Answer) -> bool:
        """The same answer to the same request (what background work adds aside)."""
        return self.rendered is other.rendered and self.request == other.request

    @property
    def options(self) -> Options:
        return self.request.options

    @property
    def name(self) -> str:
        source = self.request.source
        return source.name if source is not None else "answer"

    def label(self) -> str:
        """What the answer is, in words: "map", "pages 3-5", "grep in pages 6-8"."""
        pages = self.options.pages.strip()
        kind = self.layout.kind
        if kind is Kind.GREP:
            return "grep" + (f" in {_asked(pages)}" if pages else "")
        if kind is Kind.PAGES:
            return _asked(pages)
        return str(kind.value)


def _asked(pages: str) -> str:
    """The range as asked, in words: "page 7", "pages 3-5", "pages 12-"."""
    return f"page {pages}" if pages.isdigit() else f"pages {pages}"


@dataclass(frozen=True)
class Outcome:
    """What the render worker made of a request: its answer, or why it was refused
    (``error``) together with the answer to show instead (the newest earlier
    proposal that could be answered, at worst the document's first call)."""

    request: Request
    answer: Answer | None
    error: str = ""


def make_answer(
    request: Request, doc: Doc, rendered: Rendered, facts: PageFacts | None = None
) -> Answer:
    layout = layout_of(rendered, request.options, doc)
    width = max((cell_len(escape_controls(line)) for line in layout.lines), default=0)
    return Answer(request, rendered, layout, width, doc, facts or facts_of(doc))


def logged_answer(request: Request, rendered: Rendered) -> Answer:
    """An answer as a call log holds it, drawn without its document."""
    layout = layout_of(rendered, request.options)
    width = max((cell_len(escape_controls(line)) for line in layout.lines), default=0)
    return Answer(request, rendered, layout, width, None, None, logged=True)


def answer_request(
    request: Request, doc: Doc, earlier: tuple[Options, ...], facts: PageFacts | None
) -> Outcome:
    """Render ``request`` on ``doc``; refused, the newest of ``earlier`` that renders.

    Runs in a worker thread. A bug in siftui becomes one line (and a traceback in
    the error log), never a crash.
    """
    try:
        return Outcome(request, make_answer(request, doc, render(doc, request.options), facts))
    except (BadPages, BadGrep) as error:
        message = str(error)
    except Exception as error:  # a bug in siftui: say so in one line, keep running
        message = report_unexpected(error, "rendering the answer")
    first_call = Options(out_cap=request.options.out_cap)
    for options in (*earlier, first_call):
        try:
            rendered = render(doc, options)
        except (BadPages, BadGrep):
            continue
        except Exception:  # reported above if it is the same bug; the line stays
            continue
        shown = Request(request.source, options)
        return Outcome(request, make_answer(shown, doc, rendered, facts), message)
    return Outcome(request, None, message)


@dataclass(frozen=True)
class DocTotals:
    page_count: int
    extracted: int
    full_runes: int


def totals_of(doc: Doc) -> DocTotals:
    index = index_of(doc)
    return DocTotals(doc.page_count, index.extracted, index.full_length)


def shown_pages(answer: Answer) -> str:
    """The pages an answer holds, in words ("page 25", "pages 1-3")."""
    return pages_label(answer.rendered.first, answer.rendered.last)
