"""Text files people name on the command line (call logs, audit files, session
scripts), read without trusting them: only a regular file, line by line, each
line bounded.

A name can lead anywhere: a link to ``/dev/zero`` is endless with no newline, a
FIFO blocks an open until somebody writes, and a file of one 20 GB line would be
read whole before the first check. So a file is opened without blocking, refused
unless it is a regular file, and read a line at a time, a line longer than
:data:`MAX_LINE_BYTES` being skipped (its bytes read and dropped in blocks) with
its number, never held.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

from siftui.core.messages import file_error, quoted

MAX_LINE_BYTES = 64 << 20
"""The longest line read (64 MiB): a log line holds one answer, and answers over
it are beyond any agent's budget; a longer line is skipped, named."""

_BLOCK = 1 << 20


class NotLines(ValueError):
    """A named file that cannot be read as lines; ``str(error)`` is the one line to show."""


class TooLong:
    """A line over :data:`MAX_LINE_BYTES`, skipped: what :func:`bounded_lines` yields for it."""

    def __str__(self) -> str:
        return f"longer than {MAX_LINE_BYTES >> 20} MiB"


TOO_LONG = TooLong()


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading if it is a regular file, else :class:`NotLines`.

    Opened with O_NONBLOCK, so that a FIFO is refused instead of waited on.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise NotLines(file_error(path, error)) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise NotLines(f"{quoted(path)}: {what}")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def bounded_lines(handle: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | TooLong]:
    """Each line of ``handle`` without its newline (a last line without one too), or
    :data:`TOO_LONG` for a line over ``limit`` bytes, whose bytes are dropped."""
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) <= limit:
            yield line  # the last line, without its newline
        else:
            while line and not line.endswith(b"\n"):  # drop the rest of it
                line = handle.readline(_BLOCK)
            yield TOO_LONG
