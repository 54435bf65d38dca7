"""``e``: the open PDF's evidence preview, and back; one session per file, kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand

from siftui.core.kinds import named_kind
from siftui.tui.evidence.model import PreviewFactory

if TYPE_CHECKING:
    from siftui.tui.evidence.screen import EvidenceScreen

NAME = "evidence"


__all__ = ["EvidenceFlow", "PreviewFactory"]


class EvidenceFlow:
    def __init__(self, app: App[Any], factory: PreviewFactory | None) -> None:
        self.app = app
        self.factory = factory
        self.screen: EvidenceScreen | None = None

    def toggle(self, path: Path | None) -> None:
        if self.factory is None:
            self.app.notify("No evidence tools in this run.", severity="warning")
            return
        named = None if path is None else named_kind(path)
        if path is None or named is None or not named.has_pages:
            self.app.notify(
                "The evidence tools read PDF files: open one first.", severity="warning"
            )
            return
        if self.screen is None or self.screen.path != path:
            if self.screen is not None:
                self.screen.close_preview()
                self.app.uninstall_screen(NAME)
            # Imported on the first `e`: the preview's modules are not needed before it.
            from siftui.tui.evidence.screen import EvidenceScreen

            self.screen = EvidenceScreen(path, self.factory)
            self.app.install_screen(self.screen, NAME)  # kept while read_pdf is shown
        self.app.push_screen(NAME)

    def system_commands(self) -> Iterator[SystemCommand]:
        """The command palette's entries of the preview's keys (acting on its screen)."""
        from siftui.tui.keys import evidence_keys, system_commands

        yield from system_commands(self.app, evidence_keys(), "screen.", acts=lambda _: True)

    def close(self) -> None:
        if self.screen is not None:
            self.screen.close_preview()
