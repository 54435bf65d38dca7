"""The request bar: the fields an agent's call fills in, for the kind of document open.

A PDF is asked by Pages and Grep; a Word document by Range, Anchor and Window,
Grep and Scope (docs/WORD.md). The bar holds no request: each edit is posted as
:class:`RequestBar.Edited` (a field's name and its text) and Enter as
:class:`RequestBar.Submitted`; the app turns them into the request
(siftui.tui.kinds.with_field) and shows the request back with :meth:`show`.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label

from siftui.core.word.model import SCOPES

WORD_FIELDS = ("range", "anchor", "window", "scope")
PDF_FIELDS = ("pages",)


class RequestBar(Horizontal):
    """Pages / Grep for a PDF; Range / Anchor / Window / Grep / Scope for a Word document."""

    class Edited(Message):
        def __init__(self, field: str, text: str) -> None:
            super().__init__()
            self.field = field
            self.text = text

    class Submitted(Message):
        """Enter in a field: the request as it stands is a call."""

    def on_mount(self) -> None:
        # A narrow terminal hides the labels: the tooltips still name the fields.
        for field in self.query(Input):
            field.tooltip = (field.id or "").capitalize()

    def compose(self) -> ComposeResult:
        yield Label("Pages", classes="field-label pdf-only")
        yield Input(placeholder="a-b, a or a-", id="pages", compact=True, classes="pdf-only")
        yield Label("Range", classes="field-label word-only")
        yield Input(placeholder="Pa..Pb, Pa, Pa..", id="range", compact=True, classes="word-only")
        yield Label("Anchor", classes="field-label word-only")
        yield Input(placeholder="P<n>#<hash>", id="anchor", compact=True, classes="word-only")
        yield Label("Window", classes="field-label word-only")
        yield Input(
            placeholder="6", id="window", compact=True, classes="word-only", restrict=r"[0-9]*"
        )
        yield Label("Grep", classes="field-label")
        yield Input(placeholder="RE2 pattern (smart case)", id="grep", compact=True)
        yield Label("Scope", classes="field-label word-only")
        yield Input(
            placeholder="body",
            id="scope",
            compact=True,
            classes="word-only",
            suggester=SuggestFromList(SCOPES, case_sensitive=False),
        )

    @property
    def word(self) -> bool:
        """Whether the bar shows a Word document's fields."""
        return self.has_class("-word")

    def show(self, values: dict[str, str], *, word: bool) -> None:
        """Show a request: the fields of its kind, with its values (an Input set to its
        own value posts nothing, so the request is not proposed again)."""
        self.set_class(word, "-word")
        for name, value in values.items():
            field = self.query_one(f"#{name}", Input)
            if field.value != value:
                field.value = value

    def field(self, name: str) -> Input:
        return self.query_one(f"#{name}", Input)

    @on(Input.Changed)
    def _edited(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id is not None:
            self.post_message(self.Edited(event.input.id, event.value))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted())
