"""`h`: every hidden-text finding of the document, then the hidden text its extraction
does not hold; Enter asks for its page."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from siftui.core.findings import Finding, Inspection, snippet, summary_line
from siftui.tui.screens.styles import DIALOG_CSS
from siftui.tui.screens.title import dialog_title


def summary_text(name: str, inspection: Inspection) -> str:
    """ "report.pdf: hidden text: 3 spans on 2 pages (412 runes): ..." counted as
    ``siftui inspect`` and the counter count."""
    return f"{name}: {summary_line(inspection)}"


class FindingsScreen(ModalScreen[int | None]):
    """The findings in page order; Enter on one answers its page, Escape nothing."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,h,q", "close", "Close")]

    def __init__(self, name: str, inspection: Inspection) -> None:
        super().__init__()
        self._title = summary_text(name, inspection)
        self._findings: tuple[Finding, ...] = inspection.findings + inspection.unextracted
        self._read = len(inspection.findings)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog findings"):
            yield dialog_title(self._title)
            yield DataTable(cursor_type="row", zebra_stripes=True, id="findings")
            yield Label(
                "Enter: ask for the page · Escape: close · ocr_layer is a scan's text "
                "layer, not an alarm · not extracted: no agent reads it, not an alarm",
                classes="hint",
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("page", "kind", "text (as the agent reads it, or as drawn)")
        for index, finding in enumerate(self._findings):
            kind = finding.kind if index < self._read else f"{finding.kind}, not extracted"
            # Text: a str cell is read as markup, and a document's text may hold "[/]"
            table.add_row(str(finding.page), kind, Text(snippet(finding.text, 70)))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(self._findings[event.cursor_row].page)

    def action_close(self) -> None:
        self.dismiss(None)
