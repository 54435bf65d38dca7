"""A session's bookkeeping: identity counters and bounded tables of held state."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["BoundedTable", "Counters", "Limits"]

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Limits:
    """How many of each the session holds; past a bound the oldest are forgotten."""

    documents: int = 64
    refs: int = 20_000
    searches: int = 1_000
    cursors: int = 1_000
    images: int = 64
    ocr_results: int = 256


SERVED_LIMITS = Limits(documents=32, refs=20_000, searches=1_000, cursors=1_000, images=16)
"""What one served session holds at most: images are PNGs of up to 4,000,000 pixels, so
fewer of them are kept than of anything else."""

SESSION_BOUNDS = (
    f"One connection is one session of the evidence tools; it holds at most "
    f"{SERVED_LIMITS.documents} documents, {SERVED_LIMITS.refs:,} references, "
    f"{SERVED_LIMITS.searches:,} searches, {SERVED_LIMITS.cursors:,} bookmark cursors, "
    f"{SERVED_LIMITS.images} page images and {SERVED_LIMITS.ocr_results} OCR results; past "
    f"a bound the oldest are forgotten and answer as unknown."
)


class Counters:
    """Per-session counters: ``doc-1``, ``ref-1``, ... each only grows."""

    def __init__(self) -> None:
        self._issued: dict[str, int] = {}

    def peek(self, kind: str, index: int = 0) -> str:
        """The name the ``index``-th next identity of ``kind`` will get (nothing issued)."""
        return f"{kind}-{self._issued.get(kind, 0) + 1 + index}"

    def issue(self, kind: str) -> str:
        number = self._issued.get(kind, 0) + 1
        self._issued[kind] = number
        return f"{kind}-{number}"


class BoundedTable(Generic[V]):
    """Identities in the order issued, at most ``bound`` of them: the oldest go first."""

    def __init__(self, bound: int, on_forget: Callable[[str, V], None] | None = None) -> None:
        self._items: OrderedDict[str, V] = OrderedDict()
        self._bound = bound
        self._on_forget = on_forget

    def __contains__(self, key: str) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._items))

    def get(self, key: str) -> V | None:
        return self._items.get(key)

    def values(self) -> list[V]:
        return list(self._items.values())

    def put(self, key: str, value: V) -> None:
        self._items[key] = value
        while len(self._items) > self._bound:
            old_key, old = self._items.popitem(last=False)
            if self._on_forget is not None:
                self._on_forget(old_key, old)

    def pop(self, key: str) -> V | None:
        return self._items.pop(key, None)

    def drop_where(self, condition: Callable[[V], bool]) -> None:
        for key in [key for key, value in self._items.items() if condition(value)]:
            del self._items[key]
