"""Documents audited in worker processes: one at a time each, bounded in time and memory.

Each worker ignores Ctrl-C (the parent stops it), caps its address space with
``RLIMIT_AS`` as siftui.serve.worker does, counts as daemonic (so the
library's own helper processes are not started: the pool is the parallelism)
and audits the paths it is sent one by one. A document that runs past its
time is killed with its worker; a worker that dies (a crash, the kernel's OOM
killer) leaves a record saying so; in both cases a new worker takes its place
and the audit goes on.

A worker is forked from ``siftui audit`` (cheap: the parent holds no threads),
or, with ``fork=False``, a plain ``python -S -c`` child
(siftui.sources.helper): what a Dask worker runs (siftui.sources.audit.cluster),
as a daemonic, threaded process may neither start multiprocessing children
nor fork safely.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from siftui.sources.audit.document import (
    AuditOptions,
    audit_document,
    refusal,
    sha256_or_none,
)

DEFAULT_SECONDS = 300.0
DEFAULT_MEMORY = 2 * 1024**3
STOP_POLL = 0.25  # seconds between two looks at a feed's ``stop``


class Stopped(Exception):
    """A feed's ``stop`` said so: the documents being audited are left unrecorded."""


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


_HELPER_CODE = (
    "import sys; from siftui.sources.audit.pool import helper_main; helper_main(int(sys.argv[1]))"
)


def _worker(conn: Connection, options: AuditOptions, memory: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Bounded by its parent already: extraction and inspection stay in this process.
    if not multiprocessing.current_process().daemon:
        multiprocessing.current_process().daemon = True
    if memory > 0:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    while True:
        try:
            path = conn.recv()
        except EOFError:
            return
        if path is None:
            return
        conn.send(audit_document(path, options))


def helper_main(fd: int) -> None:
    """A worker started as a plain Python child: its options, then paths, on ``fd``."""
    conn = Connection(fd)
    options, memory = conn.recv()
    _worker(conn, options, memory)


class _Helper:
    """A ``python -S -c`` child with the part of multiprocessing.Process the pool uses."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        # readable when the child exits, as a multiprocessing sentinel is
        self.sentinel = os.pidfd_open(process.pid)

    @property
    def exitcode(self) -> int | None:
        return self._process.poll()

    def is_alive(self) -> bool:
        return self._process.poll() is None

    def kill(self) -> None:
        self._process.kill()

    def join(self) -> None:
        self._process.wait()
        if self.sentinel >= 0:
            os.close(self.sentinel)
            self.sentinel = -1


@dataclass
class _Slot:
    process: Any
    conn: Connection
    path: str | None = None
    deadline: float = 0.0


def _exit_reason(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"the worker was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker was killed by signal {-code}"
    return f"the worker exited (exit code {code})"


class Pool:
    """``jobs`` workers; :meth:`run` yields one record per path, as each is done."""

    def __init__(
        self,
        options: AuditOptions,
        *,
        jobs: int,
        seconds: float = DEFAULT_SECONDS,
        memory: int = DEFAULT_MEMORY,
        fork: bool = True,
    ) -> None:
        self.options = options
        self.jobs = max(1, jobs)
        self.seconds = seconds
        self.memory = memory
        self.fork = fork
        # fork: the parent holds no threads and no heavy library; spawn would re-run
        # ``python -m siftui``'s module.
        self._context = multiprocessing.get_context("fork")
        self._slots: list[_Slot] = []

    def _start(self) -> _Slot:
        if not self.fork:
            from siftui.sources.helper import start_python_helper

            # The pool speaks through multiprocessing's connections (its forked workers
            # do), so a helper's end of the pair is one too.
            helper, mine = start_python_helper(_HELPER_CODE)
            conn = Connection(mine.detach())
            slot = _Slot(_Helper(helper), conn)
            with contextlib.suppress(OSError):  # died at start: its first record says so
                conn.send((self.options, self.memory))
            return slot
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker, args=(child, self.options, self.memory), daemon=True
        )
        process.start()
        child.close()
        return _Slot(process, parent)

    def _stop(self, slot: _Slot) -> None:
        if slot.process.is_alive():
            slot.process.kill()
        slot.process.join()
        slot.conn.close()

    def close(self) -> None:
        """Stop every worker now (a document being audited is left unrecorded)."""
        for slot in self._slots:
            self._stop(slot)
        self._slots = []

    def run(self, paths: Iterable[str]) -> Generator[dict[str, Any], None, None]:
        """Each path's record, as each is done; then the workers are stopped."""
        try:
            yield from self.feed(paths)
        finally:
            self.close()

    def feed(
        self, paths: Iterable[str], stop: Callable[[], bool] | None = None
    ) -> Iterator[dict[str, Any]]:
        """:meth:`run`, the workers kept for the next call (:meth:`close` stops them).

        ``stop`` is asked every :data:`STOP_POLL` seconds while documents are audited:
        when it says so, :class:`Stopped` is raised (the caller closes the pool)."""
        waiting = deque(paths)
        for slot in list(self._slots):
            if not slot.process.is_alive():  # died idle, since the last call: no document's fault
                self._replace(slot)
        while len(self._slots) < min(self.jobs, len(waiting)):
            self._slots.append(self._start())
        while True:
            for slot in self._slots:
                if slot.path is None and waiting:
                    slot.path = waiting.popleft()
                    slot.deadline = time.monotonic() + self.seconds
                    with contextlib.suppress(OSError):  # died idle: collected as a death
                        slot.conn.send(slot.path)
            busy = [slot for slot in self._slots if slot.path is not None]
            if not busy:
                return
            if stop is not None and stop():
                raise Stopped
            yield from self._collect(busy, STOP_POLL if stop is not None else None)

    def _collect(self, busy: list[_Slot], poll: float | None) -> Iterator[dict[str, Any]]:
        timeout = max(0.0, min(slot.deadline for slot in busy) - time.monotonic())
        if poll is not None:
            timeout = min(timeout, poll)
        ready = wait(
            [slot.conn for slot in busy] + [slot.process.sentinel for slot in busy], timeout
        )
        now = time.monotonic()
        for slot in busy:
            assert slot.path is not None
            path = slot.path
            if slot.conn in ready:
                try:
                    record = slot.conn.recv()
                except (EOFError, OSError):
                    record = None
                if record is not None:
                    slot.path = None
                    yield record
                    continue
            if slot.process.sentinel in ready or slot.conn in ready:
                slot.process.join()
                yield self._lost(path, _exit_reason(slot.process.exitcode), "WorkerDied")
            elif now >= slot.deadline:
                yield self._lost(path, f"took longer than {self.seconds:g} s", "TimedOut")
            else:
                continue
            self._replace(slot)

    def _replace(self, slot: _Slot) -> None:
        self._stop(slot)
        self._slots[self._slots.index(slot)] = self._start()

    def _lost(self, path: str, reason: str, kind: str) -> dict[str, Any]:
        try:
            size: int | None = os.stat(path).st_size
        except OSError:
            size = None
        return refusal(path, reason, kind, size=size, sha256=sha256_or_none(path))
