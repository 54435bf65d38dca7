"""The counter in full (`d`): what a short terminal folds into one line each."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from siftui.tui.screens.styles import DIALOG_CSS
from siftui.tui.screens.title import dialog_title


class DetailsScreen(ModalScreen[None]):
    """The answer's counter and token line, whole; Escape, d or q close it."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,d,q", "close", "Close"),
    ]

    def __init__(self, title: str, details: Text) -> None:
        super().__init__()
        self._title, self._details = title, details

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog details", id="details"):
            yield dialog_title(self._title)
            yield Static(self._details, id="details-text", markup=False)
            yield Static("Escape closes", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#details", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
