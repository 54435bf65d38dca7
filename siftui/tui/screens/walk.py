"""The whole reading an agent makes by following the map and the notes, and what it leaves out.

Two lists: the calls of the walk, and the pages whose block is longer than the
OutCap (their tail no ``pages=`` call shows; see :mod:`siftui.core.unreachable`).
Enter on a call proposes that call; Enter on a page proposes ``pages=P``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from siftui.core.budget import CHARS, Unit
from siftui.core.kinds import DEFAULT_KIND, KINDS, AnyCall, kind_of
from siftui.core.unreachable import Unreachable, counter_line, smallest_line
from siftui.tui.display import plural
from siftui.tui.kinds import AnyOptions
from siftui.tui.screens.styles import DIALOG_CSS


def unreachable_title(found: Unreachable) -> str:
    """The line above the list of pages with an unreachable tail."""
    if not found.pages:
        return f"Nothing is unreachable by {found.calls} at OutCap {found.cap(found.out_cap)}."
    line = counter_line(found)
    return (
        f"{line[0].upper()}{line[1:]}; a grep can show "
        f"{found.grep_reachable_runes:,} of those runes."
    )


class WalkScreen(ModalScreen[AnyOptions | None]):
    """Lists the calls of a walk and (for a PDF) the unreachable pages; Enter on one
    dismisses with the options to propose."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,w", "close", "Close")]

    def __init__(
        self,
        calls: Sequence[AnyCall],
        out_cap: int,
        found: Unreachable | None,
        unit: Unit = CHARS,
    ) -> None:
        super().__init__()
        self._calls = calls
        self._out_cap = out_cap
        self._found = found
        self._unit = unit  # what OutCap counts: the heading, the sizes and the calls made say it

    def compose(self) -> ComposeResult:
        total = sum(len(call.answer.content) for call in self._calls)
        with Vertical(classes="dialog walk"):
            counted = ""
            if self._unit is not CHARS:  # the budget's own count beside the runes
                size = sum(self._unit.size(call.answer.content) for call in self._calls)
                counted = f", {size:,} {self._unit.word}"
            yield Label(
                f"Reading the whole document at OutCap {self._out_cap:,}{self._counts}: "
                f"{plural(len(self._calls), 'call')}, {total:,} runes{counted}, "
                f"~{total // 4:,} tokens",
                classes="dialog-title",
            )
            yield DataTable(cursor_type="row", zebra_stripes=True, id="walk-table")
            if self._found is None:
                yield Static("Enter shows that call · Escape closes.", classes="hint")
                return
            yield Static(unreachable_title(self._found), id="unreachable-title")
            table: DataTable[str | Text] = DataTable(
                cursor_type="row", zebra_stripes=True, id="unreachable-table"
            )
            table.display = bool(self._found.pages)
            table.styles.height = "auto"  # the calls keep the room: at most 10 pages in view
            table.styles.max_height = 10
            yield table
            smallest = smallest_line(self._found)
            yield Static(f"{smallest[0].upper()}{smallest[1:]}.", id="smallest-outcap")
            unit = "page" if self._found.unit == "page" else "paragraph"
            yield Static(
                f"Enter shows that call or {unit} · Tab switches lists · Escape closes. "
                f"A {unit} cut to fit counts as seen by the walk; its tail is listed as "
                "unreachable.",
                classes="hint",
            )

    def on_mount(self) -> None:
        table = self.query_one("#walk-table", DataTable)
        view = kind_of(self._calls[0].options).view if self._calls else DEFAULT_KIND.view
        table.add_columns("#", "call", "kind", view.units_column)
        sized = self._unit is not CHARS
        table.add_columns("runes", *([self._unit.name] if sized else []), "~tokens", "note")
        for number, call in enumerate(self._calls, 1):
            runes = len(call.answer.content)
            options = call.options
            first, last = call.answer.first, call.answer.last
            table.add_row(  # Text: a str cell is read as markup, and a pattern may hold "[/]"
                str(number),
                Text(kind_of(options).describe(options)),
                "map" if call.answer.map else "text",
                view.shown(first, last),
                f"{runes:,}",
                *([f"{self._unit.size(call.answer.content):,}"] if sized else []),
                f"{runes // 4:,}",
                Text(call.answer.note),
                key=str(number - 1),
            )
        table.focus()
        if self._found is None:
            return
        pages = self.query_one("#unreachable-table", DataTable)
        unit = self._found.unit
        pages.add_columns(
            unit, "unreachable runes", "of the block", f"% of the {unit}", "grep can show"
        )
        for reach in self._found.pages:
            pages.add_row(
                str(reach.page) if unit == "page" else Text(self._found.label(reach.page)),
                f"{reach.runes:,}",
                f"{reach.block_runes:,}",
                f"{100 * reach.runes / reach.block_runes:.1f}%",
                f"{reach.grep_reachable_runes:,}",
                key=f"page {reach.page}",
            )

    @property
    def _counts(self) -> str:
        """ " bytes" after OutCap when it counts bytes (runes need no word: the default)."""
        return "" if self._unit is CHARS else f" {self._unit.word}"

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key is None:
            return
        if key.startswith("page "):
            # The unreachable row's unit: of the kind the tail is counted in.
            unit = self._found.unit if self._found is not None else DEFAULT_KIND.unit
            kind = next((kind for kind in KINDS if kind.unit == unit), DEFAULT_KIND)
            first = self._calls[0].options if self._calls else None
            number = int(key.removeprefix("page "))
            self.dismiss(kind.view.unit_call(first, number, self._out_cap, self._unit.name))
        else:
            self.dismiss(self._calls[int(key)].options)

    def action_close(self) -> None:
        self.dismiss(None)
