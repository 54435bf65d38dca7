"""The calls of an MCP call log, one row each (a DataTable), for its replay.

Imported only when a log is replayed (siftui.tui.replay_flow): its messages are
siftui.tui.widgets.replay's, which the app handles.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.widgets import DataTable

from siftui.core.terminal import escape_controls
from siftui.sources.filehash import file_sha256
from siftui.tui.widgets.replay import CallChecked, CallChosen, LogFollowed

if TYPE_CHECKING:
    from siftui.sources.log.calllog import LogEntry
    from siftui.sources.log.follow import LogTail

FOLLOW_SECONDS = 0.25
"""How often a followed log is read again."""


class CallList(DataTable[str | Text]):
    """The calls of a log; the result column (runes, or "error") comes before the request."""

    # Its place on the screen is the app's layout (replay.tcss).

    def __init__(
        self, entries: list[LogEntry], tail: LogTail | None = None, *, follow: bool = False
    ) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id="call-log")
        self.entries = entries  # the app's list: calls read while following are added to it
        self.tail = tail
        self.following = follow and tail is not None
        # A followed call is shown as it arrives until the user moves the cursor off the
        # newest row; moving back onto it follows again.
        self._placed = 0  # the row the list last put the cursor on itself
        self.moved = False

    def on_mount(self) -> None:
        self.add_columns("#", "time", "result", "file", "request")
        self._add_rows(self.entries, 1)
        if self.tail is not None:
            self.set_interval(FOLLOW_SECONDS, self._poll, name="follow the log")

    def toggle_follow(self) -> None:
        """``F``: keep reading the log as the server appends to it, or stop."""
        if self.tail is None:
            self.notify("This replay has no log file to follow.", severity="warning")
            return
        self.following = not self.following
        self.post_message(LogFollowed(0, self.following, []))

    def _poll(self) -> None:
        if not self.following or self.tail is None:
            return
        entries, skipped = self.tail.read()  # only the bytes appended since the last read
        if entries or skipped:
            first = len(self.entries) + 1
            self.entries.extend(entries)
            self._add_rows(entries, first)
            self.post_message(LogFollowed(len(entries), True, skipped))
            if entries and not self.moved:
                self._placed = self.row_count - 1
                self.move_cursor(row=self._placed)

    def _add_rows(self, entries: list[LogEntry], first: int) -> None:
        for number, entry in enumerate(entries, first):
            received = entry.received
            result: str | Text = (
                Text("error", style="bold red")
                if received is None
                else f"{len(received.content):,} runes"
            )
            self.add_row(
                str(number),
                entry.time[11:19],
                result,
                # Text: a str cell is read as markup; escaped: a crafted log's ESC
                Text(escape_controls(Path(entry.path).name)),
                Text(escape_controls(entry.described)),
                key=str(number - 1),
            )

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        if event.cursor_row != self._placed:
            self.moved = event.cursor_row != self.row_count - 1
            self._placed = event.cursor_row
        if key is not None:
            self._choose(int(key))

    def _choose(self, index: int) -> None:
        entry = self.entries[index]
        self.post_message(CallChosen(entry, index + 1))
        if entry.rendered is not None:
            self._check(entry, index + 1)

    def step(self, *, back: bool) -> None:
        """`b` / `f` in a replay: the call before or after the one under the cursor (none,
        said, at either end)."""
        number = self.cursor_row + 1 + (-1 if back else 1)
        if not 1 <= number <= len(self.entries):
            message = f"Already at the log's {'first' if back else 'last'} call."
            self.notify(message, markup=False)
            return
        self.show_call(number)

    def show_call(self, number: int) -> None:
        """Move to call ``number`` (1-based) and replay it, even if the cursor is there."""
        if not 1 <= number <= len(self.entries):
            return
        self.focus()
        if self.cursor_row == number - 1:
            self._choose(number - 1)  # no RowHighlighted for the row already highlighted
        else:
            self.move_cursor(row=number - 1)

    @work(thread=True, exclusive=True, group="replay", description="check a logged file")
    def _check(self, entry: LogEntry, number: int) -> None:
        try:
            digest: str | None = file_sha256(entry.path)
        except OSError:
            digest = None
        self.app.call_from_thread(self.post_message, CallChecked(entry, number, digest))
