"""The bounds of the server's loads, as one value: :class:`StoreLimits` (what `siftui mcp`'s
options set), and :class:`WorkerJob`, what one worker process is asked within them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from siftui.sources.unlocked import Unlock

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "DEFAULT_LIMITS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_RUNES",
    "DEFAULT_MEMORY",
    "DEFAULT_TIMEOUT",
    "FAILURE_SECONDS",
    "StoreLimits",
    "WorkerJob",
]

DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_BYTES = 200_000_000
DEFAULT_MEMORY = 2 * 1024**3
DEFAULT_MAX_RUNES = 50_000_000
DEFAULT_CACHE_BYTES = 1024**3
FAILURE_SECONDS = 600.0


@dataclass(frozen=True)
class StoreLimits:
    """How far the document store goes (siftui.serve.docstore explains each bound).

    ``timeout``: seconds a call may take; ``max_bytes``, ``max_runes``: the largest file
    and text served; ``memory``: a worker's address space (0: no limit); ``workers``:
    extractions at once (None: the cores); ``cache_bytes``: the in-memory cache;
    ``failure_seconds``: how long a failure is remembered; ``inspect_hidden``: whether
    PDFs are inspected for hidden text after their text is sent, within
    ``inspect_timeout`` seconds (None: ``timeout``)."""

    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    memory: int = DEFAULT_MEMORY
    workers: int | None = None
    max_runes: int = DEFAULT_MAX_RUNES
    cache_bytes: int = DEFAULT_CACHE_BYTES
    failure_seconds: float = FAILURE_SECONDS
    inspect_hidden: bool = True
    inspect_timeout: float | None = None


DEFAULT_LIMITS = StoreLimits()


@dataclass(frozen=True)
class WorkerJob:
    """What one worker process is asked (siftui.serve.worker sends it as its request).

    ``name`` names the file; ``kind`` is "pdf" or "docx", or a task of
    siftui.serve.worker_evidence; ``max_bytes`` and ``max_runes`` bound what it reads;
    ``timeout`` is the seconds the call had in all (for the messages); a document it
    reads is inspected for hidden text when ``inspect_hidden``, within
    ``inspect_seconds`` (None: ``timeout``); ``answering``, the call's Options when a
    first page range may be answered from its own pages; ``unlock``, the password the
    person gave in the reader for the file's bytes of one sha256 (None: none given),
    which the worker uses only on bytes of that sha256."""

    name: str
    kind: Any
    max_bytes: int
    max_runes: int
    timeout: float
    inspect_hidden: bool = True
    inspect_seconds: float | None = None
    answering: Any = None
    unlock: Unlock | None = None
