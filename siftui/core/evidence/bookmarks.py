"""E11's items: a document's outline as numbered bookmarks, a page at a time."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["OutlineTuple", "bookmark_items"]

OutlineTuple = tuple[int, str, int]
"""(level, title, page) as CONTRACT.md's outline gives it; page < 1 means unknown."""


def bookmark_items(outline: Sequence[OutlineTuple]) -> list[dict[str, object]]:
    """Every item in order, ``ol-<i>`` numbered from 1 (stable for one contentVersion)."""
    return [
        {
            "outlineId": f"ol-{number}",
            "level": level,
            "title": " ".join(title.split()),
            "page": page if page >= 1 else None,
        }
        for number, (level, title, page) in enumerate(outline, start=1)
    ]
