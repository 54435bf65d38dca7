"""The kinds of document siftui shows, each known in one place: its entry here.

A PDF (or anything PyMuPDF opens) is a :class:`~siftui.core.doc.Doc` asked with
:class:`~siftui.core.render.Options`; a Word document is a
:class:`~siftui.core.word.model.DocxDoc` asked with
:class:`~siftui.core.word.render.DocxOptions`. Each kind's entry (:data:`PDF`,
:data:`WORD`) knows what is pure about it: its types, its first call, how it is
rendered, laid out, walked and continued (the next call), its options described,
its document written and read as JSON and counted in runes. Code that handles
either kind asks :func:`kind_of` (a document or options -> its entry) instead of
testing the kind itself; siftui.sources.kinds adds how each kind is detected and
loaded. The Word entry imports its model, renderer, layout, walk, unreachable and
JSON code when first asked, so opening a PDF never loads them; the PDF entry its
walk and unreachable code, which the TUI's first frame does not need.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Generic, TypeGuard, TypeVar, Union

from siftui.core.budget import CHARS, Unit
from siftui.core.doc import Doc
from siftui.core.docjson import doc_from_json, doc_to_json
from siftui.core.layout import Layout, layout_of
from siftui.core.render import BadPages, Options, Rendered, render
from siftui.core.word import BadOption

if TYPE_CHECKING:
    from siftui.core.unreachable import Unreachable
    from siftui.core.walk import Call
    from siftui.core.word.model import DocxDoc
    from siftui.core.word.render import DocxOptions
    from siftui.core.word.walk import DocxCall

# Named, not imported, so that a PDF never loads the Word model (Union: "X" | "Y" is
# not a type at run time).
AnyDoc = Union[Doc, "DocxDoc"]
AnyOptions = Union[Options, "DocxOptions"]

DocT = TypeVar("DocT", Doc, "DocxDoc")
OptionsT = TypeVar("OptionsT", Options, "DocxOptions")


class DocumentKind(Generic[DocT, OptionsT]):
    """One kind of document: what every surface needs to know of it.

    ``name`` is the kind as the MCP worker is told it ("pdf", "docx"); ``unit``
    what an answer is cut into ("page", "paragraph"); ``has_pages``: the kind has
    pages to look at (OCR, hidden text, unreachable tails are about pages)."""

    name: str
    unit: str
    has_pages: bool

    @property
    def doc_type(self) -> type[DocT]:
        raise NotImplementedError

    @property
    def options_type(self) -> type[OptionsT]:
        raise NotImplementedError

    def is_doc(self, value: object) -> TypeGuard[DocT]:
        """Whether ``value`` is a document of this kind."""
        return isinstance(value, self.doc_type)

    def is_options(self, value: object) -> TypeGuard[OptionsT]:
        """Whether ``value`` is options of this kind."""
        return isinstance(value, self.options_type)

    def doc(self, value: object) -> DocT | None:
        """``value`` if it is a document of this kind, else None."""
        return value if self.is_doc(value) else None

    def options(self, value: object) -> OptionsT | None:
        """``value`` if it is options of this kind, else None."""
        return value if self.is_options(value) else None

    def expect(self, value: object) -> DocT:
        """``value``, which is a document of this kind (TypeError otherwise)."""
        if not self.is_doc(value):
            raise TypeError(f"not a {self.name} document: {type(value).__name__}")
        return value

    def options_of(self, value: object) -> OptionsT:
        """``value``, which is options of this kind (TypeError otherwise)."""
        if not self.is_options(value):
            raise TypeError(f"not a {self.name} document's options: {type(value).__name__}")
        return value

    def owns(self, value: object) -> bool:
        return self.is_doc(value) or self.is_options(value)

    def first_call(self, options: AnyOptions) -> OptionsT:
        """The agent's first call (no range, pages or grep) at the OutCap of ``options``."""
        raise NotImplementedError

    def refusal(self) -> Exception:
        """The error for options of the other kind asked of a document of this kind."""
        raise NotImplementedError

    def render(self, doc: DocT, options: OptionsT) -> Rendered:
        raise NotImplementedError

    def layout(self, rendered: Rendered, options: OptionsT, doc: AnyDoc | None) -> Layout:
        raise NotImplementedError

    def next_call(self, options: OptionsT, rendered: Rendered, doc: DocT) -> OptionsT | None:
        """The call the answer's note (or map) names next, or None."""
        raise NotImplementedError

    def walk(self, doc: DocT, options: OptionsT) -> list[Call] | list[DocxCall]:
        """Every call an agent makes to read the document (the story ``options`` ask)."""
        raise NotImplementedError

    def unreachable(
        self, doc: DocT, out_cap: int, scope: str = "body", unit: Unit = CHARS
    ) -> Unreachable | None:
        """What no call shows at ``out_cap`` counted in ``unit`` (of the story ``scope``,
        for a Word document; None: the kind has no such calls). Every surface (the
        walk, the TUI's counter and walk screen, the audit) asks this one."""
        return None

    def describe(self, options: OptionsT) -> str:
        """The call in the words of the walk and the log: "pages=3-5, grep='x'"."""
        raise NotImplementedError

    def to_json(self, doc: DocT, source: dict[str, Any] | None = None) -> str:
        raise NotImplementedError

    def from_json(self, text: str) -> DocT:
        raise NotImplementedError

    def runes(self, doc: DocT) -> int:
        """The text's size in code points."""
        raise NotImplementedError

    def notes(self, doc: DocT) -> tuple[str, ...]:
        """What the reader could not read exactly (shown as warnings)."""
        return ()


class PdfKind(DocumentKind[Doc, Options]):
    name = "pdf"
    unit = "page"
    has_pages = True

    @property
    def doc_type(self) -> type[Doc]:
        return Doc

    @property
    def options_type(self) -> type[Options]:
        return Options

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


class WordKind(DocumentKind["DocxDoc", "DocxOptions"]):
    name = "docx"
    unit = "paragraph"
    has_pages = False

    @property
    def doc_type(self) -> type[DocxDoc]:
        from siftui.core.word.model import DocxDoc

        return DocxDoc

    @property
    def options_type(self) -> type[DocxOptions]:
        from siftui.core.word.render import DocxOptions

        return DocxOptions

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


PDF = PdfKind()
WORD = WordKind()
KINDS: tuple[DocumentKind[Any, Any], ...] = (PDF, WORD)
"""Every kind, the default (a PDF: anything PyMuPDF opens) first."""


def kind_of(value: AnyDoc | AnyOptions) -> DocumentKind[Any, Any]:
    """The entry of the kind of a document or of its options."""
    for kind in KINDS:
        if kind.owns(value):
            return kind
    raise TypeError(f"not a document or options siftui knows: {type(value).__name__}")


def kind_named(name: str) -> DocumentKind[Any, Any] | None:
    """The entry called ``name`` ("pdf", "docx"), or None."""
    return next((kind for kind in KINDS if kind.name == name), None)


def render_any(doc: AnyDoc, options: AnyOptions) -> Rendered:
    """The answer the agent receives; options of the other kind are refused as the
    document's kind refuses them."""
    kind = kind_of(doc)
    if not kind.owns(options):
        raise kind.refusal()
    return kind.render(doc, options)


def next_call_any(options: AnyOptions, rendered: Rendered, doc: AnyDoc) -> AnyOptions | None:
    """The call the answer's note (or map) names next (None, also for another kind's doc)."""
    kind = kind_of(options)
    return kind.next_call(options, rendered, doc) if kind.owns(doc) else None


def runes_of(doc: AnyDoc) -> int:
    """The document's text size in code points."""
    return kind_of(doc).runes(doc)
