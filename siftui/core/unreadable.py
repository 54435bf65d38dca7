"""Pages that could not be read, beside the Doc: pure values and their one-line wording.

A damaged page (MuPDF raises on it) is extracted as empty text, so the
contract's Doc and string stay as they are (its block is its marker alone);
what went wrong travels beside the Doc in an :class:`Extraction`, for each
surface to show: the CLI's warning line, the Doc JSON's source info, the
TUI's strip and the MCP call log. No I/O, no PyMuPDF.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from siftui.core.doc import Doc

MAX_RANGES_SHOWN = 12


@dataclass(frozen=True)
class UnreadablePage:
    """Page ``page`` (1-based) could not be read; ``reason`` is MuPDF's, in one line."""

    page: int
    reason: str


@dataclass(frozen=True)
class Extraction:
    """A Doc and the pages of it that could not be read (in page order; their text is "")."""

    doc: Doc
    unreadable: tuple[UnreadablePage, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.unreadable, tuple):
            object.__setattr__(self, "unreadable", tuple(self.unreadable))

    @property
    def unreadable_pages(self) -> frozenset[int]:
        """The 1-based numbers of the pages that could not be read."""
        return frozenset(item.page for item in self.unreadable)

    def first_pages(self, count: int) -> Extraction:
        """This extraction cut to its first ``count`` pages (``max_pages``)."""
        doc = self.doc
        if count >= len(doc.pages):
            return self
        cut = Doc(doc.title, doc.page_count, doc.pages[:count], doc.outline)
        return Extraction(cut, tuple(item for item in self.unreadable if item.page <= count))


def page_ranges(pages: Iterable[int], limit: int = MAX_RANGES_SHOWN) -> str:
    """Page numbers as "2, 5-7, 9"; past ``limit`` ranges, "… (N pages in all)"."""
    numbers = sorted(set(pages))
    ranges: list[tuple[int, int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], number)
        else:
            ranges.append((number, number))
    shown = [str(a) if a == b else f"{a}-{b}" for a, b in ranges[:limit]]
    if len(ranges) > limit:
        shown.append(f"… ({len(numbers)} pages in all)")
    return ", ".join(shown)


def describe(unreadable: Sequence[UnreadablePage]) -> str:
    """One line: which pages are damaged, that their text is empty, and why.

    ``page 2 is damaged; its text is left empty (cycle in page tree)``, or for
    several, ``pages 2, 5-7 are damaged; their text is left empty (page 2: …;
    2 more reasons)``; "" for none.
    """
    if not unreadable:
        return ""
    if len(unreadable) == 1:
        only = unreadable[0]
        return f"page {only.page} is damaged; its text is left empty ({only.reason})"
    pages = page_ranges(item.page for item in unreadable)
    reasons = list(dict.fromkeys(item.reason for item in unreadable))
    if len(reasons) == 1:
        why = reasons[0]
    else:
        first = unreadable[0]
        more = len(reasons) - 1
        why = f"page {first.page}: {first.reason}; {more} more reason{'s' if more > 1 else ''}"
    return f"pages {pages} are damaged; their text is left empty ({why})"


def to_records(unreadable: Sequence[UnreadablePage]) -> list[dict[str, Any]]:
    """The JSON form, as the Doc JSON's source info holds it: [{"page": 2, "reason": "…"}]."""
    return [{"page": item.page, "reason": item.reason} for item in unreadable]


def from_records(records: Any, extracted: int) -> tuple[UnreadablePage, ...] | None:
    """The JSON form read back, or None when it is not one (pages 1..``extracted``, in order)."""
    if not isinstance(records, list):
        return None
    found: list[UnreadablePage] = []
    for record in records:
        if not isinstance(record, dict):
            return None
        page, reason = record.get("page"), record.get("reason")
        if not (isinstance(page, int) and not isinstance(page, bool) and 1 <= page <= extracted):
            return None
        if not isinstance(reason, str) or (found and page <= found[-1].page):
            return None
        found.append(UnreadablePage(page, reason))
    return tuple(found)
