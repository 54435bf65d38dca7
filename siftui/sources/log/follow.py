"""Reading a call log as the server appends to it: complete lines only, from a byte offset.

A last line without its newline is being written (or was torn): it is left for
the next read, not refused. A complete line that is not an entry is skipped
with its one-line reason, as ``read_log_skipping`` does. A later line with a
call's hidden-text findings is put in that call's entry when both are read
together; one whose call an earlier read already gave is left out (the call
stays as the agent got it: findings pending).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from siftui.core.messages import quoted
from siftui.sources.lines import MAX_LINE_BYTES, NotLines, open_regular
from siftui.sources.log.calllog import LogEntry
from siftui.sources.log.reading import attach, line_error, line_read

_BLOCK = 1 << 20


class LogTail:
    """The entries appended to ``path`` since the last :meth:`read`."""

    def __init__(self, path: str | os.PathLike[str], offset: int = 0, line: int = 0) -> None:
        self.path = Path(path)
        self.offset = offset  # bytes of complete lines read so far
        self.line = line  # how many lines those were

    @classmethod
    def at_end(cls, path: str | os.PathLike[str]) -> LogTail:
        """A tail past the complete lines ``path`` holds now (none when it is not there
        yet, or is not a regular file), counted a block at a time."""
        offset = lines = 0
        try:
            with open_regular(path) as handle:
                while block := handle.read(_BLOCK):
                    newlines = block.count(b"\n")
                    if newlines:
                        lines += newlines
                        offset = handle.tell() - len(block) + block.rfind(b"\n") + 1
        except (NotLines, OSError):
            pass
        return cls(path, offset, lines)

    def read(self) -> tuple[list[LogEntry], list[str]]:
        """The new entries, and one line per new line that is not an entry. A log not
        there yet reads as no entries (it is made at the server's first call)."""
        entries: list[LogEntry] = []
        skipped: list[str] = []
        try:
            with open_regular(self.path) as handle:
                if os.fstat(handle.fileno()).st_size < self.offset:
                    self.offset = self.line = 0  # the log was started again
                handle.seek(self.offset)
                for size, raw in _complete_lines(handle):
                    self.offset += size
                    self.line += 1
                    self._take(raw, entries, skipped)
        except (NotLines, OSError):
            pass
        return entries, skipped

    def _take(self, raw: bytes | None, entries: list[LogEntry], skipped: list[str]) -> None:
        if raw is None:
            reason = f"longer than {MAX_LINE_BYTES >> 20} MiB"
            skipped.append(str(line_error(quoted(self.path), self.line, reason)))
            return
        if not raw.strip():
            return
        try:
            read = line_read(raw)
        except ValueError as error:
            skipped.append(str(line_error(quoted(self.path), self.line, str(error))))
            return
        if isinstance(read, LogEntry):
            entries.append(read)
        else:
            attach(entries, read)


def _complete_lines(handle: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """Each complete line from the handle's position: its size in bytes (newline
    included) and its bytes, or None for a line over the cap (read in blocks and
    dropped, never held). A last line without its newline is left for the next read."""
    while True:
        line = handle.readline(MAX_LINE_BYTES + 1)
        if line.endswith(b"\n"):
            yield len(line), line
            continue
        if len(line) <= MAX_LINE_BYTES:
            return  # the end, or a torn last line
        size = len(line)
        while True:
            more = handle.readline(_BLOCK)
            size += len(more)
            if more.endswith(b"\n"):
                yield size, None
                break
            if not more:
                return  # an over-long line still being written
