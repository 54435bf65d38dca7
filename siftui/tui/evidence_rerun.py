"""A logged evidence call chosen in the replay: its session re-run, and the verdict said.

The session's calls are made again in a fresh session (siftui.sources.log.rerun,
through the factory the CLI hands over) in a worker, once per session and per
number of its calls logged (a followed log may add calls to it); the status line
then says whether this call, and the session, gave the bytes the agent received.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.timer import Timer

from siftui.sources.errors import report_unexpected
from siftui.tui.display import plural

if TYPE_CHECKING:  # the log's modules are a replay's: not loaded before a first answer
    from siftui.sources.log.calllog import LogEntry
    from siftui.sources.log.follow import LogTail
    from siftui.sources.log.rerun import RerunFactory, SessionKey, SessionRerun


@dataclass(frozen=True)
class LogReplay:
    """What a replay is given: the log's calls, its tail to follow (and whether to follow
    it at once), and how to re-run an evidence session (None: not re-run)."""

    entries: list[LogEntry]
    tail: LogTail | None = None
    follow: bool = False
    rerun: RerunFactory | None = None


RERUN_AFTER = 0.8
"""Seconds a chosen call stands before its session is re-run: a followed agent's calls
come in bursts, and re-running the whole session at each would slow the view down."""

Say = Callable[[str, bool], None]  # the status line's text, and whether it is a warning
NumberedCalls = list[tuple[int, "LogEntry"]]
RerunBegun = tuple["SessionKey", int, int | None]
"""A re-run begun: its session, how many calls it had, the process its name says."""


class SessionReruns:
    def __init__(self, app: App[Any], factory: RerunFactory | None) -> None:
        self.app = app
        self.factory = factory
        # session (its process and number) -> (its calls, verdict)
        self._done: dict[SessionKey, tuple[int, SessionRerun]] = {}
        self._running: set[RerunBegun] = set()
        self._wanted: tuple[SessionKey, int] | None = None  # the call whose verdict is awaited
        self._timer: Timer | None = None

    def applies(self, entry: LogEntry) -> bool:
        from siftui.sources.log.rerun import EVIDENCE_TOOLS

        return entry.tool in EVIDENCE_TOOLS and entry.session is not None

    def verdict(self, entries: list[LogEntry], number: int, say: Say) -> None:
        """Say what re-running call ``number``'s session gives (at once when known)."""
        from siftui.sources.log.rerun import sessions, shown_process

        entry = entries[number - 1]
        if self.factory is None or entry.session is None:
            say("an evidence call; showing the logged result", True)
            return
        found = sessions(entries)
        session = entry.session_key
        assert session is not None
        calls = found.get(session, [])
        key = (session, len(calls), shown_process(session, found))
        self._wanted = (session, number)
        known = self._done.get(session)
        if known is not None and known[0] == len(calls):
            self._say(known[1], number, say)
            return
        say(f"re-running session {entry.session} ({plural(len(calls), 'call')}) afresh ...", False)
        if key not in self._running:
            self._timer = self.app.set_timer(RERUN_AFTER, lambda: self._start(calls, key, say))

    def _start(self, calls: NumberedCalls, key: RerunBegun, say: Say) -> None:
        self._timer = None
        factory = self.factory
        if factory is None or key in self._running:
            return
        self._running.add(key)

        from siftui.sources.log.rerun import SessionRerun, rerun_session

        def work() -> None:
            try:
                found = rerun_session(key[0][1], calls, factory, key[2])
            except Exception as error:  # one line for the user, the traceback logged
                message = report_unexpected(error, "re-running an evidence session")
                found = SessionRerun(key[0][1], (), (), message, process=key[2])
            self.app.call_from_thread(done, found)

        def done(found: SessionRerun) -> None:
            self._running.discard(key)
            self._done[key[0]] = (key[1], found)
            if self._wanted is not None and self._wanted[0] == key[0]:
                self._say(found, self._wanted[1], say)

        self.app.run_worker(work, thread=True, group="rerun", description="re-run a session")

    def forget(self) -> None:
        """Another call was chosen: a verdict still coming is not said over its status,
        and a re-run not begun yet is not begun."""
        self._wanted = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    @staticmethod
    def _say(found: SessionRerun, number: int, say: Say) -> None:
        say(found.call_verdict(number), not found.same)
