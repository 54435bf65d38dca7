"""A horizontal logarithmic slider for OutCap (its scale: outcap_scale.py)."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from siftui.tui.widgets.outcap_scale import (
    BIG_STEP,
    DEFAULT_OUT_CAP,
    SLIDER_MAX,
    SLIDER_MIN,
    ladder_step,
    position_of,
    value_at,
)

__all__ = ["OutCapSlider"]


class OutCapSlider(Widget, can_focus=True):
    """A horizontal logarithmic slider for OutCap, 1,000 .. 1,000,000 runes.

    The track is filled up to the thumb; the default (100,000) is marked on it.
    With a height of 2 or more a scale ("1k", "100k", "1M") is drawn under the
    track.  Values outside the slider range are allowed and drawn at the ends.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step_up", "OutCap up", show=False),
        Binding("left", "step_down", "OutCap down", show=False),
        Binding("pageup", "big_step_up", "OutCap ×10", show=False),
        Binding("pagedown", "big_step_down", "OutCap ÷10", show=False),
        Binding("home", "to_min", "OutCap 1k", show=False),
        Binding("end", "to_max", "OutCap 1M", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "outcap-slider--track",
        "outcap-slider--filled",
        "outcap-slider--thumb",
        "outcap-slider--mark",
        "outcap-slider--scale",
    }

    DEFAULT_CSS = """
    OutCapSlider {
        height: 1;
        width: 1fr;
        min-width: 3;
        & > .outcap-slider--track { color: $foreground 40%; }
        & > .outcap-slider--filled { color: $accent; }
        & > .outcap-slider--thumb { color: $foreground; text-style: bold; }
        & > .outcap-slider--mark { color: $warning; text-style: bold; }
        & > .outcap-slider--scale { color: $foreground 60%; }
        &:focus > .outcap-slider--thumb { color: $accent; text-style: bold reverse; }
    }
    """

    TRACK_CHAR: ClassVar[str] = "─"
    FILLED_CHAR: ClassVar[str] = "━"
    THUMB_CHAR: ClassVar[str] = "●"
    MARK_CHAR: ClassVar[str] = "┼"
    FILLED_MARK_CHAR: ClassVar[str] = "╋"
    SCALE_MARK_CHAR: ClassVar[str] = "╵"

    value: reactive[int] = reactive(DEFAULT_OUT_CAP, init=False)
    """The OutCap in runes (any whole number >= 1)."""

    class Changed(Message):
        """Posted whenever the slider's value changes, and when a drag is let go."""

        def __init__(self, slider: OutCapSlider, value: int, *, call: bool = False) -> None:
            super().__init__()
            self.slider: OutCapSlider = slider
            """The slider that changed."""
            self.value: int = value
            """The new value."""
            self.call: bool = call
            """The user asked for this value (a key step, a click or a drag let go), as
            opposed to a value passed on the way (a drag) or set by the app."""

        @property
        def control(self) -> OutCapSlider:
            """Alias for self.slider."""
            return self.slider

    def __init__(
        self,
        value: int = DEFAULT_OUT_CAP,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.set_reactive(OutCapSlider.value, self.validate_value(value))
        self._dragging = False
        self._asked = False  # the value being set was asked for (see Changed.call)

    # -- value -------------------------------------------------------------

    def validate_value(self, value: int) -> int:
        return max(1, int(value))

    def watch_value(self, value: int) -> None:
        self.post_message(self.Changed(self, value, call=self._asked))
        self._asked = False

    def _ask(self, value: int, *, always: bool = False) -> None:
        """Set ``value`` as asked for; ``always``: say so even when it is the value now
        (a drag let go where it was)."""
        if always and self.validate_value(value) == self.value:
            self.post_message(self.Changed(self, self.value, call=True))
            return
        self._asked = True
        self.value = value
        self._asked = False

    def step_up(self) -> None:
        """One ladder step up."""
        self._ask(ladder_step(self.value, 1))

    def step_down(self) -> None:
        """One ladder step down."""
        self._ask(ladder_step(self.value, -1))

    def big_step_up(self) -> None:
        """Ten ladder steps (one decade) up."""
        self._ask(ladder_step(self.value, BIG_STEP))

    def big_step_down(self) -> None:
        """Ten ladder steps (one decade) down."""
        self._ask(ladder_step(self.value, -BIG_STEP))

    def to_min(self) -> None:
        """Jump to the left end (1,000)."""
        self._ask(SLIDER_MIN)

    def to_max(self) -> None:
        """Jump to the right end (1,000,000)."""
        self._ask(SLIDER_MAX)

    def action_step_up(self) -> None:
        self.step_up()

    def action_step_down(self) -> None:
        self.step_down()

    def action_big_step_up(self) -> None:
        self.big_step_up()

    def action_big_step_down(self) -> None:
        self.big_step_down()

    def action_to_min(self) -> None:
        self.to_min()

    def action_to_max(self) -> None:
        self.to_max()

    # -- geometry ----------------------------------------------------------

    def _cell_of(self, fraction: float, width: int) -> int:
        return round(fraction * (width - 1)) if width > 1 else 0

    def value_at_x(self, x: int) -> int:
        """The value for content column `x` (clamped to the track)."""
        width = self.content_size.width
        if width <= 1:
            return value_at(0.0)
        return value_at(x / (width - 1))

    # -- mouse -------------------------------------------------------------

    def _set_from_mouse(self, event: events.MouseEvent) -> None:
        self.value = self.value_at_x(event.get_content_offset_capture(self).x)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if event.button != 1 or self.disabled:
            return
        event.stop()
        self._dragging = True
        self.capture_mouse()
        self._set_from_mouse(event)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._dragging:
            event.stop()
            self._set_from_mouse(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._dragging:
            event.stop()
            self._dragging = False
            self.capture_mouse(False)
            self._ask(self.value_at_x(event.get_content_offset_capture(self).x), always=True)

    def on_mouse_release(self, event: events.MouseRelease) -> None:
        if self._dragging:  # the capture was lost mid-drag: where it stopped is asked for
            self._dragging = False
            self.post_message(self.Changed(self, self.value, call=True))

    # -- rendering ---------------------------------------------------------

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(
            f"outcap-slider--{name}", partial=True, default=Style()
        )

    def render_track(self, width: int) -> Text:
        """The track row, `width` cells wide."""
        text = Text(no_wrap=True, overflow="crop", end="")
        if width <= 0:
            return text
        thumb = self._cell_of(position_of(self.value), width)
        mark = self._cell_of(position_of(DEFAULT_OUT_CAP), width)
        track, filled = self._style("track"), self._style("filled")
        thumb_style, mark_style = self._style("thumb"), self._style("mark")
        if thumb > 0:
            if 0 < mark < thumb:
                text.append(self.FILLED_CHAR * mark, filled)
                text.append(self.FILLED_MARK_CHAR, mark_style)
                text.append(self.FILLED_CHAR * (thumb - mark - 1), filled)
            else:
                text.append(self.FILLED_CHAR * thumb, filled)
        text.append(self.THUMB_CHAR, thumb_style)
        rest = width - thumb - 1
        if rest > 0:
            if thumb < mark < width:
                text.append(self.TRACK_CHAR * (mark - thumb - 1), track)
                text.append(self.MARK_CHAR, mark_style)
                text.append(self.TRACK_CHAR * (width - mark - 1), track)
            else:
                text.append(self.TRACK_CHAR * rest, track)
        return text

    def render_scale(self, width: int) -> Text:
        """The scale row under the track: "1k", "100k" under the mark, "1M"."""
        cells = [" "] * max(width, 0)
        if width <= 0:
            return Text("", end="")
        mark = self._cell_of(position_of(DEFAULT_OUT_CAP), width)
        taken = [False] * width

        def place(label: str, start: int) -> bool:
            end = start + len(label)
            if start < 0 or end > width:
                return False
            # Keep one blank cell between labels.
            if any(taken[max(0, start - 1) : min(width, end + 1)]):
                return False
            cells[start:end] = list(label)
            taken[start:end] = [True] * len(label)
            return True

        if not place("100k", mark - 2) and not place("100k", mark - 1):
            place(self.SCALE_MARK_CHAR, mark)
        place("1k", 0)
        place("1M", width - 2)
        return Text("".join(cells), style=self._style("scale"), no_wrap=True, end="")

    def render(self) -> Text:
        width = self.content_size.width
        lines = [self.render_track(width)]
        if self.content_size.height >= 2:
            lines.append(self.render_scale(width))
        return Text("\n", end="").join(lines)
