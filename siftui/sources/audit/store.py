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

import json
import os
from collections.abc import Iterable, Iterator
from typing import IO, Any

from siftui.sources.audit.document import DOCUMENT_SUFFIXES, sha256_or_none


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


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a JSON Lines file; lines that are not a record are left out."""
    records: list[dict[str, Any]] = []
    with open(path, "rb") as stream:
        for line in stream:
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict) and isinstance(value.get("path"), str):
                records.append(value)
    return records


def holds_records_or_nothing(path: str) -> bool:
    """Whether ``path`` can be an audit's --out: missing, empty, or holding records."""
    try:
        return os.path.getsize(path) == 0 or bool(read_records(path))
    except OSError:  # missing (made), or a directory, unreadable: the appending says why
        return True


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
        self._stream.write(json.dumps(record, ensure_ascii=False) + "\n")
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
