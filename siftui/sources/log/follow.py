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
from pathlib import Path

from siftui.core.messages import quoted
from siftui.sources.log.calllog import LogEntry, attach, line_error, line_read


class LogTail:
    """The entries appended to ``path`` since the last :meth:`read`."""

    def __init__(self, path: str | os.PathLike[str], offset: int = 0, line: int = 0) -> None:
        self.path = Path(path)
        self.offset = offset  # bytes of complete lines read so far
        self.line = line  # how many lines those were

    @classmethod
    def at_end(cls, path: str | os.PathLike[str]) -> LogTail:
        """A tail past the complete lines ``path`` holds now."""
        data = Path(path).read_bytes()
        end = data.rfind(b"\n") + 1
        return cls(path, end, data[:end].count(b"\n"))

    def read(self) -> tuple[list[LogEntry], list[str]]:
        """The new entries, and one line per new line that is not an entry."""
        try:
            with self.path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_size < self.offset:
                    self.offset = self.line = 0  # the log was started again
                handle.seek(self.offset)
                data = handle.read()
        except OSError:
            return [], []
        end = data.rfind(b"\n") + 1
        entries: list[LogEntry] = []
        skipped: list[str] = []
        for raw in data[:end].split(b"\n")[:-1]:
            self.line += 1
            if not raw.strip():
                continue
            try:
                read = line_read(raw)
            except ValueError as error:
                skipped.append(str(line_error(quoted(self.path), self.line, str(error))))
                continue
            if isinstance(read, LogEntry):
                entries.append(read)
            else:
                attach(entries, read)
        self.offset += end
        return entries, skipped
