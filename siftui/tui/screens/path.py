"""Asking for a file path (open and save): completion, Tab to accept it, a folder's listing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from siftui.tui.display import escape_controls
from siftui.tui.screens.styles import DIALOG_CSS
from siftui.tui.screens.title import dialog_title

LISTED = 200


def _split(value: str) -> tuple[Path, str]:
    """The folder a typed path is in, and the start of the name typed in it."""
    typed = Path(value).expanduser()
    return (typed, "") if value.endswith("/") or not value else (typed.parent, typed.name)


def entries(value: str) -> list[tuple[str, bool]]:
    """(name, is a folder) of the entries completing ``value``, folders first."""
    folder, stem = _split(value)
    try:
        found = [
            (entry.name, entry.is_dir())
            for entry in os.scandir(folder)
            if entry.name.startswith(stem) and (stem.startswith(".") or entry.name[0] != ".")
        ]
    except OSError:
        return []
    return sorted(found, key=lambda item: (not item[1], item[0]))[:LISTED]


class PathSuggester(Suggester):
    """Completes the last component of a file path from the file system."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        folder, stem = _split(value)
        try:
            names = sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(stem))
        except OSError:
            return None
        if not names or (stem == "" and not value.endswith("/")):
            return None
        return value + names[0][len(stem) :]


OPEN_HINT = "Tab completes · Enter opens · Escape cancels"
SAVE_HINT = "Tab completes · Enter saves (asks before overwriting) · Escape cancels"
"""The hint of a dialog that saves: Enter there writes the file, it opens nothing."""


class PathScreen(ModalScreen[str | None]):
    """Asks for a file path; dismisses with it, or None on Escape.

    Tab accepts the completion shown; Enter on a folder lists it instead of
    failing; the listing below the input can be chosen from too.
    """

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("tab", "complete", "Complete", show=False, priority=True),
    ]

    def __init__(self, title: str, value: str = "", hint: str = "") -> None:
        super().__init__()
        self._title = title
        self._value = value
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog path"):
            yield dialog_title(self._title)
            yield Input(value=self._value, suggester=PathSuggester(), id="path")
            yield OptionList(id="listing", markup=False)  # file names are never markup
            yield Static(self._hint or OPEN_HINT, classes="hint")
            yield Static("", id="path-error", classes="error", markup=False)

    def on_mount(self) -> None:
        path = self.query_one("#path", Input)
        path.focus()
        path.cursor_position = len(path.value)
        self._list(path.value)

    def _list(self, value: str) -> None:
        listing = self.query_one("#listing", OptionList)
        listing.clear_options()
        listing.add_options(
            Option(escape_controls(name) + ("/" if folder else ""), id=name)
            for name, folder in entries(value)
        )

    @on(Input.Changed, "#path")
    def _changed(self, event: Input.Changed) -> None:
        self._list(event.value)
        self.query_one("#path-error", Static).update("")

    def action_complete(self) -> None:
        path = self.query_one("#path", Input)
        if not path.has_focus:
            path.focus()
            return
        before = path.value
        path.cursor_position = len(path.value)
        path.action_cursor_right()  # at the end, this accepts the suggestion
        if path.value == before and self.query_one("#listing", OptionList).option_count:
            self.query_one("#listing", OptionList).focus()

    @on(OptionList.OptionSelected, "#listing")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        path = self.query_one("#path", Input)
        folder, _ = _split(path.value)
        name = event.option.id or ""
        self._go(str(folder / name))

    @on(Input.Submitted, "#path")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.query_one("#path-error", Static).update("Type a file path, or Escape to cancel.")
            return
        self._go(text)

    def _go(self, text: str) -> None:
        target = Path(text).expanduser()
        path = self.query_one("#path", Input)
        if target.is_dir():  # a folder opens into its listing
            path.value = str(target).rstrip("/") + "/"
            path.cursor_position = len(path.value)
            path.focus()
            return
        self.dismiss(str(target))

    def action_cancel(self) -> None:
        self.dismiss(None)
