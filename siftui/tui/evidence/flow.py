"""``e``: the open PDF's evidence preview, and back; one session per file, kept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand

from siftui.core.kinds import named_kind, paged
from siftui.tui.evidence.model import OpenDocument, PreviewFactory
from siftui.tui.state import Opened

if TYPE_CHECKING:
    from siftui.tui.evidence.screen import EvidenceScreen

NAME = "evidence"


__all__ = ["EvidenceFlow", "PreviewFactory"]


class EvidenceFlow:
    def __init__(self, app: App[Any], factory: PreviewFactory | None) -> None:
        self.app = app
        self.factory = factory
        self.screen: EvidenceScreen | None = None

    def toggle(self, opened: Opened | None) -> None:
        """Show the preview of the document open (its session made the first time, and
        again for another file)."""
        if self.factory is None:
            self.app.notify("No evidence tools in this run.", severity="warning")
            return
        named = None if opened is None else named_kind(opened.source.path)
        if opened is None or named is None or not named.has_pages:
            self.app.notify(
                "The evidence tools read PDF files: open one first.", severity="warning"
            )
            return
        path = opened.source.path
        if self.screen is None or self.screen.path != path:
            if self.screen is not None:
                self.screen.close_preview()
                self.app.uninstall_screen(NAME)
            from siftui.tui.evidence.starting import Starting

            # Begun before the screen's modules are imported (imported on the first `e`:
            # nothing needs them before it), while they are and the screen is built.
            starting = Starting(self.factory, path, open_document(opened))
            from siftui.tui.evidence.screen import EvidenceScreen

            self.screen = EvidenceScreen(starting)
            self.app.install_screen(self.screen, NAME)  # kept while read_pdf is shown
        self.app.push_screen(NAME)

    def system_commands(self) -> Iterator[SystemCommand]:
        """The command palette's entries of the preview's keys (acting on its screen)."""
        from siftui.tui.keys import evidence_keys, system_commands

        yield from system_commands(self.app, evidence_keys(), "screen.", acts=lambda _: True)

    def close(self) -> None:
        if self.screen is not None:
            self.screen.close_preview()


def open_document(opened: Opened) -> OpenDocument | None:
    """The document the app has open, when the server would read its file alike: a PDF's
    pages read from its bytes, with no password and no OCR (else None: the session
    reads the file itself)."""
    doc = paged(opened.doc)
    source = opened.source
    if doc is None or opened.password is not None or source.ocr or not source.sha256:
        return None
    return OpenDocument(source.path, source.sha256, doc, opened.unreadable)
