"""The help: made from the key list, scrollable, and small enough for 80x24."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from siftui.tui.keys import help_markdown
from siftui.tui.screens.styles import DIALOG_CSS


class HelpScreen(ModalScreen[None]):
    """Arrows, Page Up / Down, Home / End and the wheel scroll it; Escape, ? or q close it."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close"),
    ]

    def __init__(self, text: str | None = None) -> None:
        super().__init__()
        self._text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help", id="help"):
            yield Markdown(help_markdown() if self._text is None else self._text)

    def on_mount(self) -> None:
        self.query_one("#help", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
