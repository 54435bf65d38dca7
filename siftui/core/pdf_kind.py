"""The PDF's entry of the kind table: a :class:`~siftui.core.doc.Doc` asked with
:class:`~siftui.core.render.Options` (a PDF, or anything else PyMuPDF opens: the
default kind), and what the TUI shows for it.

Its walk and unreachable code are imported when first asked (the TUI's first frame
needs neither).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from siftui.core.budget import CHARS, Unit
from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.docjson import doc_from_json, doc_to_json
from siftui.core.kind_entry import AnyDoc, AnyOptions, DocumentKind
from siftui.core.kind_view import Field, KindView, StripUnits, plural
from siftui.core.layout import AnswerKind, Layout, layout_of, pages_label
from siftui.core.render import BadGrep, BadPages, Options, Rendered, render

if TYPE_CHECKING:
    from siftui.core.unreachable import Unreachable
    from siftui.core.walk import Call


class PdfView(KindView):
    style = "pdf"
    fields = (Field("pages", "Pages", "a-b, a or a-"),)
    range_field = "pages"
    range_action = "focus_pages"
    no_anchor = "Anchors are for Word documents; a PDF is read by pages (p)."
    units_column = "pages"

    def field_values(self, options: Options) -> dict[str, str]:
        return {"pages": options.pages, "grep": options.grep}

    def with_field(self, options: Options, name: str, text: str) -> Options:
        if name == "pages":
            return replace(options, pages=text)
        return replace(options, grep=text) if name == "grep" else options

    def units_call(self, options: Options, first: int, last: int) -> Options:
        pages = str(first) if first == last else f"{first}-{last}"
        return replace(options, pages=pages)

    def page_call(self, options: Options, page: int) -> Options:
        return replace(options, pages=str(page), grep="")

    def unit_call(self, options: Any | None, number: int, out_cap: int, unit: str) -> Options:
        return Options(pages=str(number), out_cap=out_cap, unit=unit)

    def shown(self, first: int, last: int) -> str:
        from siftui.core.walk import pages_shown

        return pages_shown(first, last)

    def shown_units(self, rendered: Rendered, options: Options) -> str:
        return pages_label(rendered.first, rendered.last)

    def label(self, kind: AnswerKind, options: Options) -> str:
        pages = options.pages.strip()
        if kind is AnswerKind.GREP:
            return "grep" + (f" in {_asked(pages)}" if pages else "")
        if kind is AnswerKind.PAGES:
            return _asked(pages)
        return str(kind.value)

    def document_words(self, doc: Doc, options: Options) -> str:
        index = index_of(doc)
        text = "doc: " + plural(doc.page_count, "page")
        if index.extracted < doc.page_count:
            text += f" ({index.extracted:,} extracted)"
        return text + f" · full text {index.full_length:,} runes"

    def strip(self, doc: Doc, scope: str) -> StripUnits:
        index = index_of(doc)
        return StripUnits(
            block_sizes=index.block_sizes,
            empty=tuple(size == 0 for size in index.text_sizes),
            count=doc.page_count,
            unit="page",
        )

    def keeps_known_facts(self) -> bool:
        return True


def _asked(pages: str) -> str:
    """The range as asked, in words: "page 7", "pages 3-5", "pages 12-"."""
    return f"page {pages}" if pages.isdigit() else f"pages {pages}"


_VIEW = PdfView()


class PdfKind(DocumentKind[Doc, Options]):
    name = "pdf"
    unit = "page"
    has_pages = True
    refusals = (BadPages, BadGrep)
    noun = "a PDF"
    suffixes = (".pdf",)
    reads_ranges_first = True

    @property
    def doc_type(self) -> type[Doc]:
        return Doc

    @property
    def options_type(self) -> type[Options]:
        return Options

    @property
    def read_tool(self) -> str:
        from siftui.core.tools.read import READ_PDF

        return READ_PDF.name

    @property
    def view(self) -> KindView:
        return _VIEW

    def first_call(self, options: AnyOptions) -> Options:
        return Options(out_cap=options.out_cap, unit=options.unit)

    def refusal(self) -> Exception:
        return BadPages("range and anchor are for Word documents; a PDF is read by pages")

    def render(self, doc: Doc, options: Options) -> Rendered:
        return render(doc, options)

    def layout(self, rendered: Rendered, options: Options, doc: AnyDoc | None) -> Layout:
        return layout_of(rendered, options, self.doc(doc))

    def next_call(self, options: Options, rendered: Rendered, doc: Doc) -> Options | None:
        from siftui.core.walk import next_call

        return next_call(options, rendered, doc)

    def walk(self, doc: Doc, options: Options) -> list[Call]:
        from siftui.core.walk import walk

        return walk(doc, options.out_cap, options.unit)

    def unreachable(
        self, doc: Doc, out_cap: int, scope: str = "body", unit: Unit = CHARS
    ) -> Unreachable:
        from siftui.core.unreachable import unreachable

        return unreachable(doc, out_cap, unit)

    def describe(self, options: Options) -> str:
        from siftui.core.walk import describe_options

        return describe_options(options)

    def to_json(self, doc: Doc, source: dict[str, Any] | None = None) -> str:
        return doc_to_json(doc, source)

    def from_json(self, text: str) -> Doc:
        return doc_from_json(text)

    def runes(self, doc: Doc) -> int:
        return sum(len(page) for page in doc.pages)

    def full_text(self, doc: Doc) -> str:
        return index_of(doc).full()

    def sizes(self, doc: Doc) -> dict[str, Any]:
        return {"pages": doc.page_count, "extracted": doc.extracted}

    def text_bytes(self, doc: Doc) -> int:
        import sys

        return sum(sys.getsizeof(page) for page in doc.pages)


PDF = PdfKind()
