"""The Word document's entry of the kind table: a
:class:`~siftui.core.word.model.DocxDoc` asked with
:class:`~siftui.core.word.render.DocxOptions`.

It imports its model, renderer, layout, walk, unreachable, JSON and view code when
first asked, so a PDF never loads them; asking whether a value is a Word document's
loads nothing, since no such value exists before its module does.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

from siftui.core.budget import CHARS, Unit
from siftui.core.kind_entry import AnyDoc, AnyOptions, DocumentKind
from siftui.core.layout import Layout
from siftui.core.render import BadGrep, Rendered
from siftui.core.word import DOCX_SUFFIXES, BadOption

if TYPE_CHECKING:
    from siftui.core.kind_view import KindView
    from siftui.core.unreachable import Unreachable
    from siftui.core.word.model import DocxDoc
    from siftui.core.word.render import DocxOptions
    from siftui.core.word.walk import DocxCall


class WordKind(DocumentKind["DocxDoc", "DocxOptions"]):
    name = "docx"
    unit = "paragraph"
    has_pages = False
    refusals = (BadOption, BadGrep)
    noun = "a Word document"
    suffixes = DOCX_SUFFIXES

    @property
    def doc_type(self) -> type[DocxDoc]:
        from siftui.core.word.model import DocxDoc

        return DocxDoc

    @property
    def options_type(self) -> type[DocxOptions]:
        from siftui.core.word.render import DocxOptions

        return DocxOptions

    @property
    def read_tool(self) -> str:
        from siftui.core.tools.read import READ_DOCX

        return READ_DOCX.name

    @property
    def view(self) -> KindView:
        from siftui.core.word.view import VIEW

        return VIEW

    # Neither a Word document nor its options exist before their module is loaded: asking
    # whether a value is one (every PDF call asks) loads nothing.
    def is_doc(self, value: object) -> TypeGuard[DocxDoc]:
        return "siftui.core.word.model" in sys.modules and super().is_doc(value)

    def is_options(self, value: object) -> TypeGuard[DocxOptions]:
        return "siftui.core.word.render" in sys.modules and super().is_options(value)

    def scope(self, options: AnyOptions) -> str:
        """The story ``options`` ask (the body for a PDF's options or an unknown story)."""
        if not self.is_options(options):
            return "body"
        from siftui.core.word.model import SCOPES

        return options.scope if options.scope in SCOPES else "body"

    def first_call(self, options: AnyOptions) -> DocxOptions:
        # The scope is kept when the document has such a story (an unknown one, typed
        # while the file opened, has no first call: the body does).
        return self.options_type(
            scope=self.scope(options), out_cap=options.out_cap, unit=options.unit
        )

    def refusal(self) -> Exception:
        return BadOption("pages= is for PDFs; a Word document is read by range or anchor")

    def render(self, doc: DocxDoc, options: DocxOptions) -> Rendered:
        from siftui.core.word.render import render_docx

        return render_docx(doc, options)

    def layout(self, rendered: Rendered, options: DocxOptions, doc: AnyDoc | None) -> Layout:
        from siftui.core.word.layout import docx_layout_of

        return docx_layout_of(rendered, options, self.doc(doc))

    def next_call(
        self, options: DocxOptions, rendered: Rendered, doc: DocxDoc
    ) -> DocxOptions | None:
        from siftui.core.word.walk import next_docx_call

        return next_docx_call(options, rendered, doc)

    def walk(self, doc: DocxDoc, options: DocxOptions) -> list[DocxCall]:
        from siftui.core.word.walk import walk_docx

        return walk_docx(doc, options.out_cap, self.scope(options), options.unit)

    def unreachable(
        self, doc: DocxDoc, out_cap: int, scope: str = "body", unit: Unit = CHARS
    ) -> Unreachable:
        from siftui.core.word.model import SCOPES
        from siftui.core.word.unreachable import docx_unreachable

        return docx_unreachable(doc, out_cap, scope if scope in SCOPES else "body", unit)

    def describe(self, options: DocxOptions) -> str:
        from siftui.core.word.walk import describe_docx_options

        return describe_docx_options(options)

    def to_json(self, doc: DocxDoc, source: dict[str, Any] | None = None) -> str:
        from siftui.core.word.docjson import docx_to_json

        return docx_to_json(doc, source)

    def from_json(self, text: str) -> DocxDoc:
        from siftui.core.word.docjson import docx_from_json

        return docx_from_json(text)

    def runes(self, doc: DocxDoc) -> int:
        total = 0
        for story in doc.stories.values():
            total += sum(len(para.text) for para in story.paragraphs)
            total += sum(len(row) for table in story.tables for row in table.rows)
        return total

    def notes(self, doc: DocxDoc) -> tuple[str, ...]:
        return doc.notes

    def full_text(self, doc: DocxDoc) -> str:
        from siftui.core.word.index import index_story

        stories = ("\n".join(index_story(story).lines) for story in doc.stories.values())
        return "\n".join(text for text in stories if text)

    def sizes(self, doc: DocxDoc) -> dict[str, Any]:
        return {"paragraphs": doc.stories["body"].count}

    def text_bytes(self, doc: DocxDoc) -> int:
        # Its text, plus each paragraph's object and line.
        paragraphs = sum(len(story.paragraphs) for story in doc.stories.values())
        return 4 * self.runes(doc) + 200 * paragraphs

    def reader_notes(self, doc: DocxDoc) -> tuple[str, ...]:
        return doc.notes


WORD = WordKind()
