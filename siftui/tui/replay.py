"""Replaying an MCP call log: what the agent asked, and exactly what it received.

Selecting a call shows the logged answer at once; the document is then opened
and the same call is made again with the live controls, so the user can try
another OutCap. When the file changed since the call, or today's siftui gives
other bytes, the app says so and keeps the logged answer on screen.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.widgets import DataTable

from siftui.cache import file_sha256
from siftui.render import Rendered
from siftui.serve.calllog import LogEntry
from siftui.tui.base import AppBase
from siftui.tui.display import prepare
from siftui.tui.state import Shown
from siftui.walk import describe_options


class CallList(DataTable[str | Text]):
    """The calls of a log, one row each; highlighting a row replays it."""

    DEFAULT_CSS = """
    CallList {
        dock: left;
        width: 62;
        height: 1fr;
    }
    """

    def __init__(self, entries: list[LogEntry]) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id="calls")
        self.entries = entries

    def on_mount(self) -> None:
        self.add_columns("#", "time", "file", "request", "runes")
        for number, entry in enumerate(self.entries, 1):
            runes: str | Text = (
                Text("error", style="bold red")
                if entry.rendered is None
                else f"{len(entry.rendered.content):,}"
            )
            self.add_row(
                str(number),
                entry.time[11:19],
                Path(entry.path).name,
                describe_options(entry.options),
                runes,
                key=str(number - 1),
            )


class ReplayMixin(AppBase):
    """Shows a logged call and re-makes it on the live document."""

    _path: Path | None
    _replaying: LogEntry | None = None

    @on(DataTable.RowHighlighted, "#calls")
    def _call_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        if key is not None:
            self.replay(self.query_one(CallList).entries[int(key)], int(key) + 1)

    def replay(self, entry: LogEntry, number: int) -> None:
        self._replaying = entry
        where = f"call {number}: {describe_options(entry.options)} at OutCap {entry.out_cap:,}"
        if entry.rendered is None:
            self.replay_status(f"{where}: the agent got an error: {entry.message}", warning=True)
            return
        self.shown = _logged(entry, entry.rendered)
        self._check_file(entry, where)

    @work(thread=True, exclusive=True, group="replay", description="check a logged file")
    def _check_file(self, entry: LogEntry, where: str) -> None:
        try:
            digest: str | None = file_sha256(entry.path)
        except OSError:
            digest = None
        self.call_from_thread(self._file_checked, entry, where, digest)

    def _file_checked(self, entry: LogEntry, where: str, digest: str | None) -> None:
        if self._replaying is not entry:
            return
        if digest is None:
            self.replay_status(
                f"{where}: {entry.path} cannot be read now; showing the logged answer",
                warning=True,
            )
            return
        if entry.sha256 is not None and digest != entry.sha256:
            self.replay_status(
                f"{where}: the file changed since the call; showing the logged answer",
                warning=True,
            )
            return
        if self._path is None or Path(entry.path) != self._path or self.doc is None:
            self.replay_status(f"{where}: opening {Path(entry.path).name} to re-run it ...")
            self.open_document(Path(entry.path))
        else:
            self.rerun()

    def rerun(self) -> None:
        """Make the logged call again on the open document (after it loaded)."""
        if self._replaying is not None and self._replaying.rendered is not None:
            self.ask(self._replaying.options)

    def compare_with_log(self, shown: Shown) -> Shown:
        """The live answer when it is the logged one; the logged one, flagged, if not."""
        entry = self._replaying
        if entry is None or entry.rendered is None or shown.options != entry.options:
            return shown
        if shown.answer == entry.rendered:
            self.replay_status(
                "re-run now: the same bytes the agent received · move OutCap to see another budget"
            )
            return shown
        self.replay_status(
            "re-run now gives a different answer than the log (another siftui or PyMuPDF?); "
            "showing the logged answer",
            warning=True,
        )
        return _logged(entry, entry.rendered)


def _logged(entry: LogEntry, answer: Rendered) -> Shown:
    prepared = prepare(answer.content, is_map=answer.map, is_grep=bool(entry.grep))
    return Shown(entry.options, answer, prepared)
