"""Re-running a logged evidence session: the same calls in a fresh session, compared byte for byte.

The log gives each evidence call its session (one MCP connection), its
arguments as sent and the result's text (or the refusal's line). When every
file the session read still has the sha256 the log recorded, its calls are
made again in order in a fresh session rooted where the agent's paths led, and
each result is compared with what the agent received. The session is made by
a :data:`RerunFactory` the CLI hands over (the server's own ``ToolHost``), so
neither this module nor the TUI imports the server.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from siftui.core.tools.table import ENTRIES, logged_as
from siftui.sources.filehash import file_sha256
from siftui.sources.log.calllog import LogEntry

RERUN_MAX_BYTES = 200_000_000
"""The largest file a re-run hashes: `siftui mcp`'s default --max-bytes (a larger file
was refused by such a server, so no session read it)."""

EVIDENCE_TOOLS = frozenset(entry.name for entry in ENTRIES if entry.logged.session)
"""The tools whose calls belong to a session, which a re-run makes again."""


@dataclass(frozen=True)
class Received:
    """What one call returned: its JSON text and image line, or the refusal's one line."""

    text: str = ""
    image: str = ""
    message: str = ""

    @classmethod
    def logged(cls, entry: LogEntry) -> Received:
        if entry.result is None:
            return cls(message=entry.message)
        return cls(entry.result.text, entry.result.image)


@dataclass(frozen=True)
class Setting:
    """How the fresh session is served: its roots (the first one for relative paths),
    OutCap (and its unit) and whether page reads carry hidden-text warnings."""

    roots: tuple[Path, ...]
    out_cap: int
    warn_hidden: bool
    unit: str = "chars"


class Rerun(Protocol):
    def call(self, tool: str, arguments: Any) -> Received: ...

    def close(self) -> None: ...


RerunFactory = Callable[[Setting], Rerun]


@dataclass(frozen=True)
class SessionRerun:
    """One logged session re-run (or why it was not): the log's call numbers (1-based, as
    the replay numbers them) and those whose bytes differ from what the agent received."""

    session: int
    numbers: tuple[int, ...]
    files: tuple[str, ...]
    refused: str = ""  # why it was not re-run; "" when it was
    differs: tuple[int, ...] = ()
    process: int | None = None  # named when the log holds sessions of several servers

    @property
    def name(self) -> str:
        if self.process is None:
            return f"session {self.session}"
        return f"session {self.session} (process {self.process})"

    @property
    def same(self) -> bool:
        return not self.refused and not self.differs

    def call_verdict(self, number: int) -> str:
        """What the re-run says of call ``number`` of this session."""
        if self.refused:
            return f"not re-run: {self.refused}"
        if number in self.differs:
            return f"the re-run differs from what the agent received ({self.name})"
        if self.differs:
            return (
                f"the re-run gives the bytes the agent received; {self.name} "
                f"first differs at call {self.differs[0]}"
            )
        return f"the re-run gives the bytes the agent received, as for all of {self.name}"

    def line(self) -> str:
        """The session's verdict in one line (``siftui log FILE --rerun``)."""
        count = len(self.numbers)
        files = ", ".join(Path(name).name for name in self.files) or "no file"
        head = f"{self.name}: {count} call{'s' if count != 1 else ''} on {files}: "
        if self.refused:
            return head + f"not re-run: {self.refused}"
        if self.differs:
            return head + (
                f"differs from what the agent received, first at call {self.differs[0]} "
                f"({len(self.differs)} of {count} calls differ)"
            )
        return head + "the re-run gives the same bytes the agent received"


SessionKey = tuple[int | None, int]
"""A session: its server's process (None in logs from before it was logged) and number."""


def sessions(entries: Iterable[LogEntry]) -> dict[SessionKey, list[tuple[int, LogEntry]]]:
    """The evidence calls of each session, with their call numbers, in the log's order."""
    found: dict[SessionKey, list[tuple[int, LogEntry]]] = {}
    for number, entry in enumerate(entries, 1):
        key = entry.session_key
        if key is not None and entry.tool in EVIDENCE_TOOLS:
            found.setdefault(key, []).append((number, entry))
    return found


def shown_process(key: SessionKey, keys: Iterable[SessionKey]) -> int | None:
    """The process a session's name says: only when the log holds several servers'."""
    return key[0] if len({process for process, _ in keys}) > 1 else None


def _root_of(requested: str, real: str) -> Path | None:
    """The folder a relative ``requested`` was resolved against to reach ``real``."""
    parts = Path(os.path.normpath(requested)).parts
    path = Path(real)
    if not parts or ".." in parts or path.parts[-len(parts) :] != parts:
        return None
    return path.parents[len(parts) - 1]


def setting_of(calls: list[tuple[int, LogEntry]]) -> Setting:
    """The roots, OutCap, unit and hidden-text warnings the logged calls show the server
    had."""
    relative: list[Path] = []
    absolute: list[Path] = []
    warn_hidden = False
    for _, entry in _reads(calls):
        if Path(entry.requested).is_absolute():
            absolute.append(Path(entry.path).parent)
        elif (root := _root_of(entry.requested, entry.path)) is not None:
            relative.append(root)
    for _, entry in calls:
        value = entry.result.text if entry.result is not None else ""
        warns = logged_as(entry.tool).hidden and '"hidden_text"' in value
        warn_hidden = warn_hidden or warns
    roots = tuple(dict.fromkeys([*relative, *absolute]))
    out_cap = calls[0][1].out_cap if calls else 0
    unit = calls[0][1].unit if calls else "chars"
    return Setting(roots, out_cap, warn_hidden, unit)


def _reads(calls: list[tuple[int, LogEntry]]) -> list[tuple[int, LogEntry]]:
    """The calls that named a file and read it (pdf_open, pdf_info): their ``path`` is the
    real one, the others' the name the document was opened by."""
    return [(n, e) for n, e in calls if e.sha256 is not None and e.requested and e.path]


def _cut(arguments: Any) -> bool:
    """Whether the log kept only the start of the arguments (siftui.sources.log.fields)."""
    return isinstance(arguments, dict) and set(arguments) == {"cut", "chars"}


def _unchanged(calls: list[tuple[int, LogEntry]]) -> str:
    """ "" when every file the session read has its logged sha256; else why not."""
    checked: dict[str, str | None] = {}
    for _, entry in _reads(calls):
        if entry.path in checked:
            continue
        try:
            info = os.stat(entry.path)
            # A log names any path: a device would be hashed forever, a FIFO wait for a
            # writer; neither was a document served, nor a file over the server's bound.
            if not stat.S_ISREG(info.st_mode) or info.st_size > RERUN_MAX_BYTES:
                return f"{entry.path} is not a document siftui served"
            checked[entry.path] = file_sha256(entry.path)
        except OSError:
            return f"{entry.path} cannot be read now"
        if checked[entry.path] != entry.sha256:
            return f"{Path(entry.path).name} changed since the calls"
    return ""


def rerun_session(
    session: int,
    calls: list[tuple[int, LogEntry]],
    factory: RerunFactory,
    process: int | None = None,
) -> SessionRerun:
    """``calls`` (one session's, in order) made again in a fresh session and compared."""
    numbers = tuple(number for number, _ in calls)
    files = tuple(dict.fromkeys(e.path for _, e in _reads(calls)))
    cut = next((number for number, e in calls if _cut(e.arguments)), None)
    refused = f"call {cut}'s arguments were too long to log whole" if cut is not None else ""
    setting = setting_of(calls)
    if not refused and not setting.roots:
        refused = "no call of the session read a file"
    refused = refused or _unchanged(calls)
    if refused:
        return SessionRerun(session, numbers, files, refused, process=process)
    try:
        fresh = factory(setting)
    except ValueError as error:  # a root that is no folder now
        return SessionRerun(session, numbers, files, str(error), process=process)
    differs: list[int] = []
    try:
        for number, entry in calls:
            arguments = entry.arguments if entry.arguments is not None else {}
            if fresh.call(entry.tool, arguments) != Received.logged(entry):
                differs.append(number)
    finally:
        fresh.close()
    return SessionRerun(session, numbers, files, differs=tuple(differs), process=process)


def rerun_all(entries: list[LogEntry], factory: RerunFactory) -> list[SessionRerun]:
    """Every evidence session of the log re-run, in the order the sessions began."""
    found = sessions(entries)
    return [
        rerun_session(key[1], calls, factory, shown_process(key, found))
        for key, calls in found.items()
    ]
