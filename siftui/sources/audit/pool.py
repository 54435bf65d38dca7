"""Documents audited in worker processes: one at a time each, bounded in time and memory.

Each worker is a daemonic process (so the library's own helper processes are
not started: the pool is the parallelism) that ignores Ctrl-C (the parent
stops it), caps its address space with ``RLIMIT_AS`` as siftui.serve.worker
does, and audits the paths it is sent one by one. A document that runs past
its time is killed with its worker; a worker that dies (a crash, the kernel's
OOM killer) leaves a record saying so; in both cases a new worker takes its
place and the audit goes on.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from siftui.sources.audit.document import AuditOptions, audit_document, file_sha256, refusal

DEFAULT_SECONDS = 300.0
DEFAULT_MEMORY = 2 * 1024**3


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _worker(conn: Connection, options: AuditOptions, memory: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
    ) -> None:
        self.options = options
        self.jobs = max(1, jobs)
        self.seconds = seconds
        self.memory = memory
        # fork: the parent holds no threads and no heavy library; spawn would re-run
        # ``python -m siftui``'s module.
        self._context = multiprocessing.get_context("fork")
        self._slots: list[_Slot] = []

    def _start(self) -> _Slot:
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

    def run(self, paths: Iterable[str]) -> Iterator[dict[str, Any]]:
        waiting = deque(paths)
        try:
            self._slots = [self._start() for _ in range(min(self.jobs, len(waiting)))]
            while True:
                for slot in self._slots:
                    if slot.path is None and waiting:
                        slot.path = waiting.popleft()
                        slot.deadline = time.monotonic() + self.seconds
                        slot.conn.send(slot.path)
                busy = [slot for slot in self._slots if slot.path is not None]
                if not busy:
                    return
                yield from self._collect(busy)
        finally:
            self.close()

    def _collect(self, busy: list[_Slot]) -> Iterator[dict[str, Any]]:
        timeout = max(0.0, min(slot.deadline for slot in busy) - time.monotonic())
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
        return refusal(path, reason, kind, size=size, sha256=file_sha256(path))
