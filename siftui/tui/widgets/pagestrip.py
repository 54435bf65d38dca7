"""The page strip: every page's size, and what the current answer did with it.

For a Word document the cells are the story's paragraph blocks (PageFacts.unit
"paragraph"): cells holding a heading are drawn in the heading style on top of
their kind's colour, and the tooltips and legend name paragraphs (P12-P20)."""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from siftui.tui.state import Answer
from siftui.tui.strip_model import (
    HIDDEN_GLYPH,
    UNREACHABLE_GLYPH,
    UNREADABLE_GLYPH,
    Cell,
    PageFacts,
    PageState,
    cells,
    page_kinds,
    span_label,
)

if TYPE_CHECKING:  # a walk's (loaded when one runs)
    from siftui.core.unreachable import Unreachable

_LEGEND = (
    (PageState.WHOLE, "▆", "whole"),
    (PageState.CUT, "▆", "cut"),
    (PageState.HIT, "▆", "grep hit"),
    (PageState.EMPTY, "×", "no text"),
    (PageState.BLANK, "□", "blank"),
)
_IMAGES_LEGEND = (PageState.EMPTY, "×", "image-only")


class PageStrip(Widget, can_focus=True):
    """One cell per page (or bucket of pages); selecting a cell asks for those pages."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *(f"pagestrip--{kind.value}" for kind in PageState),
        "pagestrip--cursor",
        "pagestrip--hidden",
        "pagestrip--unreachable",
        "pagestrip--cap",
        "pagestrip--legend",
        "pagestrip--heading",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous page", show=False),
        Binding("right", "move(1)", "Next page", show=False),
        Binding("enter", "select", "Ask for these pages", show=False),
    ]

    cursor: reactive[int] = reactive(-1)
    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)

    class Selected(Message):
        """The user asked for pages ``first``..``last`` (Word: paragraphs, its blocks)."""

        def __init__(self, strip: PageStrip, first: int, last: int) -> None:
            super().__init__()
            self.strip = strip
            self.first = first
            self.last = last

        @property
        def control(self) -> PageStrip:
            return self.strip

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._facts: PageFacts | None = None
        self._kinds: list[PageState] = []
        self._cap_page = 0
        self._reach: Unreachable | None = None

    def watch_answer(self, answer: Answer | None) -> None:
        self._draw()

    def _draw(self) -> None:
        answer = self.answer
        facts = answer.facts if answer is not None else None
        if answer is None or facts is None:
            self._facts, self._kinds, self._cap_page = None, [], 0
            self._reach = None
        else:
            self._facts = facts
            self._kinds = page_kinds(facts, answer.layout)
            self._cap_page = answer.layout.cap_page
            self._reach = answer.unreachable
        self.refresh()

    @property
    def kinds(self) -> list[PageState]:
        """What the answer shown did with each page (drawn from its layout)."""
        return list(self._kinds)

    def current_cells(self) -> list[Cell]:
        if self._facts is None:
            return []
        return cells(self._facts, self._kinds, max(1, self.content_size.width), self._reach)

    def render(self) -> Text:
        if self._facts is None:
            return Text("")
        strip = Text(no_wrap=True, overflow="crop")
        marks = Text(no_wrap=True, overflow="crop")
        drawn = self.current_cells()
        # Neighbours drawn alike are one run of glyphs: a thousand-page strip is a few
        # spans, each one's style asked of the stylesheet once.
        cursor = self.cursor if self.has_focus else -1
        looks = [
            (_style_of(cell), bool(cell.heading), number == cursor, cell.glyph)
            for number, cell in enumerate(drawn)
        ]
        for (name, heading, on_cursor), run in groupby(looks, key=itemgetter(0, 1, 2)):
            strip.append(
                "".join(look[3] for look in run), self._cell_style(name, heading, on_cursor)
            )
        cap_cell = next(
            (
                n
                for n, cell in enumerate(drawn)
                if self._cap_page and cell.first <= self._cap_page <= cell.last
            ),
            None,
        )
        legend = self._legend(cap_cell is not None)
        cap_style = self.get_component_rich_style("pagestrip--cap")
        if cap_cell is not None:
            marks.append(" " * cap_cell)
            marks.append("▲", cap_style)
            room = self.content_size.width - cap_cell - 1
            if room >= len(legend.plain) + 1:
                marks.append(" ")
                marks.append_text(legend)
            elif cap_cell >= len(legend.plain) + 1:
                marks = Text(no_wrap=True, overflow="crop")
                marks.append_text(legend)
                marks.append(" " * (cap_cell - len(legend.plain)))
                marks.append("▲", cap_style)
        else:
            marks.append_text(legend)
        return Text("\n", no_wrap=True).join([strip, marks])

    def _cell_style(self, name: str, heading: bool, cursor: bool) -> Style:
        style = self.get_component_rich_style(f"pagestrip--{name}")
        if heading:  # on top of the kind's colour, which it keeps
            style += self.get_component_rich_style("pagestrip--heading", partial=True)
        if cursor:
            style += self.get_component_rich_style("pagestrip--cursor")
        return style

    def _legend(self, capped: bool) -> Text:
        legend = Text(no_wrap=True)
        unit = self._facts.unit if self._facts is not None else "page"
        if capped and self._cap_page:
            legend.append(
                f"OutCap runs out at {span_label(unit, self._cap_page, self._cap_page)}  ",
                self.get_component_rich_style("pagestrip--cap"),
            )
        dim = self.get_component_rich_style("pagestrip--legend")
        known = self._facts is not None and self._facts.images is not None
        for kind, glyph, label in _LEGEND:
            if kind is PageState.BLANK and not known:
                continue
            if kind is PageState.EMPTY and known:
                kind, glyph, label = _IMAGES_LEGEND
            legend.append(glyph, self.get_component_rich_style(f"pagestrip--{kind.value}"))
            legend.append(f" {label}  ", dim)
        # The marks below appear in the legend only when the strip shows them.
        facts = self._facts
        if facts is not None and any(facts.headings):
            heading = self.get_component_rich_style("pagestrip--other")
            heading += self.get_component_rich_style("pagestrip--heading", partial=True)
            legend.append("▆", heading)
            legend.append(" heading  ", dim)
        marks = (
            (bool(facts and facts.unreadable), UNREADABLE_GLYPH, "unreadable", "unreadable"),
            (
                bool(facts and facts.hidden and facts.hidden.alarms),
                HIDDEN_GLYPH,
                "hidden",
                "hidden text",
            ),
            (
                bool(self._reach and self._reach.pages),
                UNREACHABLE_GLYPH,
                "unreachable",
                "tail unreachable",
            ),
        )
        for shown, glyph, style, label in marks:
            if shown:
                legend.append(glyph, self.get_component_rich_style(f"pagestrip--{style}"))
                legend.append(f" {label}  ", dim)
        return legend

    def _cell_at(self, x: int) -> int | None:
        drawn = self.current_cells()
        return x if 0 <= x < len(drawn) else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        number = self._cell_at(event.x) if event.y == 0 else None
        if number is None:
            self.tooltip = None
            return
        self.tooltip = Content(self.tip(self.current_cells()[number]))  # headings: not markup

    def tip(self, cell: Cell) -> str:
        """What the tooltip says of ``cell``."""
        what = "no text" if cell.empty and cell.kind is not PageState.BLANK else cell.kind.value
        if cell.kind is PageState.UNREADABLE:
            what = "no text"
        if cell.empty and cell.kind in (PageState.WHOLE, PageState.CUT):
            what = f"{cell.kind.value} · no text"
        unit = self._facts.unit if self._facts is not None else "page"
        tip = f"{span_label(unit, cell.first, cell.last)} · {what}"
        if cell.heading:
            tip += f" · H{cell.heading} heading"
        tip += f" · {cell.runes:,} runes"
        tip += f" · ~{cell.runes // 4:,} tokens"
        counted = self._facts.page_tokens if self._facts is not None else ()
        if counted:
            real = sum(counted[cell.first - 1 : min(cell.last, len(counted))])
            tip += f" (runes/4) · {real:,} o200k_base tokens of text"
        for item in cell.unreadable:
            tip += f"\np. {item.page} could not be read: {item.reason}; its text is left empty"
        if cell.hidden:
            spans = "span" if cell.hidden == 1 else "spans"
            tip += f"\nhidden text: {cell.hidden} {spans} no reader of the page sees (h lists them)"
        if cell.unreachable:
            tip += (
                f"\n{cell.unreachable:,} runes unreachable by pages= at this OutCap "
                "(grep reaches part of them)"
            )
        return tip

    def on_click(self, event: events.Click) -> None:
        number = self._cell_at(event.x)
        if number is not None and event.y == 0:
            self.cursor = number
            self._select(number)

    def action_move(self, delta: int) -> None:
        drawn = self.current_cells()
        if drawn:
            start = self.cursor if self.cursor >= 0 else 0
            self.cursor = max(0, min(len(drawn) - 1, start + delta))

    def action_select(self) -> None:
        if self.cursor >= 0:
            self._select(self.cursor)

    def _select(self, number: int) -> None:
        drawn = self.current_cells()
        if 0 <= number < len(drawn):
            cell = drawn[number]
            self.post_message(self.Selected(self, cell.first, cell.last))


def _style_of(cell: Cell) -> str:
    """The component style of a cell: its kind's, or its mark's when not in the answer."""
    if cell.kind in (PageState.WHOLE, PageState.CUT, PageState.HIT):
        return str(cell.kind.value)
    if cell.unreadable:
        return str(PageState.UNREADABLE.value)
    if cell.hidden:
        return "hidden"
    if cell.unreachable:
        return "unreachable"
    return str(cell.kind.value)
