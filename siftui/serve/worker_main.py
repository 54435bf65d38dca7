"""The worker process's side of siftui.serve.worker: what runs in the plain
``python -S -c`` child that reads one file (its protocol is described there).

At start it asks the kernel to kill it when the server dies (``PR_SET_PDEATHSIG``)
and caps its address space (``RLIMIT_AS``); it reads the file's bytes from the
descriptor it was handed, hashes exactly those bytes, and reads them
(siftui.serve.worker_read) or runs an evidence tool's task on them
(siftui.serve.worker_evidence).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sys
import time
from typing import Any

from siftui.core.messages import one_line, quoted
from siftui.sources.helper import progress_sender, receive, send

# How MuPDF reports an allocation refused by RLIMIT_AS ("realloc (190824768 bytes) failed").
_OUT_OF_MEMORY = re.compile(r"\b(?:m|re|c)?alloc\b.*\bfailed|out of memory", re.IGNORECASE)
PR_SET_PDEATHSIG = 1
PROGRESS_SECONDS = 0.5
"""At most one progress message per this many seconds (and the last page's always)."""


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the server died before the line above ran
        os._exit(1)


def _read_all(fd: int, max_bytes: int) -> bytes:
    """The file's bytes from offset 0, at most ``max_bytes`` + 1 (more means too large)."""
    parts: list[bytes] = []
    got = 0
    while got <= max_bytes:
        chunk = os.pread(fd, min(1 << 20, max_bytes + 1 - got), got)
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def main(argv: list[str]) -> None:
    """The worker: ``argv`` is the socket's descriptor, the server's pid, the file's
    descriptor (-1: a spare, handed it later) and the address-space limit in bytes
    (0: none)."""
    sock_fd, parent, file_fd, memory = (int(value) for value in argv)
    _die_with_parent(parent)
    if memory > 0:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sock = socket.socket(fileno=sock_fd)
    if file_fd < 0:
        file_fd = _spare_until_handed(sock)
        if file_fd < 0:  # let go unused
            sock.close()
            return
    sha256: str | None = None
    name = "?"
    try:
        request = receive(sock, None)
        name, kind, max_bytes, max_runes, seconds, inspect_hidden, inspect_seconds = request[:7]
        answering, unlock = request[7:]
        deadline = time.monotonic() + seconds
        data = _read_all(file_fd, max_bytes)
        os.close(file_fd)
        import hashlib

        sha256 = hashlib.sha256(data).hexdigest()
        # The person's password opens only the very bytes they unlocked in the reader.
        password = unlock.password_for(sha256) if unlock is not None else None
        if not isinstance(kind, str):  # an evidence tool's task, not a document to read
            send(sock, _task(name, kind, data, sha256, max_bytes, memory, password))
            return
        if len(data) > max_bytes:
            raise _Refusal(f"{quoted(name)}: over this server's limit of {max_bytes:,} bytes")
        if not data:
            raise _Refusal(f"{quoted(name)}: empty file, not a document")
        _refuse_the_other_kind(name, kind, data)
        from siftui.serve.worker_read import (
            inspect,
            known_findings,
            read_document,
            read_range_first,
            runes_of,
        )

        if answering is not None:  # a first range: its pages now, the whole document next
            first = read_range_first(name, kind, data, sha256, answering, deadline, password)
            if first is not None:
                send(sock, ("range", first, sha256))
        sender = progress_sender(sock, PROGRESS_SECONDS)
        read = read_document(name, kind, data, deadline, sender, password)
        runes = runes_of(read.doc)
        if runes > max_runes:
            raise _Refusal(
                f"{quoted(name)}: {runes:,} characters of text, over this server's limit "
                f"of {max_runes:,}"
            )
        if not (read.inspectable and inspect_hidden):
            send(sock, ("ok", read, sha256))
            return
        skip = frozenset(item.page for item in read.unreadable)
        known = known_findings(sha256, skip)
        if known is not None:  # inspected before: the answer carries the findings
            from dataclasses import replace

            send(sock, ("ok", replace(read, inspection=known), sha256))
            return
        # The answer first: an inspection that fails, or kills this process, costs
        # the findings only.
        send(sock, ("extracted", read, sha256))
        found, why = inspect(name, data, sha256, inspect_seconds, skip, password)
        del data
        send(sock, ("inspected", found, why))
    except _Refusal as refusal:
        send(sock, ("error", str(refusal), sha256))
    except MemoryError:
        send(sock, ("error", _memory_message(name, memory), sha256))
    except Exception as error:
        from siftui.sources.load import LoadError

        if isinstance(error, LoadError):
            message = str(error)
        else:
            message = f"{quoted(name)}: extraction failed: {one_line(error)}"
        if memory > 0 and _OUT_OF_MEMORY.search(message):
            message = _memory_message(name, memory)
        send(sock, ("error", message, sha256))
    finally:
        sock.close()


def _refuse_the_other_kind(name: str, kind: str, data: bytes) -> None:
    """A Word document asked for as a PDF is refused, told apart as `siftui render` tells
    them apart: by these bytes (siftui.sources.kinds), whatever the name says. MuPDF
    would read a Word package too, and its text is not what read_docx answers. A PDF
    asked for as Word is named so the agent picks the other tool (the Word reader would
    say only that it is no ZIP package)."""
    import io
    import zipfile

    from siftui.core.kinds import kind_named
    from siftui.sources.kinds import claimed_kind

    asked = kind_named(kind)
    claimed = claimed_kind(name, data, lambda: zipfile.ZipFile(io.BytesIO(data)))
    if asked is not None and claimed is not None and claimed is not asked:
        raise _Refusal(f"{quoted(name)}: {claimed.noun}; read it with {claimed.read_tool}")


def _spare_until_handed(sock: socket.socket) -> int:
    """A spare worker's wait: MuPDF and the tasks are imported while no call waits,
    then the server hands over the file's descriptor (-1: it never did)."""
    from siftui.serve import worker_evidence  # noqa: F401 (unpickling a task needs it)
    from siftui.sources.pdf_open import quiet_pymupdf

    quiet_pymupdf()
    try:
        _, fds, _, _ = socket.recv_fds(sock, 1, 1)
    except OSError:
        return -1
    return fds[0] if fds else -1


def _memory_message(name: str, memory: int, doing: str = "extraction") -> str:
    return f"{quoted(name)}: {doing} needed more than this server's {memory:,} bytes of memory"


def _task(
    name: str,
    task: Any,
    data: bytes,
    sha256: str,
    max_bytes: int,
    memory: int,
    password: str | None,
) -> Any:
    """The message answering a task of siftui.serve.worker_evidence (run with the
    ``password`` of these bytes, if the person gave one): its refusals are the words the
    tool says (EvidenceError's), as when the server ran it itself."""
    from siftui.core.evidence.errors import EvidenceError

    if len(data) > max_bytes:
        return ("error", f"the file is over the server's limit of {max_bytes:,} bytes", sha256)
    try:
        return ("ok", (len(data), task.run(name, data, password)), sha256)
    except MemoryError:
        return ("error", _memory_message(name, memory, task.doing), sha256)
    except EvidenceError as error:
        message = error.message
    except Exception as error:  # MuPDF's surprises (a RecursionError on a deep outline)
        message = f"{quoted(name)}: {task.doing} failed: {one_line(error)}"
    if memory > 0 and _OUT_OF_MEMORY.search(message):
        message = _memory_message(name, memory, task.doing)
    return ("error", message, sha256)


class _Refusal(Exception):
    pass
