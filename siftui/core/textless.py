"""Pages the agent gets only as a marker: extracted, but with no text (an image?).

Pure: no I/O. The TUI's notice, the CLI's warning and the MCP answer's warning
name them the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from siftui.core.doc import Doc
from siftui.core.render import Rendered

__all__ = ["answer_textless", "listed", "no_text_line", "textless_pages", "textless_warning"]

SHOWN = 20


def textless_pages(doc: Doc, skip: Collection[int] = ()) -> tuple[int, ...]:
    """The extracted pages whose text is blank, but for ``skip`` (damaged pages)."""
    return tuple(
        page for page, text in enumerate(doc.pages, 1) if not text.strip() and page not in skip
    )


def answer_textless(doc: Doc, answer: Rendered) -> tuple[int, ...]:
    """The pages ``answer`` shows (a page range, the full text, a map's leading pages)
    that have no text; none for a grep answer."""
    if answer.first < 1:
        return ()
    return tuple(
        page
        for page in range(answer.first, min(answer.last, doc.extracted) + 1)
        if not doc.pages[page - 1].strip()
    )


def listed(pages: Sequence[int]) -> str:
    """ "1, 4, 9", the first SHOWN of them then " ..."."""
    return ", ".join(map(str, pages[:SHOWN])) + (" ..." if len(pages) > SHOWN else "")


def no_text_line(empty: Sequence[int], total: int) -> str:
    """ "1 of 1 page has no text: p. 1", "2 of 9 pages have no text: p. 3, 4"."""
    pages = f"{total:,} page" if total == 1 else f"{total:,} pages"
    verb = "has" if len(empty) == 1 else "have"
    return f"{len(empty):,} of {pages} {verb} no text: p. {listed(empty)}"


def textless_warning(empty: Sequence[int], ocr: str) -> str:
    """ "page 1 has no text (it may be an image; <ocr>)", or for several pages
    "pages 1, 3 have no text (they may be images; <ocr>)"."""
    if len(empty) == 1:
        return f"page {empty[0]} has no text (it may be an image; {ocr})"
    return f"pages {listed(empty)} have no text (they may be images; {ocr})"
