"""What the reader's screen shows of a tab, as values: one drawing of its page and
panels (made in the screen's thread worker, from the working copy's view), the
line under the page, and the file's name in the header."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from siftui.core.halfblocks import Pixels
from siftui.core.reader import AnnotationRow, FieldRow, OutlineRow
from siftui.tui.reader.tabs import Open

__all__ = ["Drawn", "drawing_of", "page_line", "shown_path"]


@dataclass(frozen=True)
class Drawn:
    """One drawing of a tab's page and panels, and the revision it is of."""

    tab: str
    page: int
    revision: int
    unsaved: bool
    pixels: Pixels
    annotations: list[AnnotationRow]
    fields: list[FieldRow]
    outline: list[OutlineRow]


def drawing_of(tab: str, page: int, shown: Open, outline: bool) -> Drawn:
    """Page ``page`` of the tab shown, its panels (its outline too with ``outline``) and
    its revision, read from its working copy (off the event loop: it may wait)."""
    view = shown.view
    revision = view.revision()
    return Drawn(
        tab,
        page,
        revision,
        view.unsaved(),
        view.page_pixels(page, shown.tab.marks if shown.tab.page == page else ()),
        view.annotations(page),
        view.fields(page),
        view.outline() if outline else [],
    )


def page_line(drawn: Drawn, pages: int) -> str:
    """The line under the page: where it is, the revision, what is unsaved."""
    state = "unsaved changes" if drawn.unsaved else "no unsaved changes"
    notes = len(drawn.annotations)
    return (
        f"page {drawn.page} of {pages} · revision {drawn.revision} · {state} · "
        f"{notes} annotation{'' if notes == 1 else 's'}"
    )


def shown_path(path: str) -> str:
    """A tab's file as the header names it: relative to the folder the reader started
    in when it lies there, else whole."""
    where = Path(path)
    try:
        return str(where.relative_to(Path.cwd()))
    except ValueError:
        return path
