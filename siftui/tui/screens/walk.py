"""The whole reading an agent makes by following the map and the notes."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from siftui.render import Options
from siftui.tui.widgets.counter import plural
from siftui.walk import Call, describe_options, pages_shown


class WalkScreen(ModalScreen[Options | None]):
    """Lists the calls of a walk; Enter on one dismisses with its options."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,w", "close", "Close")]

    def __init__(self, calls: list[Call], out_cap: int) -> None:
        super().__init__()
        self._calls = calls
        self._out_cap = out_cap

    def compose(self) -> ComposeResult:
        total = sum(len(call.answer.content) for call in self._calls)
        with Vertical(classes="dialog walk"):
            yield Label(
                f"Reading the whole document at OutCap {self._out_cap:,}: "
                f"{plural(len(self._calls), 'call')}, {total:,} runes, ~{total // 4:,} tokens",
                classes="dialog-title",
            )
            yield DataTable(cursor_type="row", zebra_stripes=True, id="walk-table")
            yield Static(
                "Enter shows that call · Escape closes. A page cut to fit counts as seen.",
                classes="hint",
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", "call", "kind", "pages", "runes", "~tokens", "note")
        for number, call in enumerate(self._calls, 1):
            runes = len(call.answer.content)
            table.add_row(
                str(number),
                describe_options(call.options),
                "map" if call.answer.map else "text",
                pages_shown(call.answer.first, call.answer.last),
                f"{runes:,}",
                f"{runes // 4:,}",
                call.answer.note,
                key=str(number - 1),
            )
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key is not None:
            self.dismiss(self._calls[int(key)].options)

    def action_close(self) -> None:
        self.dismiss(None)
