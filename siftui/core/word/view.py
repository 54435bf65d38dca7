"""What the TUI shows for a Word document: the Word entry's view (docs/WORD.md).

Its request bar asks Range, Anchor and Window, Grep and Scope; its units are a
story's paragraph blocks; a paragraph chosen in the view asks for its anchor's window.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from siftui.core.kind_view import Field, KindView, StripUnits, plural
from siftui.core.layout import AnswerKind
from siftui.core.render import Rendered
from siftui.core.word import DEFAULT_WINDOW
from siftui.core.word.entry import WORD
from siftui.core.word.model import SCOPES, DocxDoc
from siftui.core.word.render import DocxOptions

_WINDOW_DIGITS = 6  # a longer number is out of 0-50 anyway (and int() refuses > 4300 digits)


class WordView(KindView):
    style = "word"
    fields = (
        Field("range", "Range", "Pa..Pb, Pa, Pa.."),
        Field("anchor", "Anchor", "P<n>#<hash>"),
        Field("window", "Window", "6", restrict=r"[0-9]*"),
    )
    after_grep = (Field("scope", "Scope", "body", completes=True),)
    range_field = "range"
    range_action = "focus_range"
    anchor_field = "anchor"
    chooses_lines = True
    units_column = "paragraphs"

    def suggestions(self) -> tuple[str, ...]:
        return SCOPES

    def field_values(self, options: DocxOptions) -> dict[str, str]:
        return {
            "range": options.range,
            "anchor": options.anchor,
            "window": "" if options.window == DEFAULT_WINDOW else str(options.window),
            "grep": options.grep,
            "scope": "" if options.scope == "body" else options.scope,
        }

    def with_field(self, options: DocxOptions, name: str, text: str) -> DocxOptions:
        """The window's text becomes a number without int() ever seeing a huge one: ""
        is the default, and what is no whole number (or a huge one) is a window out of
        0-50, refused as the CLI refuses it."""
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

    def units_call(self, options: DocxOptions, first: int, last: int) -> DocxOptions:
        asked = f"P{first}" if first == last else f"P{first}..P{last}"
        return DocxOptions(range=asked, scope=options.scope, out_cap=options.out_cap)

    def anchor_call(self, options: DocxOptions, doc: DocxDoc, number: int) -> DocxOptions | None:
        story = doc.stories.get(options.scope or "body")
        if story is None or not 1 <= number <= story.count:
            return None
        anchor = f"P{number}#{story.paragraphs[number - 1].hash}"
        return DocxOptions(
            anchor=anchor, window=options.window, scope=options.scope, out_cap=options.out_cap
        )

    def unit_call(self, options: Any | None, number: int, out_cap: int, unit: str) -> DocxOptions:
        asked = WORD.options(options)
        scope = asked.scope if asked is not None else "body"
        return DocxOptions(range=f"P{number}", scope=scope, out_cap=out_cap, unit=unit)

    def shown(self, first: int, last: int) -> str:
        from siftui.core.word.walk import paragraphs_shown

        return paragraphs_shown(first, last)

    def shown_units(self, rendered: Rendered, options: DocxOptions) -> str:
        if rendered.first < 1:
            return "no paragraphs"
        return self.shown(rendered.first, rendered.last)

    def label(self, kind: AnswerKind, options: DocxOptions) -> str:
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

    def document_words(self, doc: DocxDoc, options: Any) -> str:
        asked = WORD.options(options)
        scope = asked.scope if asked is not None else "body"
        story = doc.stories.get(scope or "body")
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

    def strip(self, doc: DocxDoc, scope: str) -> StripUnits:
        """A story's blocks 1..N (block n = the tables after P<n-1>, then paragraph n's
        line), each one's text length, whether it has no line, and the heading level of
        paragraph n; worked out once per story, and kept with it (as its index is). A
        story without paragraphs has no unit."""
        story = doc.stories[scope or "body"]
        found = story.cache.get("strip units")
        if isinstance(found, StripUnits):
            return found
        from siftui.core.word.index import index_story

        index = index_story(story)
        count = story.count
        starts, sizes = index.starts, index.sizes
        units = StripUnits(
            block_sizes=tuple(max(0, sizes[n] - sizes[n - 1] - 1) for n in range(1, count + 1)),
            empty=tuple(starts[n - 1] == starts[n] for n in range(1, count + 1)),
            count=count,
            unit="paragraph",
            headings=tuple(para.heading if para.text else 0 for para in story.paragraphs),
        )
        story.cache["strip units"] = units
        return units


VIEW = WordView()
