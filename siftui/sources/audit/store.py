"""The documents of an audit and its JSON Lines file.

:func:`documents` lists the documents under the paths given (a file named on
the command line always counts; in a directory, the names ending in a
document suffix), sorted, following symbolic links to directories once each
(a link back up the tree is not walked twice). :class:`Records` reads an
existing file first (a last line cut by an interruption is dropped), says
which documents it holds already (the same path and sha256), and appends
records one line at a time, flushed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO, Any

from siftui.core.json_text import json_line, json_or_none
from siftui.core.kinds import DOCUMENT_SUFFIXES
from siftui.core.messages import quoted
from siftui.sources.audit.document import sha256_or_none
from siftui.sources.lines import NotLines, TooLong, bounded_lines, open_regular


def documents(paths: Iterable[str]) -> Iterator[str]:
    """Each document under ``paths``, once per path, directories in sorted order."""
    seen: set[tuple[int, int]] = set()
    for path in paths:
        if os.path.isdir(path):
            yield from _walk(path, seen)
        else:
            yield path


def _walk(top: str, seen: set[tuple[int, int]]) -> Iterator[str]:
    try:
        info = os.stat(top)
    except OSError:
        return
    if (info.st_dev, info.st_ino) in seen:
        return
    seen.add((info.st_dev, info.st_ino))
    try:
        with os.scandir(top) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        path = os.path.join(top, entry.name)
        try:
            is_dir = entry.is_dir()  # follows links
        except OSError:
            is_dir = False
        if is_dir:
            yield from _walk(path, seen)
        elif entry.name.lower().endswith(DOCUMENT_SUFFIXES):
            yield path


def is_record(value: Any) -> bool:
    """Whether a JSON value is an audit record (siftui.sources.audit.document's): every
    record's keys with their types, and an audited document's or a refusal's own. A
    call log's line (a "path", "sha256" and a boolean "error") is no record."""
    if not isinstance(value, dict) or not isinstance(value.get("path"), str):
        return False
    if not all(key in value and _typed(value[key], kind) for key, kind in _EVERY_RECORD):
        return False
    done = all(key in value and _typed(value[key], kind) for key, kind in _AUDITED)
    return done or all(key in value and _typed(value[key], kind) for key, kind in _REFUSED)


def _typed(value: Any, kind: tuple[type, ...]) -> bool:
    return isinstance(value, kind) and not (isinstance(value, bool) and bool not in kind)


_EVERY_RECORD = (("size", (int, type(None))), ("sha256", (str, type(None))))
_AUDITED = (
    ("kind", (str,)),
    ("runes", (int,)),
    ("out_cap", (int,)),
    ("first_call", (str,)),
    ("calls", (int,)),
    ("seconds", (int, float)),
)
_REFUSED = (("error", (str,)), ("error_kind", (str,)))


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of an audit file; lines that are not a record are left out.
    :class:`NotLines` for a path that is not a regular file (a link to a device,
    a FIFO), read a line at a time, each bounded."""
    records: list[dict[str, Any]] = []
    with open_regular(path) as stream:
        for line in bounded_lines(stream):
            if isinstance(line, TooLong):
                continue
            value = json_or_none(line)
            if is_record(value):
                records.append(value)
    return records


def why_not_appendable(path: str) -> str | None:
    """Why ``path`` cannot be an audit's --out, in one line, or None when it can: missing
    (made by the first record), empty, or a regular file holding records. A directory, a
    FIFO, a device or a dangling link is refused as :func:`read_records` refuses it (a
    device's size is 0, which once let /dev/null through to a traceback, and a FIFO to
    Python's own "not seekable"); a file holding no record is never appended to."""
    if not os.path.lexists(path):
        return None
    try:
        if read_records(path) or os.path.getsize(path) == 0:
            return None
    except NotLines as error:
        return str(error)
    return f"{quoted(path)}: holds no audit records; not appended to"


class Records:
    """The --out file: what it holds already, and new records appended to it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.done: dict[str, set[str | None]] = {}
        self.records: list[dict[str, Any]] = []
        if os.path.exists(path):
            _drop_cut_line(path)
            self.records = read_records(path)
        for record in self.records:
            self.done.setdefault(record["path"], set()).add(record.get("sha256"))
        self._stream: IO[str] | None = None

    def holds(self, path: str) -> bool:
        """Whether a record of this path, with the file's sha256 now, is there already."""
        hashes = self.done.get(path)
        return hashes is not None and sha256_or_none(path) in hashes

    def append(self, record: dict[str, Any]) -> None:
        if self._stream is None:
            self._stream = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        self._stream.write(json_line(record) + "\n")
        self._stream.flush()
        self.records.append(record)

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None


def _drop_cut_line(path: str) -> None:
    """Cut a last line without its newline (a write interrupted), so appends start clean."""
    with open(path, "rb+") as stream:
        stream.seek(0, os.SEEK_END)
        size = stream.tell()
        if size == 0:
            return
        stream.seek(size - 1)
        if stream.read(1) == b"\n":
            return
        end = size
        while end > 0:  # back, a block at a time, to the last newline
            start = max(0, end - (1 << 16))
            stream.seek(start)
            cut = stream.read(end - start).rfind(b"\n")
            if cut >= 0:
                stream.truncate(start + cut + 1)
                return
            end = start
        stream.truncate(0)
