"""The entry a reading of a file fills once it is done: :class:`CacheSlot`. Its own
module, imported when the disk cache misses: a frozen dataclass's methods are compiled
when its module is imported, and a start that finds its document in the cache needs none."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from siftui.sources.cache import DocCache, unchanged_since


@dataclass(frozen=True)
class CacheSlot:
    """The entry a reading of a file fills once it is done: the cache, the entry's key,
    and the file's identity before the reading began (siftui.sources.cache's
    :func:`file_identity`)."""

    store: DocCache
    key: str
    where: Path
    before: tuple[int, int, int, int]

    def unchanged(self) -> bool:
        """Whether what was read may be kept (:func:`unchanged_since`)."""
        return unchanged_since(self.where, self.before)
