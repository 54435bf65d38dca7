"""The request bar: the fields an agent's call fills in, for the kind of document open.

A PDF is asked by Pages and Grep; a Word document by Range, Anchor and Window,
Grep and Scope (docs/WORD.md). The bar holds no request: each edit is posted as
:class:`RequestBar.Edited` (a field's name and its text) and Enter as
:class:`RequestBar.Submitted`; the app turns them into the request
(siftui.tui.kinds.with_field) and shows the request back with :meth:`show`.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

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

    def compose(self) -> ComposeResult:
        yield from _field("Pages", "a-b, a or a-", id="pages", classes="pdf-only")
        yield from _field("Grep", "RE2 pattern (smart case)", id="grep")

    def _word_fields(self) -> None:
        """Mount a Word document's fields, the first time one is shown: a PDF's start
        (most starts) makes neither their four Inputs nor their labels."""
        if self.query("#range"):
            return
        grep_label = self.query_one("#grep-label", Static)
        self.mount_all(
            [
                *_field("Range", "Pa..Pb, Pa, Pa..", id="range", classes="word-only"),
                *_field("Anchor", "P<n>#<hash>", id="anchor", classes="word-only"),
                *_field("Window", "6", id="window", classes="word-only", restrict=r"[0-9]*"),
            ],
            before=grep_label,
        )
        from siftui.core.word.model import SCOPES

        suggest = SuggestFromList(SCOPES, case_sensitive=False)
        self.mount_all(_field("Scope", "body", id="scope", classes="word-only", suggester=suggest))

    @property
    def word(self) -> bool:
        """Whether the bar shows a Word document's fields."""
        return self.has_class("-word")

    def show(self, values: dict[str, str], *, word: bool) -> None:
        """Show a request: the fields of its kind, with its values (an Input set to its
        own value posts nothing, so the request is not proposed again)."""
        if word:
            self._word_fields()
        self.set_class(word, "-word")
        for name, value in values.items():
            field = self.query_one(f"#{name}", Input)
            if field.value != value:
                field.value = value

    def field(self, name: str) -> Input:
        if name in WORD_FIELDS:
            self._word_fields()
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


class CompletingInput(Input):
    """An Input whose Tab accepts the completion it shows (`foot` → `footnotes`), and
    moves on, as Tab does elsewhere, when it shows none."""

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]  # noqa: RUF012

    def action_complete(self) -> None:
        before = self.value
        self.cursor_position = len(self.value)
        self.action_cursor_right()  # at the end, this accepts the suggestion
        if self.value == before:
            self.screen.focus_next()


def _field(
    label: str, placeholder: str, *, id: str, classes: str = "", **options: Any
) -> tuple[Static, Input]:
    """A field's label and its Input (one that completes with Tab, given a suggester).
    A narrow terminal hides the labels: the tooltip still names the field. The label is
    a Static: a Label brings its variants' rules, parsed before the first frame."""
    kind = CompletingInput if "suggester" in options else Input
    return (
        Static(label, id=f"{id}-label", classes=f"field-label {classes}".strip(), markup=False),
        kind(
            placeholder=placeholder,
            id=id,
            compact=True,
            classes=classes,
            tooltip=label,
            **options,
        ),
    )
