"""``siftui audit --dask ADDRESS``: the same per-document work on a Dask cluster.

The client (``siftui audit``) sends each path to the scheduler as one task and
yields each record as its result arrives; the caller writes them exactly as it
writes the pool's. On a Dask worker, the task hands the path to the pool's own
bounded worker process (siftui.sources.audit.pool, started as a plain Python
child), kept for the audit's next task on that worker and ended with the
audit, or with its task when the task is cancelled: each document keeps the
time and memory bounds it has on one machine, and one that kills its process
is a record saying so, not a lost Dask worker. The workers must see the
documents at the same absolute paths (a shared file system) and run the same
siftui.

``distributed`` is imported here only, and this module only with ``--dask``.
"""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from collections.abc import Callable, Generator, Sequence
from typing import Any

from siftui.core.messages import one_line
from siftui.sources.audit.document import AuditOptions, refusal
from siftui.sources.audit.pool import Pool

INSTALL = "pip install 'siftui[dask]'"


class DaskUnavailable(Exception):
    """``--dask`` cannot be used: ``str(error)`` is one line for users."""


_lock = threading.Lock()
_idle: list[Pool] = []  # this Dask worker's pools between two tasks
_ended: set[str] = set()  # the batches whose client has said they ended


def audit_on_worker(
    path: str, options: AuditOptions, seconds: float, memory: int, batch: str = ""
) -> dict[str, Any]:
    """The record of the document at ``path``, audited on this Dask worker in the
    pool's bounded worker process.

    The process is kept for the batch's next task on this worker. It is ended when
    the task is cancelled (its client pressed Ctrl-C, or went away) or the batch
    ends (:func:`end_batch`), looked at every :data:`~siftui.sources.audit.pool.STOP_POLL`
    seconds while the document is audited."""
    pool = _take(options, seconds, memory)
    try:
        (record,) = pool.feed([path], stop=_stop_of(batch))
    except BaseException:
        pool.close()
        raise
    with _lock:
        if batch not in _ended:
            _idle.append(pool)
            return record
    pool.close()  # the batch ended while this document was audited
    return record


def _take(options: AuditOptions, seconds: float, memory: int) -> Pool:
    """An idle pool made with these bounds (taken from the idle ones), or a new one."""
    with _lock:
        for at, pool in enumerate(_idle):
            if (pool.options, pool.seconds, pool.memory) == (options, seconds, memory):
                return _idle.pop(at)
    return Pool(options, jobs=1, seconds=seconds, memory=memory, fork=False)


def _stop_of(batch: str) -> Callable[[], bool]:
    """Whether the running task should stop: its batch ended, or Dask cancelled the
    task (the worker keeps running a cancelled task's function: only it can stop)."""
    worker, key = _current_task()

    def stop() -> bool:
        if batch in _ended:
            return True
        return worker is not None and _task_state(worker, key) in ("cancelled", "gone")

    return stop


def _current_task() -> tuple[Any, Any]:
    """This Dask worker and the key of the task this thread runs (None, None when
    called elsewhere: directly, or by a Dask that does not say)."""
    try:
        from distributed import get_worker

        worker = get_worker()
        return worker, worker.get_current_task()
    except Exception:
        return None, None


def _task_state(worker: Any, key: Any) -> str | None:
    """The task's state on this worker ("gone": the worker no longer knows it)."""
    try:
        found = worker.state.tasks.get(key)
    except Exception:  # a Dask whose worker keeps its tasks elsewhere: no answer
        return None
    return "gone" if found is None else str(found.state)


def end_batch(batch: str) -> None:
    """Run on every worker when an audit ends (done or interrupted): its tasks still
    running stop, and the idle pools' processes end."""
    with _lock:
        _ended.add(batch)
        idle = list(_idle)
        _idle.clear()
    for pool in idle:
        pool.close()


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``.

    How long it tries is Dask's ``distributed.comm.timeouts.connect`` (30 s unless
    configured, e.g. ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s``)."""
    try:
        from distributed import Client
        from distributed.comm.addressing import resolve_address
    except ImportError:
        raise DaskUnavailable(
            f"--dask needs Dask's distributed scheduler, which is not installed: {INSTALL}"
        ) from None
    try:
        # A Client that fails on a bad address or an unknown host is left to a __del__
        # that prints a traceback: such addresses are refused before it is made.
        resolve_address(address)
        return Client(address, set_as_default=False)
    except Exception as error:  # bad addresses and refused or timed-out connections alike
        raise DaskUnavailable(
            f"cannot reach the Dask scheduler at {address} ({one_line(error)})"
        ) from None


def run(
    client: Any, paths: Sequence[str], options: AuditOptions, seconds: float, memory: int
) -> Generator[dict[str, Any], None, None]:
    """One record per path, as each task finishes; tasks not finished are cancelled
    when the iteration stops early (Ctrl-C), and the workers' processes of this
    batch end with it."""
    from distributed import as_completed

    batch = uuid.uuid4().hex
    waiting: dict[Any, str] = {}
    for number, path in enumerate(paths):
        future = client.submit(
            audit_on_worker,
            os.path.abspath(path),
            options,
            seconds,
            memory,
            batch,
            key=f"siftui-audit-{batch}-{number}",
            pure=False,
            priority=len(paths) - number,  # in the order given: the largest first
        )
        waiting[future] = path
    try:
        for future in as_completed(list(waiting), loop=client.loop):
            path = waiting.pop(future)
            try:
                record = future.result()
            except Exception as error:
                yield _task_failed(path, error)
                continue
            record["path"] = path  # as given, as the pool's records name it
            yield record
    finally:
        if waiting:
            client.cancel(list(waiting))
        _end(client, batch)


def _end(client: Any, batch: str) -> None:
    """Tell every worker the batch ended (:func:`end_batch`); a worker or scheduler
    gone meanwhile has nothing left to end."""
    with contextlib.suppress(Exception):
        client.run(end_batch, batch)


def _task_failed(path: str, error: Exception) -> dict[str, Any]:
    """A task that raised: a fact of the cluster, not of the document, so its record
    has no sha256 and a resumed audit tries the document again."""
    try:
        size: int | None = os.stat(path).st_size
    except OSError:
        size = None
    reason = f"the Dask task failed: {one_line(error)}"
    return refusal(path, reason, "TaskFailed", size=size, sha256=None)
