"""The content pane: the answer as the agent receives it, drawn line by line.

Only the visible lines are turned into strips, so a 1M-rune answer scrolls as
fast as a short one. Long lines are not wrapped (nothing is ever inserted into
the content); the pane scrolls sideways instead. Each line's role and page
come from the answer's layout (siftui.layout); grep hits are highlighted with
the pattern compiled by siftui.grep's own rule (smart case).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from siftui.docindex import without_surrogates
from siftui.grep import compile_pattern
from siftui.layout import Layout, Role
from siftui.render import BadGrep
from siftui.tui.display import escape_controls
from siftui.tui.state import Answer


class ContentView(ScrollView, can_focus=True):
    """A read-only, virtual view of the answer's content."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"content--{role.value}" for role in Role} | {
        "content--hit",
        "content--escape",
        "content--ocr",
    }

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    # Pages whose text came from OCR: their markers are drawn differently.
    ocr_pages: reactive[frozenset[int]] = reactive(frozenset(), init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: tuple[str, ...] = ()
        self._layout: Layout | None = None
        self._pattern: Any = None
        self._strips: LRUCache[tuple[int, int], Strip] = LRUCache(1024)

    @property
    def lines(self) -> tuple[str, ...]:
        return self._lines

    def watch_answer(self, answer: Answer | None) -> None:
        self._layout = answer.layout if answer is not None else None
        self._lines = answer.layout.lines if answer is not None else ()
        self._pattern = None
        if answer is not None and answer.options.grep:
            try:
                self._pattern = compile_pattern(answer.options.grep)
            except BadGrep:
                self._pattern = None  # the answer came from it, so this cannot happen
        self._strips.clear()
        self.virtual_size = Size(answer.width if answer else 0, len(self._lines))
        self.scroll_home(animate=False)
        self.refresh()

    def watch_ocr_pages(self) -> None:
        self._strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        number = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if number >= len(self._lines):
            return Strip.blank(width, base)
        key = (number, width)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._line_strip(number)
            self._strips[key] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"content--{name}")

    def _line_strip(self, number: int) -> Strip:
        layout = self._layout
        assert layout is not None
        line = self._lines[number]
        role = layout.roles[number]
        style = self.rich_style + self._style(role.value)
        if role is Role.MARKER and layout.marker_page(number) in self.ocr_pages:
            style += self._style("ocr")
        if role is Role.MATCH and self._pattern is not None:
            segments = self._highlighted(line, layout.prefix_length(number), style)
        else:
            segments = self._escaped(line, style)
        return Strip(segments)

    def _escaped(self, text: str, style: Style) -> list[Segment]:
        """Segments of ``text`` with unsafe characters shown as visible escapes."""
        safe = escape_controls(text)
        if safe == text:
            return [Segment(text, style)]
        escape_style = style + self._style("escape")
        segments = []
        for char in text:
            shown = escape_controls(char)
            segments.append(Segment(shown, escape_style if shown != char else style))
        return segments

    def _highlighted(self, line: str, start: int, style: Style) -> list[Segment]:
        body = line[start:]
        hit_style = style + self._style("hit")
        segments = self._escaped(line[:start], style)
        position = 0
        # RE2 needs UTF-8: a lone surrogate is searched as U+FFFD, one code point for one.
        for found in self._pattern.finditer(without_surrogates(body)):
            begin, end = found.span()
            if end == begin:
                continue
            segments += self._escaped(body[position:begin], style)
            segments += self._escaped(body[begin:end], hit_style)
            position = end
        segments += self._escaped(body[position:], style)
        return [segment for segment in segments if segment.text]
