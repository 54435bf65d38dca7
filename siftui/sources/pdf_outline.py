"""A PDF's title and outline as PyMuPDF holds them, read without trusting the file.

The metadata may be damaged (the title is optional, the text is not), and an
outline may nest thousands of levels (PyMuPDF's get_toc recurses once per
level) or loop: :func:`walk_outline` walks it with a stack and a bound.
"""

from __future__ import annotations

from typing import Any


def title_of(document: Any) -> str:
    """The metadata's title, or "" when there is none or it cannot be read."""
    try:
        metadata = document.metadata or {}
    except Exception:  # damaged metadata: the title is optional, the text is not
        return ""
    title = metadata.get("title")
    return title if isinstance(title, str) else ""


# An outline longer than this is not a table of contents but a trap (or a cycle).
MAX_OUTLINE_ITEMS = 1_000_000


def walk_outline(document: Any) -> list[tuple[int, str, int]]:
    """What ``get_toc(simple=True)`` returns, walked with a stack instead of recursion."""
    items: list[tuple[int, str, int]] = []
    pending: list[tuple[Any, int]] = [(document.outline, 1)]
    while pending and len(items) < MAX_OUTLINE_ITEMS:
        item, level = pending.pop()
        while item and item.this.m_internal and len(items) < MAX_OUTLINE_ITEMS:
            items.append((level, item.title or " ", _outline_page(document, item)))
            following = item.next
            if item.down:
                pending.append((following, level))
                item, level = item.down, level + 1
                continue
            item = following
    return items


def _outline_page(document: Any, item: Any) -> int:
    # The same rule as PyMuPDF's get_toc: 1-based, -1 for external or no target.
    if item.is_external or not item.uri:
        return -1
    if item.page == -1:
        return int(document.resolve_link(item.uri)[0]) + 1
    return int(item.page) + 1
