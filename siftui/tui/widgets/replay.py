"""Replaying an MCP call log: how a replayed call compares, and the call list's messages.

The call list itself (siftui.tui.widgets.call_list, a DataTable) is imported only
when a log is replayed: a document's start does not pay for it. Highlighting a
row posts :class:`CallChosen`; the list then checks the logged file in its own
worker and posts :class:`CallChecked` with the file's hash now (None when it
cannot be read). The app does the rest: it shows the logged answer at once, and
makes the same call again on the live document when the file is unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from siftui.core.terminal import escape_lines

if TYPE_CHECKING:
    from siftui.sources.log.calllog import LogEntry


class CallChosen(Message):
    """A call of the log was highlighted: the app shows its logged answer."""

    def __init__(self, entry: LogEntry, number: int) -> None:
        super().__init__()
        self.entry = entry
        self.number = number


class CallChecked(Message):
    """The chosen call's file was hashed (``digest`` None: it cannot be read)."""

    def __init__(self, entry: LogEntry, number: int, digest: str | None) -> None:
        super().__init__()
        self.entry = entry
        self.number = number
        self.digest = digest


class LogFollowed(Message):
    """New calls were read from the followed log (or following was switched)."""

    def __init__(self, added: int, following: bool, skipped: list[str]) -> None:
        super().__init__()
        self.added = added
        self.following = following
        self.skipped = skipped


class ReplaySaid(Message):
    """What the status line says of the replayed call (``warning``: it is flagged)."""

    def __init__(self, message: str, warning: bool) -> None:
        super().__init__()
        self.message = message
        self.warning = warning


class CallWanted(Message):
    """Call ``number`` (1-based) of the log is asked for (the report's choice)."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number


class ReplayStatus(Static):
    """One line: how the replayed call compares with what the agent received."""

    message: reactive[str] = reactive("", init=False)
    warning: reactive[bool] = reactive(False, init=False)
    said: reactive[tuple[str, bool]] = reactive(("", False), init=False)
    """What the line says and whether it is flagged (the app's, bound: the newest
    :class:`ReplaySaid`)."""

    def watch_said(self, said: tuple[str, bool]) -> None:
        self.message, self.warning = said

    def watch_message(self, message: str) -> None:
        self.update(escape_lines(message))  # it quotes a log's paths, options and errors
        self.display = bool(message)

    def watch_warning(self, warning: bool) -> None:
        self.set_class(warning, "warning")
