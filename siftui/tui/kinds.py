"""The kinds of document, as the app shows them: a TUI view over siftui.core.kinds.

The table (siftui.core.kinds: :func:`kind_of` a document or options -> its entry)
knows each kind; this module adds what only the app needs (the strip's facts, the
request bar's fields, the words that name an answer), so the app, its workers and
its widgets ask here instead of testing the kind themselves.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from siftui.core.docindex import index_of
from siftui.core.kinds import (
    PDF,
    WORD,
    AnyDoc,
    AnyOptions,
    DocumentKind,
    kind_of,
    next_call_any,
    render_any,
)
from siftui.core.layout import AnswerKind, Layout, pages_label
from siftui.core.render import BadGrep, BadPages, Rendered
from siftui.core.word import BadOption
from siftui.tui.display import plural
from siftui.tui.strip_model import PageFacts, docx_facts_of, facts_of

if TYPE_CHECKING:  # a Word document's modules load with the first one (siftui.core.kinds)
    from siftui.core.word.model import DocxDoc
    from siftui.core.word.render import DocxOptions

__all__ = [
    "REFUSALS",
    "AnyDoc",
    "AnyOptions",
    "anchor_call",
    "document_words",
    "facts_any",
    "field_values",
    "first_call",
    "kind_of",
    "label",
    "layout_any",
    "next_call_any",
    "page_call",
    "render_any",
    "shown_units",
    "units_call",
    "with_field",
]

REFUSALS: tuple[type[Exception], ...] = (BadPages, BadGrep, BadOption)
"""What a request the user typed can be refused with (the message is shown as is)."""


def first_call(options: AnyOptions, *, kind: DocumentKind[Any, Any] | None = None) -> AnyOptions:
    """The agent's first call (no range, pages or grep) at the same OutCap, of ``kind``
    (default: the kind of ``options``; a Word call keeps its scope when the document
    has such a story). Every document answers it."""
    call: AnyOptions = (kind_of(options) if kind is None else kind).first_call(options)
    return call


def layout_any(rendered: Rendered, options: AnyOptions, doc: AnyDoc | None = None) -> Layout:
    return kind_of(options).layout(rendered, options, doc)


def facts_any(doc: AnyDoc, options: AnyOptions, known: PageFacts | None = None) -> PageFacts:
    """The strip's facts of the document (of the asked story, for Word); ``known``: the
    PDF's facts already worked out, with what background work added to them."""
    word = WORD.doc(doc)
    if word is not None:
        return _docx_facts(word, WORD.scope(options))
    pdf = PDF.expect(doc)
    return known if known is not None and known.unit == "page" else facts_of(pdf)


def _docx_facts(doc: DocxDoc, scope: str) -> PageFacts:
    """Worked out once per story, and kept with it (as its index is)."""
    cache = doc.stories[scope].cache
    found = cache.get("strip facts")
    if isinstance(found, PageFacts):
        return found
    facts = docx_facts_of(doc, scope)
    cache["strip facts"] = facts
    return facts


def units_call(options: AnyOptions, first: int, last: int) -> AnyOptions:
    """Read units first..last (pages, or a Word story's paragraphs), grep cleared."""
    word = WORD.options(options)
    if word is not None:
        asked = f"P{first}" if first == last else f"P{first}..P{last}"
        return WORD.options_type(range=asked, scope=word.scope, out_cap=word.out_cap)
    pages = str(first) if first == last else f"{first}-{last}"
    return replace(PDF.options_of(options), pages=pages)


def page_call(options: AnyOptions, page: int) -> AnyOptions | None:
    """Page ``page`` alone, grep cleared (None: the kind has no pages)."""
    pdf = PDF.options(options)
    return None if pdf is None else replace(pdf, pages=str(page), grep="")


def anchor_call(options: DocxOptions, doc: DocxDoc, number: int) -> DocxOptions | None:
    """The window around paragraph ``number`` of the asked story (None when there is none)."""
    story = doc.stories.get(options.scope or "body")
    if story is None or not 1 <= number <= story.count:
        return None
    anchor = f"P{number}#{story.paragraphs[number - 1].hash}"
    return WORD.options_type(
        anchor=anchor, window=options.window, scope=options.scope, out_cap=options.out_cap
    )


def shown_units(rendered: Rendered, options: AnyOptions) -> str:
    """What an answer holds, in words: "pages 3-5" or "P3..P9" ("no pages", "no paragraphs")."""
    if kind_of(options) is not WORD:
        return pages_label(rendered.first, rendered.last)
    if rendered.first < 1:
        return "no paragraphs"
    from siftui.core.word.walk import paragraphs_shown

    return paragraphs_shown(rendered.first, rendered.last)


def label(kind: AnswerKind, options: AnyOptions) -> str:
    """What the answer is, in words: "map", "pages 3-5", "grep in P3..P9", "window of P4#1a2b"."""
    word = WORD.options(options)
    if word is not None:
        return _word_label(kind, word)
    pages = PDF.options_of(options).pages.strip()
    if kind is AnswerKind.GREP:
        return "grep" + (f" in {_asked(pages)}" if pages else "")
    if kind is AnswerKind.PAGES:
        return _asked(pages)
    return str(kind.value)


def _word_label(kind: AnswerKind, options: DocxOptions) -> str:
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


def _asked(pages: str) -> str:
    """The range as asked, in words: "page 7", "pages 3-5", "pages 12-"."""
    return f"page {pages}" if pages.isdigit() else f"pages {pages}"


def document_words(doc: AnyDoc, options: AnyOptions) -> str:
    """The document in the counter's words: "doc: 51 pages · full text 120,114 runes"."""
    word = WORD.doc(doc)
    if word is not None:
        asked = WORD.options(options)
        scope = asked.scope if asked is not None else "body"
        story = word.stories.get(scope or "body")
        if story is None:
            return "doc: no such story"
        from siftui.core.word.index import index_story

        story_index = index_story(story)
        where = "" if scope in ("", "body") else f" in the {scope}"
        return (
            f"doc: {plural(story.count, 'paragraph')} ({story_index.shown:,} shown) · "
            f"{plural(len(story.tables), 'table')}{where} · "
            f"full text {story_index.full_length:,} runes"
        )
    pdf = PDF.expect(doc)
    index = index_of(pdf)
    text = "doc: " + plural(pdf.page_count, "page")
    if index.extracted < pdf.page_count:
        text += f" ({index.extracted:,} extracted)"
    return text + f" · full text {index.full_length:,} runes"


_WINDOW_DIGITS = 6  # a longer number is out of 0-50 anyway (and int() refuses > 4300 digits)


def with_field(options: AnyOptions, name: str, text: str) -> AnyOptions:
    """``options`` with the request bar's field ``name`` set to the text typed in it.

    A field of the other kind of document changes nothing. The window's text becomes
    a number without int() ever seeing a huge one: "" is the default, and what is no
    whole number (or a huge one) is a window out of 0-50, refused as the CLI refuses it.
    """
    pdf = PDF.options(options)
    if pdf is not None:
        if name == "pages":
            return replace(pdf, pages=text)
        return replace(pdf, grep=text) if name == "grep" else pdf
    options = WORD.options_of(options)
    from siftui.core.word.render import DEFAULT_WINDOW

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
    pdf = PDF.options(options)
    if pdf is not None:
        return {"pages": pdf.pages, "grep": pdf.grep}
    options = WORD.options_of(options)
    from siftui.core.word.render import DEFAULT_WINDOW

    return {
        "range": options.range,
        "anchor": options.anchor,
        "window": "" if options.window == DEFAULT_WINDOW else str(options.window),
        "grep": options.grep,
        "scope": "" if options.scope == "body" else options.scope,
    }
