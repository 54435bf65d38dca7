"""What one kind of document is, as its entry says it: the shape every entry of the
kind table (siftui.core.kinds) has, apart so that each kind's own modules define
their entry without importing the table back.

A kind's entry knows its types, first call, rendering, layout, walk and next call,
what no call reaches, its JSON, its size, its messages' words, its served read tool
and what the TUI shows for it (its :class:`~siftui.core.kind_view.KindView`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeGuard, TypeVar, Union

from siftui.core.budget import CHARS, Unit
from siftui.core.doc import Doc
from siftui.core.layout import Layout
from siftui.core.render import Options, Rendered

if TYPE_CHECKING:
    from siftui.core.kind_view import KindView
    from siftui.core.unreachable import Unreachable
    from siftui.core.walk import Call
    from siftui.core.word.model import DocxDoc
    from siftui.core.word.render import DocxOptions
    from siftui.core.word.walk import DocxCall

# Named, not imported, so that a PDF never loads the Word model (Union: "X" | "Y" is
# not a type at run time).
AnyDoc = Union[Doc, "DocxDoc"]
AnyOptions = Union[Options, "DocxOptions"]
AnyCall = Union["Call", "DocxCall"]
"""One call of a walk, of either kind."""

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

    def scope(self, options: AnyOptions) -> str:
        """The story ``options`` ask (the body: a kind without stories has only that)."""
        return "body"

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

    # What the rest of siftui asks instead of testing the kind (the audit, the MCP store,
    # the refusals that name the tool to use).
    refusals: tuple[type[Exception], ...]
    """What a request of this kind the user typed can be refused with (the message is
    shown as is)."""
    noun: str
    """The kind in a message's words: "a PDF", "a Word document"."""
    suffixes: tuple[str, ...]
    """The names a file of this kind has (its own first); the default kind owns the rest."""
    reads_ranges_first: bool = False
    """A first page range is read from its own pages (siftui.sources.lazy)."""

    @property
    def read_tool(self) -> str:
        """The served tool that reads this kind (its entry's name)."""
        raise NotImplementedError

    @property
    def view(self) -> KindView:
        """What the TUI shows for this kind (siftui.core.kind_view)."""
        raise NotImplementedError

    def full_text(self, doc: DocT) -> str:
        """The text an agent would read with no OutCap."""
        raise NotImplementedError

    def sizes(self, doc: DocT) -> dict[str, Any]:
        """The document's size in the audit record's words (pages, or paragraphs)."""
        raise NotImplementedError

    def text_bytes(self, doc: DocT) -> int:
        """What keeping the document's text costs in memory, roughly (the MCP store's bound)."""
        raise NotImplementedError

    def reader_notes(self, doc: DocT) -> tuple[str, ...] | None:
        """What the call log keeps of the reader's notes (None: the kind logs pages read
        and hidden text instead)."""
        return None
