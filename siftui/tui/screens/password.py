"""Asking for a document's password."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from siftui.tui.display import escape_controls
from siftui.tui.screens.styles import DIALOG_CSS


class PasswordScreen(ModalScreen[str | None]):
    """Asks for a document's password; dismisses with it, or None on Escape."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, name: str, error: str = "") -> None:
        super().__init__()
        self._document_name = name
        self._error = error

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                f"[b]{_escape(escape_controls(self._document_name))}[/b] is encrypted.",
                classes="dialog-title",
            )
            yield Label("Password (Enter to open, Escape to cancel):")
            yield Input(password=True, id="password")
            yield Static(self._error, id="password-error", classes="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _escape(text: str) -> str:
    return text.replace("[", r"\[")
