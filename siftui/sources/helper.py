"""Helper processes: a plain ``python -P -S -c CODE`` child with a socket pair to it, and
the messages over that pair (:func:`send`, :func:`receive`: a pickle after its length,
8 bytes big endian), and :func:`readable` to wait on several pairs at once.
multiprocessing's connections would do the same for 12 ms of import alone, in the
parent and in each helper.

Used by parallel extraction (siftui.sources.parallel), the hidden-text inspection,
the first open's extraction process (siftui.sources.extract_process) and the MCP
server's extraction workers (siftui.serve.worker).
"""

from __future__ import annotations

import math
import os
import pickle
import select
import selectors
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Popen = Callable[..., "subprocess.Popen[bytes]"]

Helper = tuple["subprocess.Popen[bytes]", socket.socket]
"""A helper process and this process's end of the socket pair to it."""


def helper_environment() -> dict[str, str]:
    """This process's environment, with its import path given whole as PYTHONPATH
    (siftui's own directory first): with -S the helper skips site (its .pth files
    cost ~0.08 s of a ~0.3 s start)."""
    environment = dict(os.environ)
    here = str(Path(__file__).resolve().parents[2])
    environment["PYTHONPATH"] = os.pathsep.join(
        dict.fromkeys(part for part in (here, *sys.path) if part and os.path.isdir(part))
    )
    return environment


def start_python_helper(
    code: str,
    args: Sequence[str] = (),
    *,
    pass_fds: Sequence[int] = (),
    popen: Popen | None = None,
) -> Helper:
    """A helper process running ``code`` and this process's end of a socket pair to it.

    The helper's ``sys.argv[1]`` is the descriptor of its end of the pair, then
    ``args``; it also inherits ``pass_fds``. A plain ``python -P -S -c`` child, not a
    multiprocessing one: it never imports the caller's ``__main__`` again (an
    unguarded script would run twice), it is safe to start from a threaded parent
    (nothing is forked), and its stdin, stdout and stderr are /dev/null (the
    parent's stdout may be an MCP wire). ``popen`` starts it (default
    :class:`subprocess.Popen`; the server starts its workers from one thread).
    """
    mine, theirs = socket.socketpair()
    start: Any = popen if popen is not None else subprocess.Popen
    try:
        process: subprocess.Popen[bytes] = start(
            # -P: the working directory is not put first on sys.path, so a helper started
            # in a checkout of siftui imports the siftui its parent runs, not the checkout's.
            args=[sys.executable, "-P", "-S", "-c", code, str(theirs.fileno()), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(), *pass_fds),
            env=helper_environment(),
        )
    except BaseException:
        mine.close()
        raise
    finally:
        theirs.close()
    return process, mine


_HEADER = struct.Struct("!Q")


def send(sock: socket.socket, message: object) -> None:
    """``message`` pickled, after its length."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_HEADER.pack(len(data)) + data)


def receive(sock: socket.socket, deadline: float | None = None) -> Any:
    """The next message; EOFError when the other end closed, TimeoutError past
    ``deadline`` (time.monotonic)."""
    (size,) = _HEADER.unpack(_exactly(sock, _HEADER.size, deadline))
    return pickle.loads(_exactly(sock, size, deadline))


def readable(socks: Sequence[socket.socket], timeout: float | None) -> list[socket.socket]:
    """Those of ``socks`` with something to read (a message, or the other end closed),
    after waiting at most ``timeout`` seconds (None: until one has; 0: not at all).

    Through poll(2) where there is one: the parallel extraction asks after every page,
    and a selector made and closed per call (epoll) cost 27 us against poll's 5."""
    if hasattr(select, "poll"):
        poller = select.poll()
        by_fd = {}
        for sock in socks:
            poller.register(sock, select.POLLIN)
            by_fd[sock.fileno()] = sock
        wait = None if timeout is None else math.ceil(max(0.0, timeout) * 1000)
        return [by_fd[fd] for fd, _ in poller.poll(wait)]
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        return [key.fileobj for key, _ in selector.select(timeout)]  # type: ignore[misc]


def progress_sender(sock: socket.socket, seconds: float) -> Callable[[int, int], None]:
    """A progress callback that sends ("progress", done, total) at most every
    ``seconds`` (the last page's always); OSError when the other end is gone."""
    last = [0.0]

    def sent(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= seconds or done >= total:
            last[0] = now
            send(sock, ("progress", done, total))

    return sent


def _exactly(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    """``size`` bytes from ``sock``; TimeoutError past ``deadline``, EOFError at its end."""
    parts: list[bytes] = []
    left = size
    while left:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            sock.settimeout(remaining)
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise EOFError("the other end closed the connection")
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)
