"""OutCap controls: a logarithmic slider and a composite slider + exact-number entry.

OutCap bounds the answer of the read tool, counted in code points (runes).  The
slider covers 1,000 .. 1,000,000 runes on a log scale, stepping through "nice"
values (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per decade); the control next to it
accepts any whole number from 1 to 1,000,000,000 typed into an Input.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Label, Static

__all__ = [
    "DEFAULT_OUTCAP",
    "ENTRY_MAX",
    "ENTRY_MIN",
    "INVALID_MESSAGE",
    "LADDER",
    "SLIDER_MAX",
    "SLIDER_MIN",
    "OutCapControl",
    "OutCapSlider",
    "ladder_step",
    "parse_outcap",
    "position_of",
    "value_at",
]

SLIDER_MIN = 1_000
"""Left end of the slider, in runes."""
SLIDER_MAX = 1_000_000
"""Right end of the slider, in runes."""
DEFAULT_OUTCAP = 100_000
"""The default OutCap, marked on the track."""
ENTRY_MIN = 1
"""Smallest OutCap accepted by the exact-number entry."""
ENTRY_MAX = 1_000_000_000
"""Largest OutCap accepted by the exact-number entry."""
INVALID_MESSAGE = f"OutCap must be a whole number from {ENTRY_MIN:,} to {ENTRY_MAX:,}"

_MANTISSAS_TENTHS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
LADDER: tuple[int, ...] = (
    *(m * 10 ** (k - 1) for k in (3, 4, 5) for m in _MANTISSAS_TENTHS),
    SLIDER_MAX,
)
"""The "nice" values the keyboard steps through, ascending, 1,000 .. 1,000,000."""

_LOG_MIN = math.log10(SLIDER_MIN)
_LOG_SPAN = math.log10(SLIDER_MAX) - _LOG_MIN
_BIG_STEP = 10  # ladder steps per PageUp/PageDown: one decade


def ladder_step(value: int, steps: int) -> int:
    """Move `steps` ladder values up (positive) or down (negative) from `value`.

    From a value not on the ladder the first step goes to the next ladder value in
    that direction.  Stepping stops at the ends of the ladder; a value beyond an
    end stays put when stepping further out.
    """
    current = value
    for _ in range(abs(steps)):
        if steps > 0:
            nxt = next((v for v in LADDER if v > current), None)
        else:
            nxt = next((v for v in reversed(LADDER) if v < current), None)
        if nxt is None:
            break
        current = nxt
    return current


def _round_sig(x: float, digits: int = 3) -> int:
    """Round a positive number to `digits` significant digits, as an int."""
    if x <= 0:
        return 0
    exponent = math.floor(math.log10(x)) - digits + 1
    scale = 10.0**exponent
    return round(round(x / scale) * scale)


def value_at(fraction: float) -> int:
    """The slider value at `fraction` (0 = left end, 1 = right end) of the track.

    Log mapping, rounded to 3 significant digits, clamped to the slider range.
    """
    fraction = min(1.0, max(0.0, fraction))
    value = _round_sig(10 ** (_LOG_MIN + _LOG_SPAN * fraction))
    return min(SLIDER_MAX, max(SLIDER_MIN, value))


def position_of(value: int) -> float:
    """The fraction (0..1) of the track at which `value` is drawn (clamped)."""
    clamped = min(SLIDER_MAX, max(SLIDER_MIN, value))
    return (math.log10(clamped) - _LOG_MIN) / _LOG_SPAN


_NUMBER_RE = re.compile(
    r"""^
    (?P<int>\d{1,3}(?:,\d{3})+      # 20,000
          |\d{1,3}(?:[ ]\d{3})+     # 20 000
          |\d+(?:_\d+)*             # 20000, 20_000
    )?
    (?:\.(?P<frac>\d+))?
    \s*(?P<suffix>[km])?
    $""",
    re.VERBOSE | re.IGNORECASE,
)


def parse_outcap(text: str) -> int | None:
    """Parse an OutCap typed by the user; None if it is not acceptable.

    Accepts plain digits ("20000"), grouped digits ("20,000", "20_000",
    "20 000") and a k / M suffix ("20k", "1.5M").  The result must be a whole
    number from ENTRY_MIN to ENTRY_MAX.
    """
    match = _NUMBER_RE.match(text.strip())
    if match is None:
        return None
    int_part, frac_part, suffix = match.group("int", "frac", "suffix")
    if int_part is None and frac_part is None:
        return None
    digits = re.sub(r"[,_ ]", "", int_part or "0")
    try:
        number = Decimal(f"{digits}.{frac_part or '0'}")
    except InvalidOperation:  # pragma: no cover - the regex admits digits only
        return None
    if suffix is not None:
        number *= 1_000 if suffix.lower() == "k" else 1_000_000
    if number != number.to_integral_value():
        return None
    result = int(number)
    if not ENTRY_MIN <= result <= ENTRY_MAX:
        return None
    return result


class OutCapSlider(Widget, can_focus=True):
    """A horizontal logarithmic slider for OutCap, 1,000 .. 1,000,000 runes.

    The track is filled up to the thumb; the default (100,000) is marked on it.
    With a height of 2 or more a scale ("1k", "100k", "1M") is drawn under the
    track.  Values outside the slider range are allowed and drawn at the ends.
    """

    MIN: ClassVar[int] = SLIDER_MIN
    MAX: ClassVar[int] = SLIDER_MAX
    DEFAULT: ClassVar[int] = DEFAULT_OUTCAP

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

    value: reactive[int] = reactive(DEFAULT_OUTCAP, init=False)
    """The OutCap in runes (any whole number >= 1)."""

    class Changed(Message):
        """Posted whenever the slider's value changes."""

        def __init__(self, slider: OutCapSlider, value: int) -> None:
            super().__init__()
            self.slider: OutCapSlider = slider
            """The slider that changed."""
            self.value: int = value
            """The new value."""

        @property
        def control(self) -> OutCapSlider:
            """Alias for self.slider."""
            return self.slider

    def __init__(
        self,
        value: int = DEFAULT_OUTCAP,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.set_reactive(OutCapSlider.value, self.validate_value(value))
        self._dragging = False

    # -- value -------------------------------------------------------------

    def validate_value(self, value: int) -> int:
        return max(1, int(value))

    def watch_value(self, value: int) -> None:
        self.post_message(self.Changed(self, value))

    def step_up(self) -> None:
        """One ladder step up."""
        self.value = ladder_step(self.value, 1)

    def step_down(self) -> None:
        """One ladder step down."""
        self.value = ladder_step(self.value, -1)

    def big_step_up(self) -> None:
        """Ten ladder steps (one decade) up."""
        self.value = ladder_step(self.value, _BIG_STEP)

    def big_step_down(self) -> None:
        """Ten ladder steps (one decade) down."""
        self.value = ladder_step(self.value, -_BIG_STEP)

    def to_min(self) -> None:
        """Jump to the left end (1,000)."""
        self.value = SLIDER_MIN

    def to_max(self) -> None:
        """Jump to the right end (1,000,000)."""
        self.value = SLIDER_MAX

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
            self._set_from_mouse(event)
            self._dragging = False
            self.capture_mouse(False)

    def on_mouse_release(self, event: events.MouseRelease) -> None:
        self._dragging = False

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
        mark = self._cell_of(position_of(DEFAULT_OUTCAP), width)
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
        mark = self._cell_of(position_of(DEFAULT_OUTCAP), width)
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


class OutCapControl(Widget):
    """Label + OutCapSlider + exact-number Input, with a one-line error message.

    `value` is kept in sync with the slider and the Input.  Typing a number and
    pressing Enter (or leaving the Input) sets it exactly; an invalid entry shows
    INVALID_MESSAGE and keeps the last good value.
    """

    DEFAULT_CSS = """
    OutCapControl {
        height: auto;
        width: 1fr;
        & > .outcap--row { height: auto; width: 1fr; }
        & .outcap--label { width: auto; padding: 0 1 0 0; }
        & OutCapSlider { width: 1fr; }
        & .outcap--input { width: 12; margin: 0 0 0 1; }
        & .outcap--message {
            height: 1;
            width: 1fr;
            color: $error;
            text-wrap: nowrap;
            text-overflow: ellipsis;
        }
    }
    """

    value: reactive[int] = reactive(DEFAULT_OUTCAP, init=False)
    """The OutCap in runes, ENTRY_MIN .. ENTRY_MAX."""

    class Changed(Message):
        """Posted whenever the control's value changes (from the slider or the Input)."""

        def __init__(self, outcap_control: OutCapControl, value: int) -> None:
            super().__init__()
            self.outcap_control: OutCapControl = outcap_control
            """The control that changed."""
            self.value: int = value
            """The new value."""

        @property
        def control(self) -> OutCapControl:
            """Alias for self.outcap_control."""
            return self.outcap_control

    def __init__(
        self,
        value: int = DEFAULT_OUTCAP,
        *,
        label: str = "OutCap",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        value = self.validate_value(value)
        self.set_reactive(OutCapControl.value, value)
        self._label = Label(label, classes="outcap--label")
        self.slider = OutCapSlider(value, classes="outcap--slider")
        """The slider."""
        self.input = Input(
            str(value),
            placeholder="runes",
            compact=True,
            classes="outcap--input",
            tooltip="Exact OutCap in runes (e.g. 12345, 20,000, 20k, 1.5M); Enter to apply",
        )
        """The exact-number entry."""
        self.message = Static("", markup=False, classes="outcap--message")
        """The one-line error message (hidden when empty)."""
        self.message.display = False

    def compose(self) -> ComposeResult:
        with Horizontal(classes="outcap--row"):
            yield self._label
            yield self.slider
            yield self.input
        yield self.message

    def validate_value(self, value: int) -> int:
        return min(ENTRY_MAX, max(ENTRY_MIN, int(value)))

    def watch_value(self, value: int) -> None:
        self.slider.value = value
        if parse_outcap(self.input.value) != value:
            self.input.value = str(value)
        self._show_error(None)
        self.post_message(self.Changed(self, value))

    def step_up(self) -> None:
        """One ladder step up (delegates to the slider)."""
        self.slider.step_up()

    def step_down(self) -> None:
        """One ladder step down (delegates to the slider)."""
        self.slider.step_down()

    def _show_error(self, message: str | None) -> None:
        self.message.update(message or "")
        self.message.display = bool(message)
        self.input.set_class(bool(message), "-invalid")

    def _apply_entry(self, text: str, *, revert: bool) -> None:
        parsed = parse_outcap(text)
        if parsed is None:
            self._show_error(INVALID_MESSAGE)
            if revert:
                self.input.value = str(self.value)
            return
        self._show_error(None)
        self.value = parsed
        self.input.value = str(parsed)

    @on(OutCapSlider.Changed)
    def _slider_changed(self, event: OutCapSlider.Changed) -> None:
        # Ignore stale messages (the slider has moved on since): acting on them
        # would set the value back and bounce between the two.
        if event.slider is self.slider and event.value == self.slider.value:
            self.value = event.value

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        if event.input is self.input:
            event.stop()
            self._apply_entry(event.value, revert=False)

    @on(Input.Blurred)
    def _input_blurred(self, event: Input.Blurred) -> None:
        if event.input is self.input:
            event.stop()
            if parse_outcap(event.value) != self.value:
                self._apply_entry(event.value, revert=True)
