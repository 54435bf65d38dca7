"""The two kinds of document the app shows, behind one set of functions.

A PDF (or anything PyMuPDF opens) is a :class:`~siftui.core.doc.Doc` asked with
:class:`~siftui.core.render.Options`; a Word document is a
:class:`~siftui.core.word.model.DocxDoc` asked with
:class:`~siftui.core.word.render.DocxOptions`. The request's options say which kind
it is, so the app, its workers and its widgets ask here instead of testing the
kind themselves: the rendering, the layout, the strip's facts, the next call,
and the words that name an answer.
"""

from __future__ import annotations

from dataclasses import replace

from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.layout import AnswerKind, Layout, layout_of, pages_label
from siftui.core.render import BadGrep, BadPages, Options, Rendered, render
from siftui.core.walk import next_call
from siftui.core.word.index import index_story
from siftui.core.word.layout import docx_layout_of
from siftui.core.word.model import SCOPES, DocxDoc
from siftui.core.word.render import DEFAULT_WINDOW, BadOption, DocxOptions, render_docx
from siftui.core.word.walk import next_docx_call, paragraphs_shown
from siftui.tui.display import plural
from siftui.tui.strip_model import PageFacts, docx_facts_of, facts_of

AnyDoc = Doc | DocxDoc
AnyOptions = Options | DocxOptions

REFUSALS: tuple[type[Exception], ...] = (BadPages, BadGrep, BadOption)
"""What a request the user typed can be refused with (the message is shown as is)."""


def is_word(options: AnyOptions) -> bool:
    return isinstance(options, DocxOptions)


def first_call(options: AnyOptions, *, word: bool | None = None) -> AnyOptions:
    """The agent's first call (no range, pages or grep) at the same OutCap, of the kind
    ``word`` says (default: the kind of ``options``; a Word call keeps its scope when
    the document has such a story). Every document answers it."""
    word = is_word(options) if word is None else word
    if not word:
        return Options(out_cap=options.out_cap)
    scope = options.scope if isinstance(options, DocxOptions) else "body"
    # An unknown scope (typed while the file opened) has no first call: the body does.
    return DocxOptions(scope=scope if scope in SCOPES else "body", out_cap=options.out_cap)


def render_any(doc: AnyDoc, options: AnyOptions) -> Rendered:
    """The answer the agent receives (raises one of :data:`REFUSALS` for a bad request)."""
    if isinstance(doc, DocxDoc):
        if not isinstance(options, DocxOptions):
            raise BadOption("pages= is for PDFs; a Word document is read by range or anchor")
        return render_docx(doc, options)
    if not isinstance(options, Options):
        raise BadPages("range and anchor are for Word documents; a PDF is read by pages")
    return render(doc, options)


def layout_any(rendered: Rendered, options: AnyOptions, doc: AnyDoc | None = None) -> Layout:
    if isinstance(options, DocxOptions):
        return docx_layout_of(rendered, options, doc if isinstance(doc, DocxDoc) else None)
    return layout_of(rendered, options, doc if isinstance(doc, Doc) else None)


def facts_any(doc: AnyDoc, options: AnyOptions, known: PageFacts | None = None) -> PageFacts:
    """The strip's facts of the document (of the asked story, for Word); ``known``: the
    PDF's facts already worked out, with what background work added to them."""
    if isinstance(doc, DocxDoc):
        scope = options.scope if isinstance(options, DocxOptions) else "body"
        return _docx_facts(doc, scope if scope in SCOPES else "body")
    return known if known is not None and known.unit == "page" else facts_of(doc)


def _docx_facts(doc: DocxDoc, scope: str) -> PageFacts:
    """Worked out once per story, and kept with it (as its index is)."""
    cache = doc.stories[scope].cache
    found = cache.get("strip facts")
    if isinstance(found, PageFacts):
        return found
    facts = docx_facts_of(doc, scope)
    cache["strip facts"] = facts
    return facts


def next_call_any(options: AnyOptions, rendered: Rendered, doc: AnyDoc) -> AnyOptions | None:
    """The call the answer's note (or map) names next, or None."""
    if isinstance(options, DocxOptions) and isinstance(doc, DocxDoc):
        story = doc.stories.get(options.scope or "body")
        return next_docx_call(options, rendered, story.count if story is not None else 0)
    if isinstance(options, Options) and isinstance(doc, Doc):
        return next_call(options, rendered, doc.extracted)
    return None


def units_call(options: AnyOptions, first: int, last: int) -> AnyOptions:
    """Read units first..last (pages, or a Word story's paragraphs), grep cleared."""
    if isinstance(options, DocxOptions):
        asked = f"P{first}" if first == last else f"P{first}..P{last}"
        return DocxOptions(range=asked, scope=options.scope, out_cap=options.out_cap)
    pages = str(first) if first == last else f"{first}-{last}"
    return replace(options, pages=pages)


def anchor_call(options: DocxOptions, doc: DocxDoc, number: int) -> DocxOptions | None:
    """The window around paragraph ``number`` of the asked story (None when there is none)."""
    story = doc.stories.get(options.scope or "body")
    if story is None or not 1 <= number <= story.count:
        return None
    anchor = f"P{number}#{story.paragraphs[number - 1].hash}"
    return DocxOptions(
        anchor=anchor, window=options.window, scope=options.scope, out_cap=options.out_cap
    )


def shown_units(rendered: Rendered, options: AnyOptions) -> str:
    """What an answer holds, in words: "pages 3-5" or "P3..P9" ("no pages", "no paragraphs")."""
    if not isinstance(options, DocxOptions):
        return pages_label(rendered.first, rendered.last)
    if rendered.first < 1:
        return "no paragraphs"
    return paragraphs_shown(rendered.first, rendered.last)


def label(kind: AnswerKind, options: AnyOptions) -> str:
    """What the answer is, in words: "map", "pages 3-5", "grep in P3..P9", "window of P4#1a2b"."""
    if isinstance(options, DocxOptions):
        asked = (
            f"window of {options.anchor.strip()}"
            if options.anchor.strip()
            else f"range {options.range.strip()}"
            if options.range.strip()
            else ""
        )
        scope = "" if options.scope in ("", "body") else f" of the {options.scope}"
        if kind is AnswerKind.GREP:
            return "grep" + (f" in {asked}" if asked else "") + scope
        if kind is AnswerKind.PAGES:
            return asked + scope
        return str(kind.value) + scope
    pages = options.pages.strip()
    if kind is AnswerKind.GREP:
        return "grep" + (f" in {_asked(pages)}" if pages else "")
    if kind is AnswerKind.PAGES:
        return _asked(pages)
    return str(kind.value)


def _asked(pages: str) -> str:
    """The range as asked, in words: "page 7", "pages 3-5", "pages 12-"."""
    return f"page {pages}" if pages.isdigit() else f"pages {pages}"


def document_words(doc: AnyDoc, options: AnyOptions) -> str:
    """The document in the counter's words: "doc: 51 pages · full text 120,114 runes"."""
    if isinstance(doc, DocxDoc):
        scope = options.scope if isinstance(options, DocxOptions) else "body"
        story = doc.stories.get(scope or "body")
        if story is None:
            return "doc: no such story"
        story_index = index_story(story)
        where = "" if scope in ("", "body") else f" in the {scope}"
        return (
            f"doc: {plural(story.count, 'paragraph')} ({story_index.shown:,} shown) · "
            f"{plural(len(story.tables), 'table')}{where} · "
            f"full text {story_index.full_length:,} runes"
        )
    index = index_of(doc)
    text = "doc: " + plural(doc.page_count, "page")
    if index.extracted < doc.page_count:
        text += f" ({index.extracted:,} extracted)"
    return text + f" · full text {index.full_length:,} runes"


_WINDOW_DIGITS = 6  # a longer number is out of 0-50 anyway (and int() refuses > 4300 digits)


def with_field(options: AnyOptions, name: str, text: str) -> AnyOptions:
    """``options`` with the request bar's field ``name`` set to the text typed in it.

    A field of the other kind of document changes nothing. The window's text becomes
    a number without int() ever seeing a huge one: "" is the default, and what is no
    whole number (or a huge one) is a window out of 0-50, refused as the CLI refuses it.
    """
    if isinstance(options, Options):
        if name == "pages":
            return replace(options, pages=text)
        return replace(options, grep=text) if name == "grep" else options
    if name == "window":
        digits = text.strip()
        if not digits:
            return replace(options, window=DEFAULT_WINDOW)
        whole = digits.isascii() and digits.isdigit() and len(digits) <= _WINDOW_DIGITS
        return replace(options, window=int(digits) if whole else -1)
    if name == "scope":
        return replace(options, scope=text.strip() or "body")
    if name == "range":
        return replace(options, range=text)
    if name == "anchor":
        return replace(options, anchor=text)
    return replace(options, grep=text) if name == "grep" else options


def field_values(options: AnyOptions) -> dict[str, str]:
    """The request bar's fields as they show ``options`` (only its kind's fields)."""
    if isinstance(options, Options):
        return {"pages": options.pages, "grep": options.grep}
    return {
        "range": options.range,
        "anchor": options.anchor,
        "window": "" if options.window == DEFAULT_WINDOW else str(options.window),
        "grep": options.grep,
        "scope": "" if options.scope == "body" else options.scope,
    }
