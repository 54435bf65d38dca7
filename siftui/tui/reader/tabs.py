"""The reader's tabs: which documents are open, in order, and which one is shown.

Only the person opens and closes tabs (never an agent: a jump never opens one).
Ids are ``tab-1``, ``tab-2``, ... in the order they were opened since the reader
started; a closed tab's id is not given again.
"""

from __future__ import annotations

from dataclasses import dataclass

from siftui.core.edit.operations import Quad
from siftui.core.reader import Tab, clamp_page, tab_id
from siftui.tui.reader.model import WorkingView


@dataclass
class Open:
    """One open tab: where it stands and the working copy it shows."""

    tab: Tab
    view: WorkingView
    pages: int


class TabStore:
    def __init__(self) -> None:
        self.open: list[Open] = []
        self.active: str | None = None
        self._opened = 0

    def add(self, view: WorkingView, pages: int) -> Open:
        self._opened += 1
        added = Open(Tab(tab_id(self._opened), str(view.path)), view, pages)
        self.open.append(added)
        self.active = added.tab.tab_id
        return added

    def get(self, tab: str | None) -> Open | None:
        return next((each for each in self.open if each.tab.tab_id == tab), None)

    @property
    def shown(self) -> Open | None:
        return self.get(self.active)

    def close(self, tab: str) -> Open | None:
        """Closes ``tab``; the tab shown next is its right neighbour (or its left)."""
        found = self.get(tab)
        if found is None:
            return None
        where = self.open.index(found)
        self.open.remove(found)
        if self.active == tab:
            neighbours = self.open[where : where + 1] or self.open[where - 1 : where]
            self.active = neighbours[0].tab.tab_id if neighbours else None
        return found

    def beside(self, step: int) -> str | None:
        """The id of the tab ``step`` places from the one shown, wrapping around."""
        shown = self.shown
        if shown is None:
            return None
        where = self.open.index(shown)
        return self.open[(where + step) % len(self.open)].tab.tab_id

    def turn(self, tab: str, page: int) -> Tab | None:
        """The person turned to ``page`` (clamped): no history step."""
        found = self.get(tab)
        if found is None:
            return None
        found.tab = found.tab.turned(clamp_page(page, found.pages))
        return found.tab

    def jump(self, tab: str, page: int, marks: tuple[Quad, ...] = ()) -> Tab | None:
        """A jump to ``page`` (clamped): one step of the tab's back history, ``marks``
        shown on it."""
        found = self.get(tab)
        if found is None:
            return None
        found.tab = found.tab.jumped(clamp_page(page, found.pages), marks)
        return found.tab

    def back(self, tab: str) -> Tab | None:
        """``alt+left``: the page before the newest jump (None when there is none)."""
        found = self.get(tab)
        if found is None:
            return None
        went = found.tab.went_back()
        if went is not None:
            found.tab = went
        return went

    def tabs(self) -> tuple[Tab, ...]:
        return tuple(each.tab for each in self.open)
