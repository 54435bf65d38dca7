"""The MCP server's call log: one JSON object per call (read_pdf, read_docx), one a line.

A line records what the agent asked and exactly what it got back::

    {"time": "2025-01-31T12:00:00.123456Z", "requested": "thesis.pdf",
     "path": "/data/pdfs/thesis.pdf", "sha256": "9a1f...", "options":
     {"pages": "12-40", "grep": ""}, "out_cap": 20000, "unit": "chars", "duration_ms": 812.5,
     "error": false, "content": "--- page 12 ---...", "map": false, "first": 12,
     "last": 15, "grep_hits": 0, "note": "cut at page 15; ask for pages=\\"16-40\\""}

A failed call has ``"error": true`` and ``"message"`` (the one-line error the
agent saw) instead of the answer's fields; ``sha256`` is null when the file was
never read. ``path`` is the real path the server resolved (the name as the agent
gave it when it could not be resolved). ``unit`` is what ``out_cap`` counted
(``siftui mcp --unit``: "chars", code points, or "bytes", UTF-8); a log without it
counted code points. Readers ignore extra keys.

A call of another tool than read_pdf has ``"tool"``; read_docx's ``options`` are
``{"range", "anchor", "window", "grep", "scope"}`` (``window`` null when not
given). A PDF served has ``"unreadable"`` (its pages that could not be read, as
``[{"page": 2, "reason": "..."}]``) and ``"hidden"`` (its hidden-text findings:
``{"findings": N, "kinds": {kind: count}, "pages": [...], "alarm_pages": [...]}``,
or ``{"error": "..."}`` when the inspection failed); an answer that carried the
--warn-hidden line has ``"warning"``; a Word document the reader could not read
exactly has ``"reader_notes"`` (what `siftui render` prints as notes on stderr).
Older logs without these keys read as before.

A call answered while the hidden-text inspection still ran has ``"hidden":
{"pending": true}``; the findings follow in a later line of their own,
``{"time", "findings_of": <the call's time>, "path", "sha256", "hidden"}``
(siftui.sources.log.fields.LaterFindings), which the readers here put in the
call's entry.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from siftui.core.kinds import kind_of
from siftui.core.messages import quoted
from siftui.core.render import Options, Rendered
from siftui.core.tools.table import FIRST_LOGGED
from siftui.core.unreadable import UnreadablePage
from siftui.core.word.render import DocxOptions
from siftui.sources.lines import MAX_LINE_BYTES
from siftui.sources.log.fields import (
    DocxArgs,
    HiddenSummary,
    LaterFindings,
    ToolResult,
    docx_options,
    docx_options_dict,
    hidden_dict,
    later_dict,
    result_dict,
    unreadable_list,
)
from siftui.sources.output import encode_utf8


class LogError(Exception):
    """A call log that cannot be read; ``str(error)`` is one line naming the line."""


@dataclass(frozen=True)
class LogEntry:
    time: str  # ISO 8601, UTC
    requested: str  # the path argument as the agent gave it
    path: str  # the real path opened (or ``requested`` if it was never resolved)
    sha256: str | None  # of the file's bytes; None when the file was not read
    pages: str
    grep: str
    out_cap: int
    duration_ms: float
    rendered: Rendered | None  # what the agent received; None for a failed call
    message: str = ""  # the error the agent received, for a failed call
    tool: str = FIRST_LOGGED  # the tool the agent called ("" when the request was unreadable)
    docx: DocxArgs | None = None  # read_docx's other options
    unreadable: tuple[UnreadablePage, ...] | None = None  # of a PDF served
    hidden: HiddenSummary | None = None  # the hidden-text findings of a PDF served
    warning: str = ""  # the --warn-hidden line the agent received
    reader_notes: tuple[str, ...] = ()  # what the Word reader could not read exactly
    session: int | None = None  # the connection's number (one MCP connection: one session)
    arguments: Any = None  # as sent, bounded (fields.logged_arguments)
    result: ToolResult | None = None  # an evidence tool's JSON as the agent received it
    unit: str = "chars"  # what out_cap counted: "chars" (code points) or "bytes" (UTF-8)
    process: int | None = None  # the server process's id: with session, tells a session

    @property
    def session_key(self) -> tuple[int | None, int] | None:
        """The session this call belongs to, told by its server process and connection
        (sessions of servers that share a log are numbered alike); None for none."""
        return None if self.session is None else (self.process, self.session)

    @property
    def error(self) -> bool:
        return self.rendered is None and self.result is None

    @property
    def received(self) -> Rendered | None:
        """What the agent received as one answer: a read tool's, or another tool's result
        text as it was sent (an evidence tool's JSON); None for a failed call."""
        if self.rendered is not None or self.result is None:
            return self.rendered
        return Rendered(self.result.text, False, 0, 0, 0, "")

    @property
    def request_text(self) -> str:
        """The call as the agent made it, for a tool other than the read tools."""
        shown = json.dumps(self.arguments, ensure_ascii=False) if self.arguments else "{}"
        return f"{self.tool} {shown}"

    @property
    def described(self) -> str:
        """The call in the words of the replay and the report: a read tool's options as
        it read them (`pages="3-5"`), a failed call's arguments as sent (`{"pages": 5}`:
        a refused call's options were never read), another tool's call as made."""
        if self.result is not None:
            return self.request_text
        sent = self.arguments
        if self.error and sent is not None:
            rest = (
                {k: v for k, v in sent.items() if k != "path"} if isinstance(sent, dict) else sent
            )
            if rest:
                return json.dumps(rest, ensure_ascii=False)
        options = self.call_options
        return kind_of(options).describe(options)

    @property
    def options(self) -> Options:
        return Options(pages=self.pages, grep=self.grep, out_cap=self.out_cap, unit=self.unit)

    @property
    def call_options(self) -> Options | DocxOptions:
        """The options of the call as the tool read them: read_docx's for a Word call."""
        if self.docx is None:
            return self.options
        return docx_options(self.docx, self.grep, self.out_cap, self.unit)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def entry_to_dict(entry: LogEntry) -> dict[str, Any]:
    data: dict[str, Any] = {
        "time": entry.time,
        "requested": entry.requested,
        "path": entry.path,
        "sha256": entry.sha256,
        "options": (
            {"pages": entry.pages, "grep": entry.grep}
            if entry.docx is None
            else docx_options_dict(entry.docx, entry.grep)
        ),
        "out_cap": entry.out_cap,
        "unit": entry.unit,
        "duration_ms": entry.duration_ms,
        "error": entry.error,
    }
    if entry.tool != FIRST_LOGGED:
        data["tool"] = entry.tool
    if entry.session is not None:
        data["session"] = entry.session
    if entry.process is not None:
        data["process"] = entry.process
    if entry.arguments is not None:
        data["arguments"] = entry.arguments
    if entry.result is not None:
        data["result"] = result_dict(entry.result)
    elif entry.rendered is None:
        data["message"] = entry.message
    else:
        answer = entry.rendered
        data.update(
            content=answer.content,
            map=answer.map,
            first=answer.first,
            last=answer.last,
            grep_hits=answer.grep_hits,
            note=answer.note,
        )
        if entry.warning:
            data["warning"] = entry.warning
    if entry.unreadable is not None:
        data["unreadable"] = unreadable_list(entry.unreadable)
    if entry.hidden is not None:
        data["hidden"] = hidden_dict(entry.hidden)
    if entry.reader_notes:
        data["reader_notes"] = list(entry.reader_notes)
    return data


def entry_to_line(entry: LogEntry) -> str:
    """One JSON Lines line (with its newline); never holds a raw newline inside."""
    return json.dumps(entry_to_dict(entry), ensure_ascii=False) + "\n"


_LINES_LOOKED_AT = 8
"""How many lines of an existing file are read to tell a call log (a torn one or two
at its start, a crash's, do not make a log no log)."""


def _takes_calls(fd: int, path: Path) -> bool:
    """Whether the file open for appending at ``fd`` may take the calls: no regular file (a
    device, a FIFO), empty, or a call log (one of its first lines is a call's or a later
    line's, each read up to the longest line a log's reader reads). Any other file would
    get JSON appended to it: one that was a document, lost."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return True
    from siftui.sources.log.reading import line_read  # it imports this module

    with open(path, "rb") as handle:  # the log's own descriptor only appends
        for _ in range(_LINES_LOOKED_AT):
            line = handle.readline(MAX_LINE_BYTES + 1)
            if len(line) > MAX_LINE_BYTES or not line:  # longer than any log's line, or the end
                return False
            if not line.strip():
                continue
            try:
                line_read(line.rstrip(b"\n"))
            except (ValueError, LogError):
                continue
            return True
    return False


class CallLog:
    """Appends entries to a JSON Lines file, one ``write()`` a line; thread-safe.

    The file is created readable by its owner only (it holds document text).
    A line that cannot be written (a full disk) costs that line, never the
    call: the first failure is reported once on stderr, later ones silently,
    and the next line that gets through starts on a fresh line, so a torn
    line stays one bad line that readers skip.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC | os.O_NONBLOCK
        # O_NONBLOCK: a FIFO nobody reads is an error now, not a server stuck at start.
        self._fd = os.open(self.path, flags, 0o600)
        try:
            if not _takes_calls(self._fd, self.path):  # a PDF given by mistake, say
                raise FileExistsError(errno.EEXIST, "holds no call log; not appended to", path)
        except BaseException:
            os.close(self._fd)
            raise
        os.set_blocking(self._fd, True)
        self._torn = False
        self.failures = 0

    def append(self, entry: LogEntry | LaterFindings) -> None:
        if isinstance(entry, LaterFindings):
            data = encode_utf8(json.dumps(later_dict(entry), ensure_ascii=False) + "\n")
        else:
            data = encode_utf8(entry_to_line(entry))
        with self._lock:
            if self._fd < 0:
                return
            if self._torn:
                data = b"\n" + data
            try:
                view = memoryview(data)
                while view:
                    written = os.write(self._fd, view)
                    self._torn = True
                    view = view[written:]
                self._torn = False
            except OSError as error:
                self.failures += 1
                if self.failures == 1:
                    print(
                        f"siftui mcp: cannot write the call log {quoted(self.path)}: "
                        f"{error.strerror or error}; serving on without it",
                        file=sys.stderr,
                        flush=True,
                    )

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
