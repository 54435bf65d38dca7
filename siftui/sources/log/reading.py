"""Reading the MCP server's call log (siftui.sources.log.calllog describes its lines):
a log read whole, one line read as the follower reads it, and a later line's findings
put in the call they belong to. A line that is not an entry is one :class:`LogError`
line naming it, or skipped with that line."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from siftui.core.json_text import json_value
from siftui.core.messages import quoted
from siftui.core.render import Rendered
from siftui.core.tools.table import FIRST_LOGGED, logged_as
from siftui.sources.lines import NotLines, TooLong, bounded_lines, open_regular
from siftui.sources.log.calllog import LogEntry, LogError
from siftui.sources.log.fields import (
    LaterFindings,
    docx_args_of,
    hidden_of,
    later_of,
    result_of,
    unreadable_of,
)


def line_error(where: str, line: int, reason: str) -> LogError:
    return LogError(f"{where}: line {line}: {reason}")


def _take(data: dict[str, Any], key: str, kind: type, what: str) -> Any:
    if key not in data:
        raise ValueError(f'key "{key}": missing')
    value = data[key]
    # JSON true/false are Python bools, and bool is a subclass of int: keep them apart.
    if kind is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if not ok:
        raise ValueError(f'key "{key}": expected {what}')
    return value


def entry_from_dict(data: Any) -> LogEntry:
    """A :class:`LogEntry` from one parsed line; ValueError names the first wrong key."""
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    options = _take(data, "options", dict, "an object")
    pages = _take(options, "pages", str, "a string") if "pages" in options else ""
    grep = _take(options, "grep", str, "a string") if "grep" in options else ""
    sha = data.get("sha256")
    if sha is not None and not isinstance(sha, str):
        raise ValueError('key "sha256": expected a string or null')
    failed = _take(data, "error", bool, "true or false")
    rendered: Rendered | None = None
    result = result_of(data["result"]) if "result" in data else None
    session = data.get("session")
    if session is not None and (not isinstance(session, int) or isinstance(session, bool)):
        raise ValueError('key "session": expected a whole number')
    process = data.get("process")
    if process is not None and (not isinstance(process, int) or isinstance(process, bool)):
        raise ValueError('key "process": expected a whole number')
    message = ""
    if failed:
        message = _take(data, "message", str, "a string")
    elif result is None:
        rendered = Rendered(
            content=_take(data, "content", str, "a string"),
            map=_take(data, "map", bool, "true or false"),
            first=_take(data, "first", int, "a whole number"),
            last=_take(data, "last", int, "a whole number"),
            grep_hits=_take(data, "grep_hits", int, "a whole number"),
            note=_take(data, "note", str, "a string"),
        )
    path = _take(data, "path", str, "a string")
    tool = data["tool"] if isinstance(data.get("tool"), str) else FIRST_LOGGED
    warning = data.get("warning", "")
    if not isinstance(warning, str):
        raise ValueError('key "warning": expected a string')
    unit = data.get("unit", "chars")
    if unit not in ("chars", "bytes"):
        raise ValueError('key "unit": expected "chars" or "bytes"')
    notes = data.get("reader_notes", [])
    if not isinstance(notes, list) or not all(isinstance(note, str) for note in notes):
        raise ValueError('key "reader_notes": expected a list of strings')
    return LogEntry(
        time=_take(data, "time", str, "a string"),
        requested=data["requested"] if isinstance(data.get("requested"), str) else path,
        path=path,
        sha256=sha,
        pages=pages,
        grep=grep,
        out_cap=_take(data, "out_cap", int, "a whole number"),
        duration_ms=float(_take(data, "duration_ms", float, "a number")),
        rendered=rendered,
        message=message,
        tool=tool,
        docx=docx_args_of(options) if logged_as(tool).stories else None,
        unreadable=unreadable_of(data["unreadable"]) if "unreadable" in data else None,
        hidden=hidden_of(data["hidden"]) if "hidden" in data else None,
        warning=warning,
        reader_notes=tuple(notes),
        session=session,
        arguments=data.get("arguments"),
        result=result,
        unit=unit,
        process=process,
    )


def read_log(path: str | os.PathLike[str]) -> list[LogEntry]:
    """Every entry of a call log, in order. Empty lines are skipped.

    Raises :class:`LogError` with a one-line message (naming the line number for
    a malformed line) when the file cannot be read or a line is not an entry.
    """
    entries, skipped = read_log_skipping(path)
    if skipped:
        raise LogError(skipped[0])
    return entries


def read_log_skipping(path: str | os.PathLike[str]) -> tuple[list[LogEntry], list[str]]:
    """The entries of a call log, and one line per line that is not an entry (a torn
    line from a full disk, say), naming it: those are skipped, not fatal.

    Raises :class:`LogError` only when the file cannot be read at all.
    """
    where = quoted(path)
    try:
        handle = open_regular(path)
    except NotLines as error:
        raise LogError(str(error)) from None
    entries: list[LogEntry] = []
    skipped: list[str] = []
    with handle:
        try:
            for number, line in enumerate(bounded_lines(handle), start=1):
                _read_line(where, number, line, entries, skipped)
        except OSError as error:
            raise LogError(f"{where}: {error.strerror or error}") from None
    return entries, skipped


def _read_line(
    where: str, number: int, line: bytes | TooLong, entries: list[LogEntry], skipped: list[str]
) -> None:
    """One line of a log read whole: its entry, its later findings, or why it is skipped."""
    if isinstance(line, TooLong):
        skipped.append(str(line_error(where, number, str(line))))
        return
    if not line.strip():
        return
    try:
        read = line_read(line)
    except ValueError as error:
        skipped.append(str(line_error(where, number, str(error))))
        return
    if isinstance(read, LogEntry):
        entries.append(read)
    elif not attach(entries, read):
        skipped.append(str(line_error(where, number, "findings of a call not in the log")))


def attach(entries: list[LogEntry], later: LaterFindings) -> bool:
    """Put ``later``'s findings in the call they belong to (the last entry logged at its
    time on its path, answered while they were pending); whether there was one."""
    for at in range(len(entries) - 1, -1, -1):
        entry = entries[at]
        if entry.time == later.of and entry.path == later.path:
            if entry.hidden is None or not entry.hidden.pending:
                return False
            entries[at] = replace(entry, hidden=later.hidden)
            return True
    return False


def line_read(line: bytes) -> LogEntry | LaterFindings:
    """A line of the log: a call's entry, or a later line with a call's findings."""
    data = _line_data(line)
    later = later_of(data)
    return later if later is not None else entry_from_dict(data)


def entry_of_line(line: bytes) -> LogEntry:
    return entry_from_dict(_line_data(line))


def _line_data(line: bytes) -> Any:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    return json_value(text)
