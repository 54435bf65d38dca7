"""Parallel extraction: helper processes that each open the file and extract chunks of pages.

The scheduler (:func:`share_chunks`, this process) and the helper's loop
(:func:`serve_chunks`) also serve the hidden-text inspection (siftui.sources.hidden.document),
whose chunks carry findings instead of texts.

The protocol, between this process and a helper, over a socket pair:
to the helper (path, password, extracted) and then chunks (start, end, xrefs) (a negative
start: stop), ``xrefs`` the object numbers of the chunk's pages in this process (or None);
from the helper ("ready",), ("pages", start, texts, failed) per chunk, or ("error", kind, message),
where ``failed`` lists (page, reason) for the chunk's pages MuPDF could not read (their text is "").
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from siftui.core.messages import one_line, quoted
from siftui.sources.deadline import Deadline
from siftui.sources.helper import Helper, readable, receive, send, start_python_helper
from siftui.sources.page_walk import PageWalk, page_xrefs
from siftui.sources.pdf_open import (
    ExtractError,
    NeedsPassword,
    NoPages,
    NotAFile,
    NotFound,
    NotReadable,
    PageProgress,
    WrongPassword,
    open_document,
    read_outline,
    read_page,
)

CHUNK_PAGES = 16
"""Pages a process claims at a time: small enough to balance uneven pages (a
straggling chunk costs ~30 ms), large enough that claiming costs nothing."""

TAIL_CHUNK_PAGES = 2
"""The smallest chunk: towards the end a chunk is a quarter of the pages left per
process (never under this), so that the processes finish together. With chunks of 16
to the end, this process ran out of pages while a helper still held one chunk and had
the next queued: ~40 ms of pgfmanual's ~1.4 s on one core only."""

MAX_WORKERS = 4

Opening = tuple[str, str | None, int]
"""What a helper is sent first: the file's path, its password and the pages to share."""


def default_workers() -> int:
    """Processes extracting at once (the calling one included): the usable cores, 1..4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def may_start_processes() -> bool:
    # A daemonic multiprocessing process may not have children;
    # it is bounded by its parent already: stay in one process there.
    # Such a process has imported multiprocessing; no other need pay for its import.
    multiprocessing = sys.modules.get("multiprocessing")
    return multiprocessing is None or not multiprocessing.current_process().daemon


_HELPER_CODE = (
    "import sys; from siftui.sources.parallel import helper_main; helper_main(int(sys.argv[1]))"
)


def _start_helper() -> Helper:
    """An extraction helper (:func:`helper_main`) and this process's end of the pair to it."""
    return start_python_helper(_HELPER_CODE)


def helper_main(fd: int) -> None:
    """An extraction helper: each chunk's texts and the pages it could not read
    (see :func:`serve_chunks`)."""
    walk: PageWalk | None = None

    def chunk(
        document: Any, path: str, start: int, end: int, xrefs: tuple[int, ...] | None = None
    ) -> tuple[Any, ...]:
        nonlocal walk
        if walk is None:
            walk = PageWalk(document)
        texts: list[str] = []
        failed: list[tuple[int, str]] = []
        for number in range(start, end):
            text, reason = walk.read(number, None if xrefs is None else xrefs[number - start])
            texts.append(text)
            if reason is not None:
                failed.append((number + 1, reason))
        return texts, failed

    serve_chunks(fd, chunk)


def serve_chunks(fd: int, chunk: Callable[..., tuple[Any, ...]]) -> None:
    """The helper side of :func:`share_chunks`: open the file, then answer each chunk.

    From the parent: (path, password, pages), then chunks (start, end, *extra); a
    negative start means stop. To the parent: ("ready",), then ("pages", start,
    *chunk(document, path, start, end, *extra)) per chunk, or ("error", kind, message)
    with the name of the ExtractError (a MuPDF surprise is a NotReadable, still one line).
    """
    sock = socket.socket(fileno=fd)
    path = "?"
    try:
        path, password, pages = receive(sock)
        document = open_document(path, password, outline=False)  # pages alone
        send(sock, ("ready",))
        while (claimed := receive(sock))[0] >= 0:
            start, end, *extra = claimed
            send(sock, ("pages", start, *chunk(document, path, start, min(end, pages), *extra)))
        document.close()
    except ExtractError as error:
        send(sock, ("error", type(error).__name__, str(error)))
    except (EOFError, OSError):  # the parent is gone or has what it needs
        pass
    except Exception as error:  # a MuPDF surprise: still one line
        send(sock, ("error", "NotReadable", f"{quoted(path)}: {one_line(error)}"))
    finally:
        sock.close()


# The extraction's errors by name, as a helper process reports them.
ERRORS_BY_NAME: dict[str, type[ExtractError]] = {
    kind.__name__: kind
    for kind in (NotFound, NotAFile, NotReadable, NeedsPassword, WrongPassword, NoPages)
}


class _Helper:
    def __init__(self, process: subprocess.Popen[bytes], sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        self.chunks: set[int] = set()  # handed out, not back yet


@dataclass(frozen=True)
class Helpers:
    """The helper processes of one :func:`share_chunks`: ``count`` of them, each from
    ``start()`` and sent ``opening`` first; an ("error", ...) message from one is raised
    as ``failure(message)``. A chunk's message is (start, end), followed by
    ``extra(start, end)`` if given."""

    start: Callable[[], Helper]
    opening: Opening
    count: int
    failure: Callable[[tuple[Any, ...]], Exception]
    extra: Callable[[int, int], tuple[Any, ...]] | None = None


@dataclass(frozen=True)
class PageWork:
    """What this process does in :func:`share_chunks`: ``work(number)`` for each page it
    reads itself, ``received(start, rest)`` for each chunk a helper sends back (``rest``:
    the message after its start), and ``meanwhile()``, if given, once the helpers are
    started, before its first page."""

    work: Callable[[int], None]
    received: Callable[[int, tuple[Any, ...]], None]
    meanwhile: Callable[[], None] | None = None


def share_chunks(helpers: Helpers, here: PageWork, deadline: Deadline) -> None:
    """This process and ``helpers.count`` helper processes share pages 0..pages-1
    (``helpers.opening``'s pages) in chunks of CHUNK_PAGES (smaller towards the end,
    down to TAIL_CHUNK_PAGES); the one scheduler of extraction and of the hidden-text
    inspection.

    This process starts at once, taking chunks from the front and calling
    ``here.work(number)`` per page; a helper is sent the opening and, once it has opened
    the file (~0.3 s) and said ("ready",), gets the next two chunks (so it never
    waits for an answer while this process is busy with a page) and one more for
    each ("pages", start, ...) it sends back, handed to ``here.received(start, rest)``.
    ``here.meanwhile()``, if given, is called once the helpers are started, before the
    first page: work this process does while they start.
    This process looks for helpers' messages after every page. An ("error", ...)
    message raises ``helpers.failure(message)``; ``deadline.check()`` raises when time
    is up. A chunk a helper did not send back (it died) is left to the caller.
    """
    pages = helpers.opening[2]
    claimed = 0
    started: list[_Helper] = []
    running: list[_Helper] = []

    def claim() -> tuple[int, int]:
        """The next chunk (start, end), or (-1, -1) when every page is claimed."""
        nonlocal claimed
        if claimed >= pages:
            return -1, -1
        share = (pages - claimed) // (4 * (helpers.count + 1))
        start = claimed
        claimed = min(pages, start + max(TAIL_CHUNK_PAGES, min(CHUNK_PAGES, share)))
        return start, claimed

    def hand_out(helper: _Helper) -> None:
        chunk = claim()
        if chunk[0] >= 0 and helpers.extra is not None:
            send(helper.sock, (*chunk, *helpers.extra(*chunk)))
        else:
            send(helper.sock, chunk)
        if chunk[0] >= 0:
            helper.chunks.add(chunk[0])

    def stop(helper: _Helper) -> None:
        running.remove(helper)
        helper.sock.close()

    def take(ready: list[socket.socket]) -> None:
        for helper in [h for h in running if h.sock in ready]:
            try:
                message = receive(helper.sock)
                if message[0] == "error":
                    raise helpers.failure(message)
                if message[0] == "pages":
                    here.received(message[1], message[2:])
                    helper.chunks.discard(message[1])
                    hand_out(helper)
                else:  # ready
                    hand_out(helper)
                    hand_out(helper)
            except (EOFError, OSError):  # it died: its chunks are left to the caller
                stop(helper)
                continue
            if claimed >= pages and not helper.chunks:
                stop(helper)

    try:
        for _ in range(helpers.count):
            helper = _Helper(*helpers.start())
            started.append(helper)
            running.append(helper)
            try:
                send(helper.sock, helpers.opening)
            except OSError:  # died at start: this process does its share
                stop(helper)
        if here.meanwhile is not None:
            here.meanwhile()
        while (chunk := claim())[0] >= 0:
            for number in range(*chunk):
                deadline.check()
                here.work(number)
                if running:
                    take(readable([h.sock for h in running], 0))
        for helper in [h for h in running if not h.chunks]:  # still starting: not needed
            stop(helper)
        while running:
            deadline.check()
            take(readable([h.sock for h in running], deadline.left()))
    finally:
        for helper in started:
            helper.sock.close()
            if helper.process.poll() is None:
                helper.process.kill()
            helper.process.wait()


def extract_parallel(
    document: Any,
    path: str | os.PathLike[str],
    password: str | None,
    extracted: int,
    helpers: int,
    progress: PageProgress | None,
    deadline: Deadline,
) -> tuple[list[str], dict[int, str]]:
    """This process and ``helpers`` helper processes extract chunks of pages:
    the texts, and why each page that could not be read (1-based) could not.

    This process starts at once, taking chunks from the front; a helper, once
    it has opened the file (~0.3 s), gets the next two chunks (so it never
    waits for an answer) and one more for each it sends back. Chunks a helper
    could not finish (it died) are done here at the end.
    """
    texts: list[str | None] = [None] * extracted
    failed: dict[int, str] = {}
    done = 0

    def read(number: int) -> None:
        nonlocal done
        text, reason = read_page(document, number)
        if reason is not None:
            failed[number + 1] = reason
        texts[number] = text
        done += 1
        if progress is not None:
            progress(done, extracted)

    def received(start: int, rest: tuple[Any, ...]) -> None:
        nonlocal done
        payload, unread = rest
        texts[start : start + len(payload)] = payload
        failed.update(unread)
        done += len(payload)
        if progress is not None:
            progress(done, extracted)

    share_chunks(
        Helpers(
            _start_helper,
            (os.fspath(path), password, extracted),
            helpers,
            lambda message: ERRORS_BY_NAME.get(message[1], NotReadable)(message[2]),
            lambda start, end: page_xrefs(document, start, end),
        ),
        PageWork(read, received, lambda: read_outline(document)),
        deadline,
    )
    for number, text in enumerate(texts):  # what a helper that died left
        if text is None:
            deadline.check()
            read(number)
    return [text for text in texts if text is not None], failed
