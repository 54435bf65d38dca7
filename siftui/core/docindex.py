"""What every rendering of a Doc needs, computed once per Doc.

render() is called on every slider step, so anything that does not depend on
the options lives here: page blocks, their lengths and prefix sums, the map's
fixed lines, and per-page stripped line tables for grep.
"""

from __future__ import annotations

import threading
import weakref
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import overload

from siftui.core.budget import CHARS, Unit
from siftui.core.doc import Doc
from siftui.core.text import collapse_whitespace, without_surrogates

__all__ = [
    "SEPARATOR",
    "DocIndex",
    "collapse_whitespace",
    "index_of",
    "marker",
    "page_block",
    "without_surrogates",
]

SEPARATOR = "\n\n"


def marker(page: int) -> str:
    """The line that opens page ``page`` (1-based) in every rendering."""
    return f"--- page {page} ---"


def page_block(page: int, text: str) -> str:
    return marker(page) + SEPARATOR + text.strip()


class Blocks(Sequence[str]):
    """The page blocks (:func:`page_block`), each made when first asked for: an answer
    needs the sizes of all (DocIndex.ends) but the text of the pages it shows, and making
    all of pgfmanual's 1,321 at once copied its 3.4M characters twice before its first
    answer (~8 ms the TUI's first frame waited for). Two threads may make the same block."""

    def __init__(self, pages: tuple[str, ...]) -> None:
        self._pages = pages
        self._made: list[str | None] = [None] * len(pages)

    def __len__(self) -> int:
        return len(self._pages)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self._block(number) for number in range(*index.indices(len(self))))
        if not -len(self) <= index < len(self):
            raise IndexError("page block index out of range")
        return self._block(index % len(self))

    def __iter__(self) -> Iterator[str]:
        return (self._block(number) for number in range(len(self)))

    def _block(self, number: int) -> str:
        made = self._made[number]
        if made is None:
            made = self._made[number] = page_block(number + 1, self._pages[number])
        return made


@dataclass
class DocIndex:
    """Option-independent facts about one Doc. Build with :func:`index_of`."""

    pages: tuple[str, ...]
    blocks: Blocks
    # The length of each page's stripped text (0: a page without text), of each block,
    # and ends[i] = len of blocks[0..i] joined by SEPARATOR, so a run of pages is sized
    # in O(1).
    text_sizes: tuple[int, ...]
    block_sizes: tuple[int, ...]
    ends: tuple[int, ...]
    outline_lines: tuple[str, ...]
    # outline_sizes[k] = len of the first k outline lines, each followed by "\n"
    outline_sizes: tuple[int, ...] = (0,)
    _full: str | None = field(default=None, repr=False)
    _lines: dict[int, tuple[str, ...]] = field(default_factory=dict, repr=False)
    _bytes: dict[int, bytes] = field(default_factory=dict, repr=False)
    # ends and outline_sizes measured in another unit than code points, by its name
    _measured: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(
        default_factory=dict, repr=False
    )
    # Results of option-independent work keyed by its inputs (grep: hits per pattern).
    # One Doc may be rendered by many threads at once (the MCP server's calls): read
    # and change ``memo`` only under ``memo_lock``. The other tables are filled by
    # single dict stores, atomic under the GIL; two threads may build the same entry.
    memo: dict[object, object] = field(default_factory=dict, repr=False)
    memo_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def extracted(self) -> int:
        return len(self.blocks)

    @property
    def full_length(self) -> int:
        return self.ends[-1] if self.ends else 0

    def full(self) -> str:
        if self._full is None:
            self._full = SEPARATOR.join(self.blocks)
        return self._full

    def measured(self, unit: Unit) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(ends, outline_sizes) with every length measured in ``unit``."""
        if unit is CHARS:
            return self.ends, self.outline_sizes
        found = self._measured.get(unit.name)
        if found is None:
            size = unit.size
            gap = size(SEPARATOR)
            ends = tuple(end - gap for end in accumulate(size(b) + gap for b in self.blocks))
            sizes = (0, *accumulate(size(line) + 1 for line in self.outline_lines))
            found = self._measured[unit.name] = (ends, sizes)
        return found

    def last_fitting(
        self, first: int, last: int, budget: int, ends: tuple[int, ...] | None = None
    ) -> int:
        """The last page p in first..last with pages first..p fitting ``budget``;
        first - 1 when not even page ``first`` fits. ``ends`` are the ends measured
        in the budget's unit (code points when not given)."""
        if ends is None:
            ends = self.ends
        before = ends[first - 2] + len(SEPARATOR) if first > 1 else 0
        # ends[p-1] - before <= budget  <=>  ends[p-1] <= budget + before
        p = bisect_right(ends, budget + before, first - 1, last)
        return p

    def join(self, first: int, last: int) -> str:
        return SEPARATOR.join(self.blocks[first - 1 : last])

    def page_bytes(self, page: int) -> bytes:
        """Page ``page``'s stripped lines joined by "\n", in UTF-8: grep searches a
        page in one RE2 call.

        A lone surrogate (possible in a Doc read from JSON) has no UTF-8 form: it
        is encoded as U+FFFD, which keeps every line's code point count.
        """
        found = self._bytes.get(page)
        if found is None:
            joined = "\n".join(self.lines(page))
            try:
                found = joined.encode("utf-8")
            except UnicodeEncodeError:
                found = without_surrogates(joined).encode("utf-8")
            self._bytes[page] = found
        return found

    def prepare_grep(self) -> None:
        """Build every page's grep tables now (the TUI does it in a worker after
        opening a file), so that the first search pays only for searching."""
        for page in range(1, self.extracted + 1):
            self.page_bytes(page)

    def lines(self, page: int) -> tuple[str, ...]:
        """The stripped lines of page ``page``, as grep sees them."""
        table = self._lines.get(page)
        if table is None:
            table = tuple(line.strip() for line in self.pages[page - 1].split("\n"))
            self._lines[page] = table
        return table


def _outline_line(level: int, title: str, page: int) -> str:
    indent = "  " * (max(level, 1) - 1)
    where = f" (p. {page})" if page >= 1 else ""
    return f"{indent}- {collapse_whitespace(title)}{where}"


def _build(doc: Doc) -> DocIndex:
    gap = len(SEPARATOR)
    text_sizes = tuple(len(text.strip()) for text in doc.pages)
    block_sizes = tuple(
        len(marker(page)) + gap + size for page, size in enumerate(text_sizes, start=1)
    )
    ends = tuple(end - gap for end in accumulate(size + gap for size in block_sizes))
    outline = tuple(_outline_line(it.level, it.title, it.page) for it in doc.outline)
    sizes = (0, *accumulate(len(line) + 1 for line in outline))
    return DocIndex(
        pages=doc.pages,
        blocks=Blocks(doc.pages),
        text_sizes=text_sizes,
        block_sizes=block_sizes,
        ends=ends,
        outline_lines=outline,
        outline_sizes=sizes,
    )


_cache: weakref.WeakKeyDictionary[Doc, DocIndex] = weakref.WeakKeyDictionary()
# The same Doc object again (every slider step) is found by identity, without
# hashing and comparing its pages and outline: id -> (weak ref to it, its index).
_by_id: dict[int, tuple[weakref.ref[Doc], DocIndex]] = {}
_lock = threading.Lock()


def index_of(doc: Doc) -> DocIndex:
    """The DocIndex of ``doc``, built on first use and kept while the Doc lives."""
    key = id(doc)
    seen = _by_id.get(key)
    if seen is not None and seen[0]() is doc:
        return seen[1]
    # The index holds the pages, never the Doc itself, so the weak key can die.
    with _lock:
        found = _cache.get(doc)
    if found is None:
        built = _build(doc)
        with _lock:
            found = _cache.setdefault(doc, built)

    def forget(ref: weakref.ref[Doc]) -> None:
        with _lock:
            current = _by_id.get(key)
            if current is not None and current[0] is ref:
                del _by_id[key]

    with _lock:
        _by_id[key] = (weakref.ref(doc, forget), found)
    return found
