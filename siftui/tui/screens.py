"""Modal dialogs: password, a file path (open and save), a yes/no question, help."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Button, Input, Label, Markdown, Static


class PasswordScreen(ModalScreen[str | None]):
    """Asks for a document's password; dismisses with it, or None on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, name: str, error: str = "") -> None:
        super().__init__()
        self._document_name = name
        self._error = error

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                f"[b]{_escape(self._document_name)}[/b] is encrypted.", classes="dialog-title"
            )
            yield Label("Password (Enter to open, Escape to cancel):")
            yield Input(password=True, id="password")
            yield Static(self._error, id="password-error", classes="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PathSuggester(Suggester):
    """Completes the last component of a file path from the file system."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        typed = Path(value).expanduser()
        folder, stem = (typed, "") if value.endswith("/") else (typed.parent, typed.name)
        try:
            names = sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(stem))
        except OSError:
            return None
        if not names or (stem == "" and not value.endswith("/")):
            return None
        return value + names[0][len(stem) :]


class PathScreen(ModalScreen[str | None]):
    """Asks for a file path; dismisses with it, or None on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", hint: str = "") -> None:
        super().__init__()
        self._title = title
        self._value = value
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield Input(value=self._value, suggester=PathSuggester(), id="path")
            yield Static(self._hint, classes="hint")
            yield Static("", id="path-error", classes="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.query_one("#path-error", Static).update("Type a file path, or Escape to cancel.")
            return
        self.dismiss(str(Path(text).expanduser()))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; Escape means no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", "No"),
        Binding("y", "answer(True)", "Yes"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._question, classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="warning")
                yield Button("No (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


HELP = """\
# siftui

The pane shows **exactly** the string an agent receives from a bounded
"read this PDF" tool, for the current request and OutCap. `c` copies it byte
for byte.

| key | does |
|---|---|
| `c` | copy the answer (system clipboard and OSC 52) |
| `j` | copy the answer as JSON (as `siftui render --json`) |
| `s` | save the answer to a file |
| `/` | grep: an RE2 pattern (smart case); pages, if set, limit the search |
| `p` | pages: `a-b`, `a` or `a-` |
| `m` | back to the map / full text (clears pages and grep) |
| `n` | make the call the note names (as the agent would) |
| `b` `f` | back / forward through the calls made |
| `w` | the walk: every call needed to read the whole document |
| page strip | click a page (or arrows + Enter on it) to ask for it |
| `[` `]` | OutCap one step down / up |
| `o` | open another file |
| `t` | OCR pages without text (Tesseract) on / off |
| `ctrl+p` | command palette |
| `q` | quit |

**OutCap** is the budget in code points ("runes"). Drag the slider, use the
arrow keys on it, or type an exact number. `~tokens` is runes / 4, the
contract's estimate.

Press Escape to close this help.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)


def _escape(text: str) -> str:
    return text.replace("[", r"\[")
