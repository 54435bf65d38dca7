"""The kinds of document, as the app shows them: each kind's entry's view.

The table (siftui.core.kinds: :func:`kind_of` a document or options -> its entry)
knows each kind, and each entry's :class:`~siftui.core.kind_view.KindView` what the
app shows for it (the strip's facts, the request bar's fields, the words that name
an answer); the app, its workers and its widgets ask here, which asks the entry,
instead of testing the kind themselves.
"""

from __future__ import annotations

import functools
from typing import Any

from siftui.core.kind_view import KindView
from siftui.core.kinds import (
    KINDS,
    AnyDoc,
    AnyOptions,
    DocumentKind,
    kind_of,
    next_call_any,
    render_any,
)
from siftui.core.layout import AnswerKind, Layout
from siftui.core.render import Rendered
from siftui.tui.strip_model import PageFacts, units_facts

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
    "view_of",
    "with_field",
]

REFUSALS: tuple[type[Exception], ...] = tuple(
    dict.fromkeys(refusal for kind in KINDS for refusal in kind.refusals)
)
"""What a request the user typed can be refused with (the message is shown as is)."""


def view_of(value: AnyDoc | AnyOptions) -> KindView:
    """What the app shows for the kind of a document or of its options."""
    return kind_of(value).view


@functools.cache
def field_names(view: KindView) -> frozenset[str]:
    """The names of the fields ``view`` shows: the app asks for them for each key every
    time Textual checks its bindings (the footer, at start), and a kind's fields never
    change."""
    return frozenset(field.name for field in view.every_field)


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
    facts already worked out, with what background work added to them (kept by a kind
    whose facts are the document's, not a story's)."""
    kind = kind_of(doc)
    view = kind.view
    if view.keeps_known_facts() and known is not None and known.unit == kind.unit:
        return known
    return units_facts(view.strip(doc, kind.scope(options)))


def units_call(options: AnyOptions, first: int, last: int) -> AnyOptions:
    """Read units first..last (pages, or a Word story's paragraphs), grep cleared."""
    call: AnyOptions = view_of(options).units_call(options, first, last)
    return call


def page_call(options: AnyOptions, page: int) -> AnyOptions | None:
    """Page ``page`` alone, grep cleared (None: the kind has no pages)."""
    call: AnyOptions | None = view_of(options).page_call(options, page)
    return call


def anchor_call(options: AnyOptions, doc: AnyDoc, number: int) -> AnyOptions | None:
    """The window around unit ``number`` of the asked story (None when there is none, or
    the kind has no anchors, or ``doc`` is another kind's)."""
    kind = kind_of(options)
    if not kind.owns(doc):
        return None
    call: AnyOptions | None = kind.view.anchor_call(options, doc, number)
    return call


def shown_units(rendered: Rendered, options: AnyOptions) -> str:
    """What an answer holds, in words: "pages 3-5" or "P3..P9" ("no pages", "no paragraphs")."""
    return view_of(options).shown_units(rendered, options)


def label(kind: AnswerKind, options: AnyOptions) -> str:
    """What the answer is, in words: "map", "pages 3-5", "grep in P3..P9", "window of P4#1a2b"."""
    return view_of(options).label(kind, options)


def document_words(doc: AnyDoc, options: AnyOptions) -> str:
    """The document in the counter's words: "doc: 51 pages · full text 120,114 runes"."""
    return view_of(doc).document_words(doc, options)


def with_field(options: AnyOptions, name: str, text: str) -> AnyOptions:
    """``options`` with the request bar's field ``name`` set to the text typed in it (a
    field of the other kind of document changes nothing)."""
    changed: AnyOptions = view_of(options).with_field(options, name, text)
    return changed


def field_values(options: AnyOptions) -> dict[str, str]:
    """The request bar's fields as they show ``options`` (only its kind's fields)."""
    return view_of(options).field_values(options)
