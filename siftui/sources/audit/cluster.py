"""``siftui audit --dask ADDRESS``: the same per-document work on a Dask cluster.

The client (``siftui audit``) sends each path to the scheduler as one task and
yields each record as its result arrives; the caller writes them exactly as it
writes the pool's. On a Dask worker, the task hands the path to the pool's own
bounded worker process (siftui.sources.audit.pool, started as a plain Python
child), kept for the next task of the same thread: each document keeps the
time and memory bounds it has on one machine, and one that kills its process
is a record saying so, not a lost Dask worker. The workers must see the
documents at the same absolute paths (a shared file system) and run the same
siftui.

``distributed`` is imported here only, and this module only with ``--dask``.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Generator, Sequence
from typing import Any

from siftui.core.messages import one_line
from siftui.sources.audit.document import AuditOptions, refusal
from siftui.sources.audit.pool import Pool

INSTALL = "pip install 'siftui[dask]'"


class DaskUnavailable(Exception):
    """``--dask`` cannot be used: ``str(error)`` is one line for users."""


_local = threading.local()


def audit_on_worker(
    path: str, options: AuditOptions, seconds: float, memory: int
) -> dict[str, Any]:
    """The record of the document at ``path``, audited on this Dask worker in the
    pool's bounded worker process."""
    pool: Pool | None = getattr(_local, "pool", None)
    if pool is None or (pool.options, pool.seconds, pool.memory) != (options, seconds, memory):
        if pool is not None:
            pool.close()
        pool = Pool(options, jobs=1, seconds=seconds, memory=memory, fork=False)
        _local.pool = pool
    try:
        (record,) = pool.feed([path])
    except BaseException:
        pool.close()
        _local.pool = None
        raise
    return record


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
    when the iteration stops early (Ctrl-C)."""
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


def _task_failed(path: str, error: Exception) -> dict[str, Any]:
    """A task that raised: a fact of the cluster, not of the document, so its record
    has no sha256 and a resumed audit tries the document again."""
    try:
        size: int | None = os.stat(path).st_size
    except OSError:
        size = None
    reason = f"the Dask task failed: {one_line(error)}"
    return refusal(path, reason, "TaskFailed", size=size, sha256=None)
