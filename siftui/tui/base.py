"""The app's shared surface, so that its mixins type-check on their own."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.reactive import reactive

from siftui.doc import Doc
from siftui.render import Options
from siftui.tui.state import Shown


class AppBase(App[int]):
    """What SiftApp provides to its mixins: the document, the answer, and hooks.

    The hooks are implemented by SiftApp or by one of its mixins; these bodies
    only run if a mixin is used without them, which is a programming error.
    """

    doc: reactive[Doc | None]
    shown: reactive[Shown | None]

    def loaded(self, path: Path, doc: Doc) -> None:
        """Called on the UI thread when a document has been opened."""
        raise NotImplementedError

    def show_error(self, message: str) -> None:
        """Show a one-line problem where the user looks."""
        raise NotImplementedError

    def open_document(self, path: Path, password: str | None = None) -> None:
        """Start opening ``path`` in a worker."""
        raise NotImplementedError

    def ask(self, options: Options) -> None:
        """Make a call as the agent would: set the request and record it."""
        raise NotImplementedError

    def replay_status(self, message: str, *, warning: bool = False) -> None:
        """Say how a replayed call compares with the log."""
        raise NotImplementedError
