"""The lines a person pastes to register the reader with an agent host (``r``)."""

from __future__ import annotations

import os
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from siftui.core.reader import Registration
from siftui.tui.screens.styles import DIALOG_CSS
from siftui.tui.screens.title import dialog_title


def registration_text(registration: Registration | None, pid: int | None = None) -> str:
    """What the screen shows: the command for Claude Code, the JSON for hosts configured
    by a file, and the stdio bridge."""
    if registration is None:
        return "No host runs in this reader: agents cannot reach it."
    return "\n".join(
        (
            "# Claude Code:",
            registration.claude_line(),
            "",
            "# Hosts configured by a JSON file (mcpServers):",
            registration.json_snippet(),
            "",
            "# Hosts that only start stdio servers:",
            registration.bridge_line(os.getpid() if pid is None else pid),
            "",
            "# The token is new at each start: register the reader again after a restart.",
        )
    )


class RegisterScreen(ModalScreen[None]):
    """The registration lines, selectable; Escape or r closes it."""

    CSS_PATH = DIALOG_CSS
    AUTO_FOCUS = "#register-lines"  # the lines, to select and copy from at once

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r", "close", "Close")]

    def __init__(self, registration: Registration | None, pid: int | None = None) -> None:
        super().__init__()
        self._text = registration_text(registration, pid)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog register"):
            yield dialog_title("Register this reader with an agent host")
            yield TextArea(self._text, read_only=True, soft_wrap=True, id="register-lines")
            yield Static("Select and copy a line; Escape closes.", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)
