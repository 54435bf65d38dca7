"""The content pane: the answer as the agent receives it, drawn line by line.

Only the visible lines are turned into strips, so a 1M-rune answer scrolls as
fast as a short one. Long lines are not wrapped (nothing is ever inserted into
the content); the pane scrolls sideways instead. Each line's role and page
come from the answer's layout (siftui.core.layout); grep hits are highlighted with
the pattern compiled by siftui.core.grep's own rule (smart case).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from siftui.core.docindex import without_surrogates
from siftui.core.grep import compile_pattern
from siftui.core.kinds import kind_of, paged
from siftui.core.layout import Layout, Role
from siftui.core.render import BadGrep
from siftui.tui.display import escape_controls
from siftui.tui.state import Answer

if TYPE_CHECKING:  # loaded once an inspection finds hidden text (hidden_of)
    from siftui.tui.hidden_marks import HiddenMarks


class ContentView(ScrollView, can_focus=True):
    """A read-only, virtual view of the answer's content."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"content--{role.value}" for role in Role} | {
        "content--hit",
        "content--escape",
        "content--ocr",
        "content--hidden",
        "content--anchor-prefix",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter", "choose_top", "Window", tooltip="Ask for the window of the paragraph on top"
        )
    ]

    class LineChosen(Message):
        """A line's unit was chosen (a click, or Enter on the top line): for a Word answer,
        the paragraph whose window to ask for (``unit``: its number)."""

        def __init__(self, unit: int) -> None:
            super().__init__()
            self.unit = unit

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    heading: reactive[str | None] = reactive(None, init=False)
    """The border's title (the app's, bound; None: none yet), which names what the view
    shows: escaped, and never read as markup (a grep pattern may hold "[/]")."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: tuple[str, ...] = ()
        self._layout: Layout | None = None
        self._ocr: frozenset[int] = frozenset()
        self._pattern: Any = None
        self._hidden: HiddenMarks | None = None
        self._strips: LRUCache[tuple[int, int], Strip] = LRUCache(1024)
        self._base: Style | None = None

    def _forget_drawn(self) -> None:
        """Drop the lines drawn so far and the style they were drawn in."""
        self._strips.clear()
        self._base = None

    @property
    def _base_style(self) -> Style:
        # Textual computes a widget's style from every ancestor at each ask: once a
        # frame's line, once per style change here.
        if self._base is None:
            self._base = self.rich_style
        return self._base

    @property
    def lines(self) -> tuple[str, ...]:
        return self._lines

    @property
    def hidden(self) -> HiddenMarks | None:
        """Where the answer shown holds hidden text (drawn highlighted); None for nowhere."""
        return self._hidden

    def watch_heading(self, heading: str | None) -> None:
        if heading is not None:
            self.border_title = Content(escape_controls(heading))

    def watch_answer(self, old: Answer | None, answer: Answer | None) -> None:
        self._hidden = hidden_of(answer)
        # Pages whose text came from OCR: their markers are drawn differently.
        self._ocr = frozenset(answer.ocr_pages) if answer is not None else frozenset()
        if answer is not None and old is not None and answer.same_as(old):
            # The same answer, dressed with what a worker found: keep the place in it.
            self._forget_drawn()
            self.refresh()
            return
        self._layout = answer.layout if answer is not None else None
        self._lines = answer.layout.lines if answer is not None else ()
        self._pattern = None
        if answer is not None and answer.options.grep:
            try:
                self._pattern = compile_pattern(answer.options.grep)
            except BadGrep:
                self._pattern = None  # the answer came from it, so this cannot happen
        self._forget_drawn()
        self.refresh_bindings()
        self.virtual_size = Size(answer.width if answer else 0, len(self._lines))
        self.scroll_home(animate=False)
        self.refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter asks for a window only in a Word answer (hidden from the footer otherwise)."""
        return action != "choose_top" or self._chooses_lines

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._forget_drawn()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        number = scroll_y + y
        width = self.scrollable_content_region.width
        base = self._base_style
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
        style = self._base_style + self._style(role.value)
        if role is Role.MARKER and layout.marker_page(number) in self._ocr:
            style += self._style("ocr")
        marks = self._hidden.lines.get(number, ()) if self._hidden is not None else ()
        spans: list[tuple[int, int, str]] = [(mark.start, mark.end, "hidden") for mark in marks]
        if role is Role.MATCH and self._pattern is not None:
            spans += self._hits(line, layout.prefix_length(number))
        if role is Role.ANCHOR and (prefix := layout.prefix_length(number)):
            spans.append((0, prefix, "anchor-prefix"))
        if not spans:
            return Strip(self._escaped(line, style))
        return Strip(self._painted(line, style, spans))

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

    def _hits(self, line: str, start: int) -> list[tuple[int, int, str]]:
        """The grep hits in a match line, after its ``p. N: `` prefix."""
        hits = []
        # RE2 needs UTF-8: a lone surrogate is searched as U+FFFD, one code point for one.
        for found in self._pattern.finditer(without_surrogates(line[start:])):
            begin, end = found.span()
            if end > begin:
                hits.append((start + begin, start + end, "hit"))
        return hits

    def _painted(self, line: str, style: Style, spans: list[tuple[int, int, str]]) -> list[Segment]:
        """``line`` with each span's style added to its characters (they may overlap)."""
        cuts = sorted({0, len(line), *(a for a, _, _ in spans), *(b for _, b, _ in spans)})
        segments: list[Segment] = []
        for begin, end in pairwise(cuts):
            piece_style = style
            for name in ("anchor-prefix", "hidden", "hit"):
                if any(a <= begin and end <= b for a, b, kind in spans if kind == name):
                    piece_style += self._style(name)
            segments += self._escaped(line[begin:end], piece_style)
        return [segment for segment in segments if segment.text]

    def _at(self, event: events.MouseEvent) -> tuple[int, int]:
        """The line and column of the content under the mouse."""
        scroll_x, scroll_y = self.scroll_offset
        region = self.scrollable_content_region
        line = scroll_y + event.y - (region.y - self.region.y)
        column = scroll_x + event.x - (region.x - self.region.x)
        return line, column

    def _paragraph_at(self, line: int) -> int:
        """The paragraph a line of a Word answer names with its anchor (0 for none)."""
        layout = self._layout
        if layout is None or not 0 <= line < len(layout.lines):
            return 0
        if layout.roles[line] not in (Role.ANCHOR, Role.OUTLINE):
            return 0
        return layout.line_pages[line]

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Over hidden text, the tooltip says how it is hidden; over an anchor, what a click
        does."""
        line, column = self._at(event)
        hidden = self._hidden
        kind = hidden.kind_at(line, column) if hidden and line >= 0 and column >= 0 else ""
        if kind:
            self.tooltip = f"hidden text: {kind.replace('_', ' ')} (the agent reads it)"
        elif self._chooses_lines and (unit := self._paragraph_at(line)):
            self.tooltip = f"click: ask for the window around P{unit}"
        else:
            self.tooltip = None

    def on_click(self, event: events.Click) -> None:
        line, _ = self._at(event)
        if self._chooses_lines and (unit := self._paragraph_at(line)):
            self.post_message(self.LineChosen(unit))

    def action_choose_top(self) -> None:
        """Enter: the window of the first paragraph from the top of the view."""
        if not self._chooses_lines or self._layout is None:
            return
        top = self.scroll_offset.y
        for line in range(top, min(len(self._lines), top + max(1, self.size.height))):
            if unit := self._paragraph_at(line):
                self.post_message(self.LineChosen(unit))
                return
        self.notify("No paragraph anchor in view.")

    @property
    def _chooses_lines(self) -> bool:
        """A line chosen asks for its anchor's window (a Word answer's paragraphs)."""
        answer = self.answer
        return answer is not None and kind_of(answer.options).view.chooses_lines


def hidden_of(answer: Answer | None) -> HiddenMarks | None:
    """The hidden text the answer shows (None for none, or until the inspection is known)."""
    doc = paged(answer.doc) if answer is not None else None
    if answer is None or doc is None or answer.facts is None:
        return None
    inspection = answer.facts.hidden
    if inspection is None or not inspection.alarms:
        return None
    from siftui.tui.hidden_marks import hidden_marks  # once an inspection found some

    return hidden_marks(answer.layout, doc, inspection.alarms)


def hidden_line(answer: Answer) -> str:
    """The counter's words on the hidden text the answer shows ("" for none)."""
    marks = hidden_of(answer)
    return marks.counter_line() if marks is not None else ""
