"""The app's shared surface, so that its mixins type-check on their own."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.reactive import reactive

from siftui.doc import Doc
from siftui.tui.state import Shown


class AppBase(App[int]):
    """What SiftApp provides to its mixins: the document, the answer, and hooks."""

    doc: reactive[Doc | None]
    shown: reactive[Shown | None]

    def loaded(self, path: Path, doc: Doc) -> None:
        """Called on the UI thread when a document has been opened."""
        raise NotImplementedError

    def show_error(self, message: str) -> None:
        """Show a one-line problem where the user looks."""
        raise NotImplementedError
