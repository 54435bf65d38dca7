"""One extraction in a process of its own: bounded in time, memory and life.

The server opens the file (siftui.serve.access) and hands this process the
open descriptor, never the name: the worker reads the bytes from it, hashes
exactly those bytes and extracts them (PyMuPDF from a stream). So what the
agent gets, what the log's sha256 names and what was checked against the
roots are one and the same file, whatever is renamed or swapped meanwhile.

The process is a plain ``python -S -c`` child (nothing is forked from the
threaded server). At start it asks the kernel to kill it when the server
dies (``PR_SET_PDEATHSIG``; the server starts workers from one long-lived
thread, as the signal follows the thread that started the child) and caps
its address space (``RLIMIT_AS``). Its stdout and stderr are /dev/null: the
server's stdout is the MCP wire.

Protocol, over a socket pair, each message a length-prefixed pickle: to the
worker ``(name, kind, max_bytes, max_runes, seconds, inspect_hidden, inspect_seconds,
answering, unlock)`` (kind "pdf" or "docx"; ``seconds`` the time the call has left,
``inspect_seconds`` the time the hidden-text inspection may take once the text is
sent; ``answering`` the call's ``Options`` when a first page range may be answered
from its own pages, else None; ``unlock`` the password the person gave in the reader
for one version of the file, siftui.sources.unlocked, else None); back, while a PDF is
extracted, ``("progress", pages done, pages)`` now and then, then ``("ok", read,
sha256)`` with a :class:`siftui.serve.worker_read.Read` or ``("error", message, sha256 or None)``;
for a document it inspects for hidden text, ``("extracted", read, sha256)`` then
``("inspected", inspection or None, why not)``. The server answers the call at
``"extracted"`` and reads the findings in a thread of its own
(:class:`PendingFindings`), reaping the worker after them. With ``answering``,
``("range", read, sha256)`` may come first: a partial Doc that answers that one
request (siftui.sources.lazy), before the whole document's message. ``kind`` may
instead be a task of siftui.serve.worker_evidence (an evidence tool's PyMuPDF
call): back ``("ok", (size of the bytes read, its result), sha256)`` or an error
as above.
The worker's own code is siftui.serve.worker_main; what it does with the bytes is
siftui.serve.worker_read's.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import pickle
import queue
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from siftui.core.messages import one_line, quoted
from siftui.serve.limits import WorkerJob
from siftui.serve.pending import PendingFindings
from siftui.sources.helper import receive, send, start_python_helper

_CODE = "import sys; from siftui.serve.worker_main import main; main(sys.argv[1:])"


class WorkerFailed(Exception):
    """The worker could not extract; ``str(error)`` is one line, ``sha256`` what was read."""

    def __init__(self, message: str, sha256: str | None = None, *, timed_out: bool = False):
        super().__init__(message)
        self.sha256 = sha256
        self.timed_out = timed_out


class _Spawner:
    """Starts every worker from one thread that lives as long as the server, so that
    PR_SET_PDEATHSIG (which fires when the starting *thread* ends) means "the server died"."""

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[Any, concurrent.futures.Future[Any]]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def popen(self, **kwargs: Any) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="siftui-spawner", daemon=True
                )
                self._thread.start()
        future: concurrent.futures.Future[subprocess.Popen[bytes]] = concurrent.futures.Future()
        self._requests.put((kwargs, future))
        return future.result()

    def _run(self) -> None:
        while True:
            kwargs, future = self._requests.get()
            try:
                future.set_result(subprocess.Popen(**kwargs))
            except BaseException as error:  # handed to the caller, which reports it
                future.set_exception(error)


_SPAWNER = _Spawner()
spawn = _SPAWNER.popen
"""Starts a process from the server's spawner thread (its children's PR_SET_PDEATHSIG
then means "the server died"): the workers, and Tesseract (siftui.sources.ocr_runner)."""


class Running:
    """A started worker; :meth:`kill` may be called from any thread, any number of times."""

    def __init__(self, process: subprocess.Popen[bytes], sock: socket.socket) -> None:
        self.process = process
        self.sock = sock

    def kill(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.process.kill()


def start(fd: int, memory: int) -> Running:
    """A worker process that will read the open file ``fd`` (a regular file)."""
    process, mine = start_python_helper(
        _CODE, (str(os.getpid()), str(fd), str(memory)), pass_fds=(fd,), popen=_SPAWNER.popen
    )
    return Running(process, mine)


def start_spare(memory: int) -> Running:
    """A worker started before its file is known (:func:`hand` gives it one), so that
    a call finds its start and imports done; one process per call all the same."""
    process, mine = start_python_helper(
        _CODE, (str(os.getpid()), "-1", str(memory)), popen=_SPAWNER.popen
    )
    return Running(process, mine)


def hand(running: Running, fd: int) -> None:
    """Gives a spare worker the open file it is to read (OSError: it is gone)."""
    socket.send_fds(running.sock, [b"\0"], [fd])


def discard(running: Running) -> None:
    running.kill()
    running.sock.close()
    running.process.wait()


class Progress(Protocol):
    """Told (pages done, pages) while a PDF is extracted, or (seconds waited, seconds at
    most) with its own ``message`` while a call waits (a save waiting for the person)."""

    def __call__(self, done: int, total: int, message: str = "") -> None: ...


FINDINGS_SLACK = 5.0
"""Seconds past the inspection's own time after which the server stops waiting for it."""


def finish(
    running: Running,
    job: WorkerJob,
    deadline: float,
    *,
    early: Callable[[Any, str], None] | None = None,
    progress: Progress | None = None,
    ended: Callable[[], None] | None = None,
) -> tuple[Any, str, PendingFindings | None]:
    """The worker's (Read, sha256, findings to come) for ``job`` by ``deadline``, or
    :class:`WorkerFailed`.

    For a document it inspects, the Read is returned as soon as it comes, with a
    :class:`PendingFindings` that a thread settles when the worker sends the findings
    (or dies, or overruns ``job.inspect_seconds``); that thread then reaps the worker.
    Otherwise the worker is reaped before this returns. Either way ``ended`` is called
    once the worker is gone. With ``job.answering`` (a page range's Options), a partial
    Read that answers it may come before the whole one: it is handed to
    ``early(read, sha256)`` and the wait goes on.
    """
    name, kind, timeout = job.name, job.kind, job.timeout
    inspect_time = timeout if job.inspect_seconds is None else job.inspect_seconds
    handed = False
    try:
        seconds = max(0.0, deadline - time.monotonic())
        request = (
            name,
            kind,
            job.max_bytes,
            job.max_runes,
            seconds,
            job.inspect_hidden,
            inspect_time,
            job.answering,
            job.unlock,
        )
        send(running.sock, request)
        message = receive(running.sock, deadline)
        while message[0] in ("progress", "range"):
            if message[0] == "range":
                if early is not None:
                    early(message[1], message[2])
            elif progress is not None:
                progress(message[1], message[2])
            message = receive(running.sock, deadline)
        if message[0] == "extracted":
            pending = PendingFindings()
            limit = time.monotonic() + inspect_time + FINDINGS_SLACK
            threading.Thread(
                target=_await_findings,
                args=(running, pending, limit, inspect_time, ended),
                name="siftui-findings",
                daemon=True,
            ).start()
            handed = True
            return message[1], message[2], pending
    except TimeoutError:
        doing = "extraction" if isinstance(kind, str) else kind.doing
        raise WorkerFailed(
            f"{quoted(name)}: {doing} took longer than {timeout:g} s; stopped", timed_out=True
        ) from None
    except (EOFError, OSError, pickle.UnpicklingError):
        running.kill()
        code = running.process.wait()
        process = "extraction" if isinstance(kind, str) else "worker"
        raise WorkerFailed(f"{quoted(name)}: the {process} process died ({_exit(code)})") from None
    finally:
        if not handed:
            _reap(running, ended)
    if message[0] == "ok":
        return message[1], message[2], None
    raise WorkerFailed(message[1], message[2])


def _reap(running: Running, ended: Callable[[], None] | None) -> None:
    running.kill()
    running.sock.close()
    running.process.wait()
    if ended is not None:
        ended()


def _await_findings(
    running: Running,
    pending: PendingFindings,
    limit: float,
    seconds: float,
    ended: Callable[[], None] | None,
) -> None:
    """In its own thread: the findings the worker sends after the text, or why none came."""
    try:
        message = receive(running.sock, limit)
        if message[0] != "inspected":
            pending.settle(None, "the worker sent no hidden-text findings")
        else:
            pending.settle(message[1], message[2])
    except TimeoutError:
        pending.settle(None, f"the hidden-text inspection took longer than {seconds:g} s; stopped")
    except (EOFError, OSError, pickle.UnpicklingError):
        running.kill()
        code = running.process.wait()
        pending.settle(None, f"the hidden-text inspection process died ({_exit(code)})")
    except Exception as error:  # a bug of ours: the findings are lost, the server lives
        pending.settle(None, f"hidden-text inspection failed: {one_line(error)}")
    finally:
        _reap(running, ended)


def _exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
